import { interpreterCode, shellCallsIn } from './interpreter-code';

describe('interpreterCode', () => {
  it("follows each interpreter's own options", () => {
    expect(interpreterCode('node', ['-p', 'CODE'])).toBe('CODE');
    expect(interpreterCode('node', ['--print', 'CODE'])).toBe('CODE');
    expect(interpreterCode('node', ['--eval=CODE'])).toBe('CODE');
    expect(interpreterCode('node', ['-r', 'dotenv/config', '-pe', 'CODE'])).toBe('CODE');
    expect(interpreterCode('python3', ['-W', 'ignore', '-Sc', 'CODE'])).toBe('CODE');
    expect(interpreterCode('python3', ['-cCODE'])).toBe('CODE');
    expect(interpreterCode('perl', ['-0777', '-lne', 'CODE'])).toBe('CODE');
    expect(interpreterCode('perl', ['-pi.bak', '-E', 'CODE'])).toBe('CODE');
    expect(interpreterCode('ruby', ['-r', 'socket', '-e', 'CODE'])).toBe('CODE');
    expect(interpreterCode('php', ['-c', '/etc/php.ini', '-r', 'CODE'])).toBe('CODE');
    expect(interpreterCode('php', ['-B', 'A', '-R', 'B'])).toBe('A\nB');
    expect(interpreterCode('deno', ['eval', 'CODE'])).toBe('CODE');
  });

  it('finds no code in module runs, scripts and option values', () => {
    expect(interpreterCode('python3', ['-m', 'http.server', '-c', 'x'])).toBeNull();
    expect(interpreterCode('node', ['-r', 'ts-node/register', 'script.ts', '-e', 'x'])).toBeNull();
    expect(interpreterCode('ruby', ['-rjson', 'app.rb'])).toBeNull();
  });
});

describe('shellCallsIn', () => {
  it('extracts shell calls from interpreter code, AppleScript included', () => {
    expect(shellCallsIn(`os.system("rm -rf /"); subprocess.check_output(['cat', '/etc/shadow'])`)).toEqual(['rm -rf /', 'cat /etc/shadow']);
    expect(shellCallsIn('do shell script "rm -rf ~"')).toEqual(['rm -rf ~']);
    expect(shellCallsIn('print(1)')).toEqual([]);
  });
});
