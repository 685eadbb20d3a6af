import { pathActions } from './path-actions';
import { parseShell } from './shell-parser';

const writes = (command: string) =>
  parseShell(command)
    .commands.flatMap((c) => pathActions(c))
    .filter((a) => a.verb === 'write')
    .map((a) => a.raw);

describe('pathActions: paths a program writes through its options and its code', () => {
  it('reads output options per program and the long output options of any program', () => {
    expect(writes('7z x payload.7z -o/usr/bin')).toEqual(['/usr/bin']);
    expect(writes('tcpdump -i eth0 -w /var/lib/x.pcap')).toEqual(['/var/lib/x.pcap']);
    expect(writes('cp -t /usr/local/bin tool')).toEqual(['/usr/local/bin']);
    expect(writes('sometool --output-file=/etc/motd in')).toEqual(['/etc/motd']);
    expect(writes('sometool --log-file /var/log/x.log')).toEqual(['/var/log/x.log']);
  });

  it('finds the paths code writes: awk, sed w, an editor :w, perl, python, ruby, node, php', () => {
    expect(writes('awk \'{ print > "/etc/cron.d/x" }\' payload')).toEqual(['/etc/cron.d/x']);
    expect(writes("sed -n 'w /etc/cron.d/x' payload")).toEqual(['/etc/cron.d/x']);
    expect(writes("vim -c ':w! /etc/sudoers' -c ':q' x")).toContain('/etc/sudoers');
    expect(writes('perl -e \'open(F, ">/etc/profile.d/x.sh"); print F "id";\'')).toEqual(['/etc/profile.d/x.sh']);
    expect(writes('perl -e \'open(my $f, ">>", "/etc/hosts")\'')).toEqual(['/etc/hosts']);
    expect(writes('python3 -c \'open("/etc/ld.so.preload", "w").write("x")\'')).toEqual(['/etc/ld.so.preload']);
    expect(writes('ruby -e \'File.write("/etc/hosts", "x")\'')).toEqual(['/etc/hosts']);
    expect(writes('node -e \'require("fs").writeFileSync("/etc/passwd", "x")\'')).toEqual(['/etc/passwd']);
    expect(writes('php -r \'file_put_contents("/etc/motd", "x");\'')).toEqual(['/etc/motd']);
  });

  it('does not read code that only reads, or writes relative paths, as writing system paths', () => {
    expect(writes('python3 -c \'print(open("/etc/os-release").read())\'')).toEqual([]);
    expect(writes("perl -ne 'print if /x/' /etc/hosts")).toEqual([]);
    expect(writes('awk \'{ print $1 > "out.txt" }\' /etc/passwd')).toEqual([]);
    expect(writes("sed -n '/x/p' /etc/hosts")).toEqual([]);
    expect(writes('awk \'$3 > 1000 { print "/home/" $1 }\' /etc/passwd')).toEqual([]);
  });

  it('reads the reference file of touch -r, truncate -r and chmod --reference, and changes only the target', () => {
    const actions = (command: string) => parseShell(command).commands.flatMap((c) => pathActions(c).map((a) => `${a.verb} ${a.raw}`));
    expect(actions('touch -r /bin/sh f')).toEqual(['read /bin/sh', 'write f']);
    expect(actions('touch --reference=/bin/sh -d 2020-01-01 f')).toEqual(['read /bin/sh', 'write f']);
    expect(actions('touch -t 202001010000 /usr/bin/x')).toEqual(['write /usr/bin/x']);
    expect(actions('truncate -r /usr/bin/ls out.bin')).toEqual(['read /usr/bin/ls', 'truncate out.bin']);
    expect(actions('chmod --reference=/etc/hosts notes.txt')).toEqual(['read /etc/hosts', 'permissions notes.txt']);
    expect(actions('touch -r ref.txt /usr/bin/x')).toEqual(['read ref.txt', 'write /usr/bin/x']);
  });

  it('reads code fed on stdin like code given as an argument, and more write idioms', () => {
    expect(writes('echo \'open("/usr/local/bin/x", "w").write("x")\' | python3')).toEqual(['/usr/local/bin/x']);
    expect(writes('php <<< \'<?php file_put_contents("/etc/motd", "x");\'')).toEqual(['/etc/motd']);
    expect(writes('perl -e \'open my $f, ">", "/usr/local/bin/x"; print $f "x"\'')).toEqual(['/usr/local/bin/x']);
    expect(writes('perl -e \'open F, ">/etc/hosts"; print F "x"\'')).toEqual(['/etc/hosts']);
    expect(writes('ruby -e \'IO.write("/usr/local/bin/x", "x")\'')).toEqual(['/usr/local/bin/x']);
    expect(writes('node -e \'require("fs").createWriteStream("/etc/x")\'')).toEqual(['/etc/x']);
    expect(writes('lua -e \'io.output("/etc/x"); io.write("x")\'')).toEqual(['/etc/x']);
    expect(writes("echo 'set f [open /etc/x w]; puts $f x' | tclsh")).toEqual(['/etc/x']);
    expect(writes('jjs -e \'new java.io.FileWriter("/etc/x").write("x")\'')).toEqual(['/etc/x']);
    expect(writes('julia -e \'open("/etc/x","w") do f; write(f,"x"); end\'')).toEqual(['/etc/x']);
    expect(writes('Rscript -e \'sink("/etc/x"); cat("x")\'')).toEqual(['/etc/x']);
    expect(writes("echo 'set f [open /etc/hosts r]' | tclsh")).toEqual([]);
    // Text that is not fed to a program that runs code is no code.
    expect(writes('echo \'open("/etc/x","w")\' | grep open')).toEqual([]);
    expect(writes("echo 'print(1)' | python3")).toEqual([]);
  });
});
