import { exec } from '../exec-action.fixtures';

describe('privilege-escalation reconnaissance', () => {
  it.each([
    ['find / -perm -4000 2>/dev/null', 'searches / for setuid or setgid programs (-perm -4000)'],
    ['find / -type f -perm -04000 -ls 2>/dev/null', 'searches / for setuid or setgid programs (-perm -04000)'],
    ['find /usr -perm /6000 -type f', 'searches /usr for setuid or setgid programs (-perm /6000)'],
    ['find / -perm -u=s -type f 2>/dev/null', 'searches / for setuid or setgid programs (-perm -u=s)'],
    ['find / -user root -perm /u=s,g=s -exec ls -ldb {} \\;', 'searches / for setuid or setgid programs (-perm /u=s,g=s)'],
    ['find / -perm -g=s -type f', 'searches / for setuid or setgid programs (-perm -g=s)'],
    ['cd / && find . -perm +4000', 'searches . for setuid or setgid programs (-perm +4000)'],
    ['getcap -r / 2>/dev/null', 'searches / for programs with file capabilities (getcap -r)'],
    // Listing what was found changes nothing, the search is still one (found-paths.spec.ts lists the same without -perm).
    ['find /usr/bin -perm -4000 | xargs ls -la', 'searches /usr/bin for setuid or setgid programs (-perm -4000)'],
  ])('%s asks for approval', (command, description) => {
    const v = exec(command);
    expect(v).toMatchObject({ action: 'flag', requiresApproval: true });
    expect(v.reasons.some((r) => r.includes(description))).toBe(true);
  });

  it.each([
    'find . -perm -4000',
    'find src -perm -u=s',
    'find / -perm 644 -name "*.conf"',
    'find /var/www -perm 777 -type f',
    'find . -type f -perm -u=x',
    'find / -perm -1000 -type d',
    'getcap /usr/bin/ping',
    'ls -l /usr/bin/passwd',
  ])('%s is not reconnaissance for privilege escalation', (command) => {
    expect(exec(command).reasons.join(' ')).not.toContain('reconnaissance for privilege escalation');
  });
});
