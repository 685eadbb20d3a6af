import { exec } from '../exec-action.fixtures';
import { findStarts, foundUnder, printedPathRoots, withFoundPaths, xargsReplaceString } from './found-paths';
import { UNKNOWN_EXPANSION } from './shell-lexer';

const U = UNKNOWN_EXPANSION;

describe('paths a program finds and hands on', () => {
  it('reads the starting points of find, after its leading options', () => {
    expect(findStarts(['/usr', '/opt', '-name', 'x'])).toEqual(['/usr', '/opt']);
    expect(findStarts(['-L', '/usr/lib', '(', '-name', 'a', ')'])).toEqual(['/usr/lib']);
    expect(findStarts(['-name', 'x'])).toEqual(['.']);
  });

  it('stands for a file found under a known directory, and for nothing under an unknown one', () => {
    expect(foundUnder('/usr/lib/')).toBe(`/usr/lib/${U}`);
    expect(foundUnder('$DIR')).toBeNull();
    expect(withFoundPaths(['mv', '{}', '{}.bak'], '{}', ['/etc', '$D'])).toEqual([['mv', `/etc/${U}`, `/etc/${U}.bak`], null]);
  });

  it('knows which commands print paths, and under which directories', () => {
    expect(printedPathRoots('find', ['/usr', '-type', 'f'])).toEqual(['/usr']);
    expect(printedPathRoots('find', ['/usr', '-printf', '%f\\n'])).toBeNull();
    expect(printedPathRoots('grep', ['-rl', 'foo', '/usr/share', '/opt'])).toEqual(['/usr/share', '/opt']);
    expect(printedPathRoots('grep', ['-l', '-e', 'foo', '/etc'])).toEqual(['/etc']);
    expect(printedPathRoots('grep', ['-r', 'foo', '/usr'])).toBeNull();
  });

  it("reads xargs' replace string", () => {
    expect(xargsReplaceString(['xargs', '-I', '%', 'cp', '%', '/x'])).toBe('%');
    expect(xargsReplaceString(['xargs', '-0', '-I{}', 'mv', '{}'])).toBe('{}');
    expect(xargsReplaceString(['xargs', '-n', '1', 'rm'])).toBeNull();
  });

  it.each([
    [
      'find /usr/lib -name "*.so" -exec chmod 777 {} +',
      'changes the permissions or owner of "/usr/lib/$(\u2026)", in system programs and libraries (/usr) inside find -exec',
    ],
    ['find /opt/app -type f -execdir rm {} \\;', 'deletes "/opt/app/$(\u2026)", in software installed for every user (/opt) inside find -execdir'],
    [
      'find /usr/local/bin -name tool | xargs -I{} cp ./evil {}',
      'copies a file to "/usr/local/bin/$(\u2026)", in software installed for every user (/usr/local)',
    ],
    [
      'grep -rl foo /usr/share/app | xargs sed -i s/a/b/',
      'writes "/usr/share/app/$(\u2026)", in system programs and libraries (/usr) inside xargs with its piped input (the paths found)',
    ],
    ['find /usr/bin -type f | grep -v x | xargs chown nobody', 'changes the permissions or owner of "/usr/bin/$(\u2026)"'],
  ])('judges what %s runs on each file found', (command, reason) => {
    const v = exec(command);
    expect(v.action).toBe('flag');
    expect(v.reasons.join('\n')).toContain(reason);
  });

  it('leaves commands run on files found in the workspace or listed alone', () => {
    for (const command of [
      'find . -name "*.o" -exec rm {} \\;',
      'find src -name "*.ts" | xargs grep foo',
      'find /usr/bin -type f | xargs ls -la',
      'find . -print0 | xargs -0',
    ])
      expect(exec(command).action).toBe('warn');
  });

  it('does not count a rule twice for the runner and what it runs', () => {
    // The find rule judges the deletion; the rm it runs adds no second finding for the same act.
    expect(exec('find /usr -name core -exec rm {} \\;')).toMatchObject({ action: 'flag', riskScore: 75 });
    expect(exec('find . -type d | xargs chmod 2775')).toMatchObject({ action: 'flag', riskScore: 75 });
    expect(exec('find /etc -name "*.txt" | xargs ls -l')).toMatchObject({ action: 'flag', riskScore: 55 });
    // Nor a sensitive prefix once per file: two files read under /etc are one read of /etc.
    expect(exec('cat /etc/hosts /etc/resolv.conf')).toMatchObject({ action: 'flag', riskScore: 55 });
  });
});
