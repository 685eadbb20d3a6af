import { compileShellPattern, matchShellPattern, ShellPatternError } from './shell-glob';

const matches = (pattern: string, text: string) => matchShellPattern(compileShellPattern(pattern), text);

describe('shell glob patterns', () => {
  it('matches the whole text or a prefix ending at a word boundary', () => {
    expect(matches('git push --force', 'git push --force')).toBe(true);
    expect(matches('git push --force', 'git push --force origin main')).toBe(true);
    expect(matches('git push --force', 'git push --force-with-lease')).toBe(false);
    expect(matches('rm', 'rmdir x')).toBe(false);
    expect(matches('rm', 'format disk')).toBe(false);
  });

  it('supports *, ? and classes, case-insensitively', () => {
    expect(matches('git push* --force*', 'GIT push origin main --force')).toBe(true);
    expect(matches('curl * | sh', 'curl -s https://x | sh')).toBe(true);
    expect(matches('terraform [ad]*', 'terraform apply -auto-approve')).toBe(true);
    expect(matches('terraform [!ad]*', 'terraform apply')).toBe(false);
    expect(matches('mkfs.???? *', 'mkfs.ext4 /dev/sda')).toBe(true);
    expect(matches('[a-c]at', 'bat')).toBe(true);
  });

  it('collapses whitespace in patterns and escapes with backslash', () => {
    expect(matches('  docker   system  prune ', 'docker system prune -af')).toBe(true);
    expect(matches('echo \\*', 'echo *')).toBe(true);
    expect(matches('echo \\*', 'echo x')).toBe(false);
  });

  it('rejects malformed patterns with a reason', () => {
    expect(() => compileShellPattern('   ')).toThrow(ShellPatternError);
    expect(() => compileShellPattern('rm [abc')).toThrow('unbalanced "["');
    expect(() => compileShellPattern('rm ]')).toThrow('unbalanced "]"');
    expect(() => compileShellPattern('rm \\')).toThrow('lone');
    expect(() => compileShellPattern('[z-a]')).toThrow('reversed');
  });

  it('handles many stars against long text without backtracking blow-up', () => {
    const p = compileShellPattern('*a'.repeat(60) + 'b');
    expect(matchShellPattern(p, 'a'.repeat(4000))).toBe(false);
    expect(matchShellPattern(p, 'a'.repeat(100) + 'b')).toBe(true);
  });
});
