import { exec, stopped } from '../exec-action.fixtures';

describe('changes to the host the other rules did not name', () => {
  it.each([
    ['mount -t nfs 10.0.0.7:/shared /tmp/nfsdir', 'mounts the remote file system 10.0.0.7:/shared'],
    ['mount -o loop disk.img /tmp/img', 'mounts disk.img'],
    ['umount /mnt/usb', 'unmounts /mnt/usb'],
    ['docker -H unix:///var/run/docker.sock run -v /:/host -it ubuntu chroot /host', 'mounts the host root or docker socket'],
    ['docker --context prod run --privileged alpine id', 'starts a privileged docker container'],
    ['nsenter -t 1 -a id', 'enters the namespaces of PID 1'],
    ['nsenter --target=1 --mount -- id', 'enters the namespaces of PID 1'],
    ['lxc init myimage c1 -c security.privileged=true', 'makes a privileged container'],
    ['lxc config set c1 security.privileged true', 'makes a privileged container'],
    ['lxc config device add c1 root disk source=/ path=/mnt/root recursive=true', "hands the host's root file system to a container"],
    ["echo 'toor:$1$xyz:0:0:root:/root:/bin/sh' >> /mnt/etc/passwd", 'writes an account line with user id 0'],
    ["echo 'backup:x:0:0::/root:/bin/bash' | tee -a rootfs/etc/passwd", 'writes an account line with user id 0'],
    ['sudo -u#-1 id', 'sudo as user id -1'],
    ['sudo -u "#4294967295" /usr/bin/id', 'sudo as user id -1'],
    ['touch -- "--checkpoint-action=exec=sh shell.sh"', 'creates a file named like an option'],
    ['touch -- "-e sh x.sh"', 'creates a file named like an option'],
    ["touch $'index\\u200D.php'", 'names a file with an invisible character (U+200D)'],
    ["echo hi > $'report\\u202Etxt.exe'", 'names a file with an invisible character (U+202E)'],
    ["grep --color=auto -rnw '/' -ie PASSWORD 2>/dev/null", 'searches the machine for passwords or keys'],
    ['grep -R --regexp=api_key /home', 'searches the machine for passwords or keys'],
    ['docker run --rm -it --cap-add=SYS_ADMIN ubuntu bash', 'gives a container SYS_ADMIN'],
    ['podman run --cap-add sys_ptrace,net_admin alpine sh', 'gives a container sys_ptrace,net_admin'],
    ['docker run --security-opt apparmor=unconfined ubuntu', 'apparmor=unconfined'],
    ['echo "$host_path/cmd" > /tmp/cgrp/release_agent', 'through which the kernel runs a program as root'],
    ["echo '|/tmp/x' | tee /proc/sys/kernel/core_pattern", 'through which the kernel runs a program as root'],
    ['read -sp "[sudo] password for $USER: " sudopass', "asks for a password with another program's prompt"],
    ['read -s -p "$USER@$HOSTNAME\'s password: " p', "asks for a password with another program's prompt"],
  ])('%s asks for approval at least', (command, description) => {
    const v = exec(command);
    expect(stopped(command)).toBe(true);
    expect(v.reasons.some((r) => r.includes(description))).toBe(true);
  });

  it.each([
    'mount',
    'mount -l',
    'mount | grep sda',
    'findmnt /home',
    'docker --context prod ps',
    'docker -H tcp://127.0.0.1:2375 run -v "$PWD":/src -w /src node:20 npm test',
    'nsenter -t 4242 -n ip addr',
    'lxc launch ubuntu:22.04 c1',
    'lxc config device add c1 data disk source=/srv/data path=/data',
    "echo 'bob:x:1001:1001::/home/bob:/bin/sh' >> rootfs/etc/passwd",
    "echo 'a:b:0:0' > ratios.txt",
    'sudo -u#1000 id',
    'touch -- notes-1.md',
    'touch ./-',
    "touch 'index.php'",
    'touch -d "2 days ago" build.stamp',
    'grep -rn -e password src/',
    'grep -R -e TODO /home',
    'docker run --cap-add NET_ADMIN --device /dev/net/tun vpn',
    'docker run --security-opt seccomp=profile.json app',
    'cat /sys/fs/cgroup/release_agent',
    'echo 1 > notify.txt',
    'read -s -p "Password: " pw',
    'read -rp "Enter passphrase for the new archive: " pass',
  ])('%s is not judged a change to the host', (command) => {
    const reasons = exec(command).reasons.join(' ');
    for (const d of [
      'the machine',
      'PID 1',
      'privileged',
      "host's root",
      'host root',
      'user id 0',
      'user id -1',
      'named like an option',
      'invisible character',
      'passwords or keys',
      'gives a container',
      'unconfined',
      'runs a program as root',
      "another program's prompt",
    ])
      expect(reasons).not.toContain(d);
  });
});
