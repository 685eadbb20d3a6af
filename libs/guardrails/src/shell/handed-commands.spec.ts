import { exec } from '../exec-action.fixtures';
import { handedCommandLines } from './handed-commands';
import { parseShell } from './shell-parser';

const reasons = (command: string) => exec(command).reasons.join('\n');
const handed = (command: string) => {
  const [program, ...args] = command.split(' ');
  return handedCommandLines(program, args, false).map((h) => h.script);
};

describe('command lines handed to a program through its options', () => {
  it('finds the command line of -c, -e, -x and long options named for a command', () => {
    expect(handedCommandLines('watcher', ['-e', 'make test'], false)).toEqual([{ script: 'make test', via: 'watcher (a command line it is handed)' }]);
    expect(handedCommandLines('tool', ['--exec=rm -rf build', '--on-error', 'notify-send fail'], false).map((h) => h.script)).toEqual([
      'rm -rf build',
      'notify-send fail',
    ]);
    expect(handedCommandLines('tool', ['--post-build-hook', 'cp out /x', '--onSuccess', 'node dist/x.js'], false).map((h) => h.script)).toEqual([
      'cp out /x',
      'node dist/x.js',
    ]);
    expect(handed('tool -x /bin/sh')).toEqual(['/bin/sh']);
    expect(handed('tool -c bash')).toEqual(['bash']);
  });

  it('reads a terminal as running the rest of its arguments', () => {
    expect(handedCommandLines('xterm', ['-e', 'rm', '-rf', 'my dir'], false)).toEqual([
      { script: "rm -rf 'my dir'", via: 'xterm (a terminal running a command)' },
    ]);
    expect(handedCommandLines('gnome-terminal', ['--', 'bash', '-c', 'id; id'], false).map((h) => h.script)).toEqual(["bash -c 'id; id'"]);
  });

  it('does not read counts, names, patterns or flags as command lines', () => {
    expect(handed('tool -c 100')).toEqual([]);
    expect(handed('tool -e https://referrer.example')).toEqual([]);
    expect(handed('tool -x release')).toEqual([]);
    expect(handed('tool --no-exec make all')).toEqual([]);
    expect(handed('tool --dry-run make all')).toEqual([]);
    expect(handed('tool --one-file-system rm x')).toEqual([]);
    expect(handed('tool -c KEY=value other')).toEqual([]);
    // Programs whose -c/-e means something else, or that are followed by rules of their own.
    expect(handed("grep -e 'rm -rf /' notes.txt")).toEqual([]);
    expect(handed('wc -c my file')).toEqual([]);
    expect(handed('docker run -e A=1 img')).toEqual([]);
    expect(handedCommandLines('tool', ['-e', 'rm -rf /'], true)).toEqual([]);
  });

  it('analyses the command line like bash -c, under any wrapper', () => {
    expect(exec("watcher -e 'rm -rf /usr'").action).toBe('block');
    expect(reasons("env prog --command 'cat /etc/shadow'")).toContain('inside prog (a command line it is handed)');
    expect(reasons("nice -n 5 sg root -c 'rm -rf /usr'")).toContain('recursive delete of system directory /usr');
    expect(exec("nodemon --exec 'ts-node src/index.ts'")).toMatchObject({ action: 'warn', categories: ['sensitive_action'] });
  });

  it('reads a shell handed as a command line as a shell escape, once', () => {
    for (const command of ['tool -e sh', 'tool --exec=/bin/bash', 'start-stop-daemon -S -x /bin/sh']) {
      const v = exec(command);
      expect({ command, action: v.action, escape: v.reasons.some((r) => r.includes('(a shell escape)')) }).toEqual({ command, action: 'flag', escape: true });
      expect(v.reasons.some((r) => r.includes('as an argument, which it may run'))).toBe(false);
    }
    // A terminal's shell is the user's own.
    expect(exec('xterm -e bash').action).toBe('warn');
  });
});

describe('xargs handing its input to a shell', () => {
  it('gives -I one input line per argument', () => {
    expect(reasons("echo 'rm -rf /' | xargs -I{} sh -c '{}'")).toContain('recursive delete of the root filesystem');
    const echo = parseShell("printf 'a b\\nc\\n' | xargs -I{} echo {}").commands.filter((c) => c.via?.startsWith('xargs'));
    expect(echo.map((c) => c.argv)).toEqual([
      ['echo', 'a b'],
      ['echo', 'c'],
    ]);
  });

  it('escalates a shell whose script is an input line only known at run time', () => {
    for (const command of ["cat cmds | xargs -I{} sh -c '{}'", 'cat cmds | xargs -I % bash -c %', 'cat cmds | xargs sh -c', 'cat cmds | xargs -L1 sh -c']) {
      const v = exec(command);
      expect({ command, action: v.action, categories: v.categories }).toEqual({
        command,
        action: 'flag',
        categories: ['sensitive_action', 'obfuscated_command'],
      });
    }
    // A script whose program is known, or a program that is not a shell, is not code made at run time.
    expect(exec("cat cmds | xargs -I{} sh -c 'wc -l {}'").action).toBe('warn');
    expect(exec('cat list | xargs rm -f').action).toBe('warn');
  });
});
