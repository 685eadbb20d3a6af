import { flagsOf, nestedScripts, unwrapCommand } from './shell-command';

describe('unwrapCommand', () => {
  it('skips wrapper options that take values', () => {
    expect(unwrapCommand(['sudo', '-Eu', 'root', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'], elevated: true });
    expect(unwrapCommand(['timeout', '--signal', 'KILL', '10s', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['xargs', '-I', '{}', '-P', '4', 'rm', '-rf'])).toMatchObject({ program: 'rm', argsFromStdin: true });
    expect(unwrapCommand(['env', '-i', 'A=1', 'B=2', '--', 'sh'])).toMatchObject({ program: 'sh', wrappers: ['env'] });
  });

  it('splits env -S strings', () => {
    expect(unwrapCommand(['env', '-S', 'rm -rf /'])).toMatchObject({ program: 'rm', args: ['-rf', '/'] });
  });

  it('knows the options of process, identity and namespace wrappers', () => {
    expect(unwrapCommand(['taskset', '-c', '0', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['chrt', '-f', '99', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['runuser', '-u', 'nobody', '--', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'], elevated: false });
    expect(unwrapCommand(['setpriv', '--reuid', '0', '--clear-groups', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['systemd-run', '--scope', '-p', 'MemoryMax=1G', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['unshare', '-rn', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['nsenter', '-t', '1', '-m', '-p', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['screen', '-dmS', 'x', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['ionice', '-c', '3', '-t', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['watch', '-d', '-n', '5', 'rm', 'x'])).toMatchObject({ program: 'rm', args: ['x'] });
    expect(unwrapCommand(['parallel', 'rm'])).toMatchObject({ program: 'parallel', argsFromStdin: true });
  });

  it('treats a wrapper with nothing to wrap as the program', () => {
    expect(unwrapCommand(['env'])).toMatchObject({ program: 'env', args: [] });
    expect(unwrapCommand(['sudo', '-i'])).toMatchObject({ program: 'sudo', elevated: true });
  });

  it('does not treat `command -v` as running the command', () => {
    expect(unwrapCommand(['command', '-v', 'rm']).program).toBe('command');
  });

  it('reduces the program to its lowercased basename and resolves globbed names', () => {
    expect(unwrapCommand(['/USR/BIN/Rm.exe', 'x']).program).toBe('rm');
    expect(unwrapCommand(['/bin/r?', '-rf', '/'])).toMatchObject({ program: 'rm', dynamicProgram: true });
    expect(unwrapCommand(['[', '-f', 'x', ']']).program).toBe('[');
  });

  it("reads $SHELL, $EDITOR, $VISUAL and $PAGER as the user's own programs, not computed names", () => {
    expect(unwrapCommand(['exec', '$SHELL', '-l'], [false, true, false])).toMatchObject({ program: 'sh', dynamicProgram: false });
    expect(unwrapCommand(['$EDITOR', 'notes.md'], [true, false])).toMatchObject({ program: 'vi', dynamicProgram: false });
    expect(unwrapCommand(['$CMD', 'x'], [true, false])).toMatchObject({ dynamicProgram: true });
  });

  it('peels the dynamic loader and the wrappers that only change how a program runs', () => {
    expect(unwrapCommand(['/lib64/ld-linux-x86-64.so.2', '/bin/sh'])).toMatchObject({ program: 'sh', wrappers: ['ld.so'] });
    expect(unwrapCommand(['setarch', 'x86_64', '-R', '/bin/sh'])).toMatchObject({ program: 'sh', wrappers: ['setarch'] });
    expect(unwrapCommand(['faketime', '2020-01-01', 'date'])).toMatchObject({ program: 'date' });
    expect(unwrapCommand(['rlwrap', '-f', 'words', 'sqlite3'])).toMatchObject({ program: 'sqlite3' });
    expect(unwrapCommand(['sudo', 'EDITOR=tee -a', 'visudo'])).toMatchObject({ program: 'visudo', elevated: true });
  });
});

describe('nestedScripts', () => {
  const nested = (argv: string[], here: string | null = null) => nestedScripts(unwrapCommand(argv), here);

  it('finds -c scripts, eval, su -c and ssh remote commands', () => {
    expect(nested(['bash', '-xec', 'rm -rf /'])).toEqual([{ script: 'rm -rf /', via: 'bash -c' }]);
    expect(nested(['eval', 'rm', '-rf', '/'])).toEqual([{ script: 'rm -rf /', via: 'eval' }]);
    expect(nested(['su', '-', 'root', '-c', 'id'])).toEqual([{ script: 'id', via: 'su -c' }]);
    expect(nested(['ssh', '-i', 'key', 'host', 'rm', '-rf', '/'])).toEqual([{ script: 'rm -rf /', via: 'ssh (remote command)' }]);
  });

  it('finds find -exec commands and herestrings', () => {
    expect(nested(['find', '/', '-exec', 'rm', '-rf', '{}', ';'])).toEqual([{ argv: ['rm', '-rf', '/\u27e8\u2026\u27e9'], via: 'find -exec' }]);
    expect(nested(['find', '/usr', '/opt', '-exec', 'rm', '{}', ';']).map((n) => n.argv)).toEqual([
      ['rm', '/usr/\u27e8\u2026\u27e9'],
      ['rm', '/opt/\u27e8\u2026\u27e9'],
    ]);
    expect(nested(['find', '.', '-exec', 'make', ';'])).toEqual([{ argv: ['make'], via: 'find -exec' }]);
    expect(nested(['bash'], 'rm -rf /')).toEqual([{ script: 'rm -rf /', via: 'bash <<<' }]);
  });

  it('finds scripts given to wrapper options and launchers', () => {
    expect(nested(['flock', '/tmp/l', '-c', 'rm -rf /'])).toEqual([{ script: 'rm -rf /', via: 'flock -c' }]);
    expect(nested(['runuser', '-', 'root', '-c', 'id'])).toEqual([{ script: 'id', via: 'runuser -c' }]);
    expect(nested(['script', '-qc', 'id', '/dev/null'])).toEqual([{ script: 'id', via: 'script -c' }]);
    expect(nested(['tmux', 'new-session', '-d', '-s', 'x', 'rm', '-rf', '/'])).toEqual([{ script: 'rm -rf /', via: 'tmux new-session' }]);
    expect(nested(['tmux', 'send-keys', '-t', 'x', 'rm -rf /', 'Enter'])).toEqual([{ script: 'rm -rf /\n', via: 'tmux send-keys' }]);
    expect(nested(['parallel', '-j', '4', 'rm -rf {}', ':::', 'a', 'b'])).toEqual([
      { script: 'rm -rf a', via: 'parallel' },
      { script: 'rm -rf b', via: 'parallel' },
    ]);
    expect(nested(['parallel', ':::', 'id', 'ls'])).toEqual([
      { script: 'id', via: 'parallel' },
      { script: 'ls', via: 'parallel' },
    ]);
  });

  it('finds the code of interpreter one-liners by their own options', () => {
    expect(nested(['node', '-p', `require('child_process').execSync('id')`])).toEqual([{ script: 'id', via: 'node code' }]);
    expect(nested(['fish', '--command=id'])).toEqual([{ script: 'id', via: 'fish -c' }]);
  });
});

describe('flagsOf', () => {
  it('reads clusters, long options and operands after --', () => {
    const f = flagsOf(['-rf', '--no-preserve-root', 'a', '--', '-b']);
    expect([...f.short]).toEqual(['r', 'f']);
    expect([...f.long]).toEqual(['--no-preserve-root']);
    expect(f.operands).toEqual(['a', '-b']);
  });
});
