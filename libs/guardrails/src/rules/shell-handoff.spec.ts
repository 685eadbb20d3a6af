import { exec } from '../exec-action.fixtures';

describe('a shell handed to a program as an argument', () => {
  it.each([
    ['start-stop-daemon -n x -S --startas /bin/sh', 'start-stop-daemon is handed /bin/sh as an argument'],
    ['some-tool --fallback=/bin/bash', 'some-tool is handed /bin/bash as an argument'],
    ['busctl --address=unixexec:path=/bin/sh', 'busctl is handed /bin/sh as an argument'],
    ['run-job --shell "/usr/bin/zsh -i"', 'run-job is handed /usr/bin/zsh as an argument'],
  ])('%s asks for approval', (command, reason) => {
    const v = exec(command);
    expect(v).toMatchObject({ action: 'flag', requiresApproval: true });
    expect(v.reasons.join('\n')).toContain(reason);
  });

  // Handed through an option that takes a command line (shell/handed-commands.ts), the shell is followed and judged where it runs.
  it.each([
    ['start-stop-daemon -n x -S -x /bin/sh', 'start-stop-daemon starts an interactive shell (a shell escape)'],
    ['some-tool --on-error=/bin/bash', 'some-tool starts an interactive shell (a shell escape)'],
    ['run-job -e "/usr/bin/zsh -i"', 'run-job starts an interactive shell (a shell escape)'],
  ])('%s asks for approval as a shell escape, once', (command, reason) => {
    const v = exec(command);
    expect(v).toMatchObject({ action: 'flag', requiresApproval: true });
    expect(v.reasons.join('\n')).toContain(reason);
    expect(v.reasons.join('\n')).not.toContain('as an argument');
  });

  it.each([
    'ls -l /bin/sh',
    'file /bin/bash',
    'sha256sum /bin/sh /bin/dash',
    'readlink -f /bin/sh',
    'which bash',
    'chsh -s /bin/zsh',
    'docker run -it ubuntu /bin/bash',
    'kubectl exec -it web-0 -- /bin/sh',
    'ssh host /bin/bash -l',
    'tmux new-session /bin/zsh',
    'grep -c /bin/bash /etc/shells',
    'su -s /bin/bash -c "make" builder',
    'tool --config ./bin/shell.conf',
    'echo /bin/sh',
  ])('%s is not a hand-off', (command) => {
    expect(exec(command).reasons.join('\n')).not.toContain('as an argument');
  });
});
