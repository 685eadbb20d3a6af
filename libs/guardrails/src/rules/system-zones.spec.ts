import { authorizeAction } from '../action-authorization';
import { GuardrailPolicyOverride, resolvePolicy } from '../guardrail-policy';
import { normalizePath } from '../paths/path-normalizer';
import { PathVerb } from '../shell/path-actions';
import { compileZones, zoneHit } from './system-zones';

const zones = compileZones(undefined);
const hit = (path: string, verb: PathVerb) => zoneHit(normalizePath(path), verb, zones);
const exec = (command: string, policy?: GuardrailPolicyOverride) =>
  authorizeAction({ actionType: 'exec', command, targetPath: '', requestedPermissions: [] }, resolvePolicy(policy));

describe('system zones', () => {
  it.each([
    ['/usr/bin/ls', 'write', 'programs', 'high'],
    ['/usr/local/bin/tool', 'copy_into', 'installed_software', 'high'],
    ['/etc/hosts', 'write', 'configuration', 'high'],
    ['/etc/sudoers.d/agent', 'write', 'accounts', 'critical'],
    ['/etc/shadow', 'permissions', 'accounts', 'critical'],
    ['/boot/vmlinuz', 'delete', 'boot', 'critical'],
    ['/boot/grub/grub.cfg', 'write', 'boot', 'high'],
    ['/proc/sysrq-trigger', 'write', 'kernel_trigger', 'critical'],
    ['/proc/1234/mem', 'write', 'kernel_trigger', 'critical'],
    ['/proc/sys/kernel/randomize_va_space', 'write', 'kernel', 'high'],
    ['/dev/sda', 'read', 'raw_storage', 'high'],
    ['/dev/input/event0', 'read', 'input_devices', 'high'],
    ['/var/log/auth.log', 'truncate', 'logs', 'high'],
    ['/var/log/app.log', 'write', 'logs', 'medium'],
    ['/var/lib/dpkg/status', 'delete', 'system_state', 'high'],
    ['/root/.profile', 'write', 'root_home', 'high'],
    ['/usr/bin/../../etc/passwd', 'write', 'accounts', 'critical'],
    ['/usr/bin/*', 'delete', 'programs', 'high'],
    // Writing a process's memory is a kernel trigger; reading it reads raw memory.
    ['/proc/1234/mem', 'read', 'raw_storage', 'high'],
  ] as const)('%s (%s) is in %s, %s', (path, verb, id, severity) => {
    expect(hit(path, verb)).toMatchObject({ zone: { id }, severity });
  });

  it.each([
    ['/usr/bin/ls', 'read'],
    ['/bin', 'list'],
    ['/proc/cpuinfo', 'read'],
    ['/etc/os-release', 'read'],
    ['/dev/null', 'write'],
    ['/dev/stdout', 'write'],
    ['/dev/shm/cache', 'write'],
    ['/tmp/build', 'delete'],
    ['/workspace/etc/passwd', 'write'],
    ['/home/agent/.local/bin/tool', 'write'],
    ['/proc/1234/mem', 'list'],
  ] as const)('%s (%s) is ordinary', (path, verb) => {
    expect(hit(path, verb)).toBeNull();
  });

  it('lets reading harmless system facts through, and stops changing them', () => {
    for (const command of ['uname -a', 'cat /proc/cpuinfo', 'ls /bin', 'ls -la /usr/local/bin', 'lsblk', 'free -m', 'df -h /']) {
      expect({ command, action: exec(command).action }).toEqual({ command, action: 'warn' });
    }
    // ...and a name computed at run time whose directory is unknown too says nothing.
    for (const command of ['rm -f /$(cat name)', 'rm -f /usr/$(x)/../../tmp/y'])
      expect({ command, action: exec(command).action }).toEqual({ command, action: 'warn' });
    const cases: Array<[string, string, string]> = [
      ['cp ./evil /usr/bin/ls', 'flag', 'copies a file to "/usr/bin/ls", in system programs and libraries (/usr)'],
      ['cd /usr/bin && rm python3', 'flag', 'deletes "python3" (resolves to /usr/bin/python3), in system programs and libraries (/usr)'],
      ['echo "agent ALL=(ALL) NOPASSWD:ALL" >> /etc/sudoers', 'block', 'writes "/etc/sudoers", in accounts, passwords and sudo rules (/etc/sudoers)'],
      ['cat /dev/null > /var/log/nginx/access.log', 'flag', 'empties "/var/log/nginx/access.log", in system logs (/var/log)'],
      ['echo c > /proc/sysrq-trigger', 'block', 'writes "/proc/sysrq-trigger"'],
      ['mount -o remount,rw /dev/sda1 /boot', 'flag', 'mounts or unmounts "/dev/sda1", in raw disks and memory (/dev/sda1)'],
      ['dd if=/dev/nvme0n1 of=/tmp/disk.img bs=4M', 'flag', 'reads "/dev/nvme0n1", in raw disks and memory'],
      ['sudo chown -h nobody /usr/bin/sudo', 'flag', 'changes the permissions or owner of "/usr/bin/sudo"'],
      // A name computed at run time in a known system directory is still in that directory.
      ['rm -f /usr/lib/$(cat name)', 'flag', 'deletes "/usr/lib/$(\u2026)", in system programs and libraries (/usr)'],
      ['PID=$(pgrep app); dd if=/proc/"$PID"/mem of=/tmp/heap.bin', 'flag', 'reads "/proc/1/mem", in raw disks and memory'],
    ];
    for (const [command, action, reason] of cases) {
      const v = exec(command);
      expect({ command, action: v.action }).toEqual({ command, action });
      expect(v.reasons.join('\n')).toContain(reason);
    }
  });

  it('counts sudo and a system change together as a request for approval, not a block', () => {
    const v = exec('sudo tee -a /etc/hosts <<< "10.0.0.5 db.internal"');
    expect(v).toMatchObject({ action: 'flag', riskScore: 75, requiresApproval: true });
    expect(v.categories).toEqual(['sensitive_action', 'system_change', 'privilege_escalation']);
  });

  it('does not read a reference file as a file written (touch -r, chmod --reference)', () => {
    expect(exec('touch -r /bin/sh f')).toMatchObject({ action: 'warn', categories: ['sensitive_action'] });
    expect(exec('chmod --reference=/usr/bin/ls ./run.sh').action).toBe('warn');
    expect(exec('touch -r /etc/hosts f').reasons).toContain('command reads "/etc/hosts", under sensitive prefix "/etc"');
    expect(exec('touch -r ./ref /usr/bin/ls').categories).toContain('system_change');
  });

  it('reports a system change once, not again as a sensitive path', () => {
    const v = exec('echo 127.0.0.1 x >> /etc/hosts');
    expect(v.categories).toEqual(['sensitive_action', 'system_change']);
    expect(v.riskScore).toBe(75);
  });

  it('judges a targetPath by the verb of its action type', () => {
    const policy = resolvePolicy();
    const write = authorizeAction({ actionType: 'file_write', command: '', targetPath: '/usr/lib/libc.so.6', requestedPermissions: [] }, policy);
    expect(write).toMatchObject({ action: 'flag', categories: ['system_change'] });
    const climbed = authorizeAction({ actionType: 'file_delete', command: '', targetPath: '../../boot/vmlinuz', requestedPermissions: [] }, policy);
    expect(climbed.reasons[1]).toBe('targetPath deletes "../../boot/vmlinuz" (resolves to /boot/vmlinuz), in the boot loader and kernels (/boot)');
    expect(climbed.action).toBe('block');
    const read = authorizeAction({ actionType: 'file_read', command: '', targetPath: '/usr/lib/os-release', requestedPermissions: [] }, policy);
    expect(read).toMatchObject({ action: 'allow', categories: [] });
  });

  describe('project policy', () => {
    it('widens the map with systemZones.add', () => {
      expect(exec('rm -f /srv/app/config.yml').action).toBe('warn');
      const v = exec('rm -f /srv/app/config.yml', { systemZones: { add: ['/srv/app'], exempt: [] } });
      expect(v.action).toBe('flag');
      expect(v.reasons).toContain('command "rm -f /srv/app/config.yml" deletes "/srv/app/config.yml", in a zone the project policy protects (/srv/app)');
    });

    it('narrows it with systemZones.exempt, while a more specific zone still applies', () => {
      const policy = { systemZones: { add: [], exempt: ['/usr/local', '/etc'] } };
      expect(exec('cp ./tool /usr/local/bin/tool', policy).categories).not.toContain('system_change');
      expect(exec('cp ./tool /usr/bin/tool', policy).categories).toContain('system_change');
      expect(exec('echo x >> /etc/motd', policy).categories).not.toContain('system_change');
      expect(exec('echo x >> /etc/sudoers', policy).action).toBe('block');
    });
  });
});
