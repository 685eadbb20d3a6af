import { awkCode, execOptionScripts } from './exec-options';

const scripts = (program: string, args: string[]) => execOptionScripts(program, args).map((s) => s.script);

describe('execOptionScripts: option values a program hands to a shell', () => {
  it("reads each program's own command-taking options", () => {
    expect(scripts('tar', ['cf', 'x.tar', '--checkpoint=1', '--checkpoint-action=exec=sh x.sh'])).toEqual(['sh x.sh']);
    expect(scripts('tar', ['--to-command', 'cat', '-I', 'zstd -T0', 'xf', 'a'])).toEqual(['cat', 'zstd -T0']);
    expect(scripts('rsync', ['-e', 'ssh -p 2', '--rsync-path=sudo rsync', 'a', 'b:'])).toEqual(['ssh -p 2', 'sudo rsync']);
    expect(scripts('zip', ['o.zip', 'f', '-T', '-TT', 'sh #'])).toEqual(['sh #']);
    expect(scripts('ssh', ['-o', 'ProxyCommand=nc %h %p', '-oLocalCommand id', 'h'])).toEqual(['nc %h %p', 'id']);
    expect(scripts('scp', ['-S', './x.sh', 'f', 'h:'])).toEqual(['./x.sh']);
    expect(scripts('git', ['-c', 'core.pager=less -R', '-c', 'alias.x=!id', '-c', 'user.name=me', 'log'])).toEqual(['less -R', 'id']);
    expect(scripts('git', ['rebase', '-x', 'npm test', 'main'])).toEqual(['npm test']);
    expect(scripts('git', ['bisect', 'run', 'make', 'check'])).toEqual(['make check']);
    expect(scripts('vim', ['-c', ':!id', '+:sh', '--cmd', 'py3 import os'])).toEqual(['id', "python3 -c 'import os'", 'sh']);
    expect(scripts('gdb', ['-ex', '!id', '-ex', 'shell ls', '-ex', 'break main'])).toEqual(['id', 'ls']);
    expect(scripts('emacs', ['--eval', '(shell-command "id")'])).toEqual(['id']);
    expect(scripts('sqlite3', ['db', '.shell id'])).toEqual(['id']);
    expect(scripts('mysql', ['-e', '\\! id'])).toEqual(['id']);
    expect(scripts('make', ['--eval=x:\n\t@id'])).toEqual(['id']);
    expect(scripts('expect', ['-c', 'spawn -noecho ssh h; interact'])).toEqual(['ssh h']);
    expect(scripts('awk', ['BEGIN { system("id"); print | "sort"; "date" | getline d }'])).toEqual(['id', 'sort', 'date']);
    expect(scripts('sed', ['-n', '1e id', 'f'])).toEqual(['id']);
    expect(scripts('man', ['-P', 'cat', 'ls'])).toEqual(['cat']);
  });

  it('finds nothing in ordinary use', () => {
    expect(scripts('tar', ['czf', 'a.tgz', 'src'])).toEqual([]);
    expect(scripts('git', ['-c', 'user.email=a@b', 'commit', '--exec-path'])).toEqual([]);
    expect(scripts('vim', ['-c', ':set number', '+10', 'f'])).toEqual([]);
    expect(scripts('sed', ['-e', 's/e /x/', '-e', '/^$/d', 'f'])).toEqual([]);
    expect(scripts('awk', ['-F', ':', '{ print $1 }', '/etc/passwd'])).toEqual([]);
    expect(scripts('sqlite3', ['db', '.tables'])).toEqual([]);
    expect(scripts('ls', ['-e', 'sh'])).toEqual([]);
  });

  it('reads awk program text past its options, and none from -f', () => {
    expect(awkCode(['-F', ':', '-v', 'x=1', '{print}', 'f'])).toBe('{print}');
    expect(awkCode(['-f', 'prog.awk', 'f'])).toBeNull();
    expect(awkCode(['--', '{print}'])).toBe('{print}');
  });
});
