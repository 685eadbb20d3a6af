import { exec } from '../exec-action.fixtures';
import { patternArgs } from './pattern-args';

const patterns = (program: string, args: string[]) => [...patternArgs(program, args)].map((k) => args[k]);

describe('arguments read as patterns or scripts', () => {
  it('knows the name and path tests of find', () => {
    expect(patterns('find', ['/', '-name', '.*', '-o', '-path', '/etc/*', '-newer', 'ref'])).toEqual(['.*', '/etc/*']);
  });

  it('knows the pattern of grep, the script of sed and the program of awk', () => {
    expect(patterns('grep', ['-rn', '/etc/shadow', 'src'])).toEqual(['/etc/shadow']);
    expect(patterns('grep', ['-A', '3', '-e', '.env', '-e', '.*', 'notes.txt'])).toEqual(['.env', '.*']);
    expect(patterns('grep', ['-m', '1', 'x', '~/.aws/credentials'])).toEqual(['x']);
    expect(patterns('grep', ['-f', 'words.txt', '.env'])).toEqual([]);
    expect(patterns('sed', ['-n', 's/.*\\///p', 'f'])).toEqual(['s/.*\\///p']);
    expect(patterns('sed', ['-e', 's/a/b/', '.env'])).toEqual(['s/a/b/']);
    expect(patterns('awk', ['-F:', '{print $1}', '/etc/passwd'])).toEqual(['{print $1}']);
    expect(patterns('cat', ['.*'])).toEqual([]);
  });

  it.each([
    "find . -type f -name '.*'",
    "find ~/code -name '.*' -prune -o -type f -print",
    "find . -not -path '*/\\.*' -type f",
    "find . -type f | sed -e 's/.*\\.//' | sort | uniq -c",
    "grep -v '^.*$' notes.txt",
    "grep -rn '/etc/passwd' docs",
  ])('does not read %s as a file read', (command) => {
    expect(exec(command)).toMatchObject({ action: 'warn', riskScore: 25 });
  });

  it('still sees the files they read, and hunting by name through wide roots', () => {
    expect(exec('grep -A 3 key ~/.aws/credentials').categories).toContain('dangerous_command');
    expect(exec("awk '{print}' .env").categories).toContain('dangerous_command');
    expect(exec("sed -n 'p' ~/.ssh/id_rsa").categories).toContain('dangerous_command');
    for (const command of ["find ~ -name '.env*'", "find / -path '*/.ssh/*'", "find / -iname '*id_rsa*'", 'find /home -name .bash_history'])
      expect(exec(command).reasons.join('\n')).toContain('searches the machine for credential files');
    expect(exec("find . -name '.env*'").action).toBe('warn');
  });
});
