import { flagsOf, nestedScripts, shellCallsIn, unwrapCommand } from './shell-command';

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
    expect(nested(['find', '/', '-exec', 'rm', '-rf', '{}', ';'])).toEqual([{ argv: ['rm', '-rf', '{}'], via: 'find -exec' }]);
    expect(nested(['bash'], 'rm -rf /')).toEqual([{ script: 'rm -rf /', via: 'bash <<<' }]);
  });

  it('extracts shell calls from interpreter code', () => {
    expect(shellCallsIn(`os.system("rm -rf /"); subprocess.check_output(['cat', '/etc/shadow'])`)).toEqual(['rm -rf /', 'cat /etc/shadow']);
    expect(shellCallsIn('print(1)')).toEqual([]);
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
