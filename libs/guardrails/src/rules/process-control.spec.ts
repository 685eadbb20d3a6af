import { exec } from '../exec-action.fixtures';
import { systemProcessKind } from './process-control';

describe('killing and stopping system processes', () => {
  it.each([
    ['kill -9 1', 'block', 'kills PID 1 (init), which brings the whole system down'],
    ['pkill sshd', 'flag', 'pkill of sshd, a system daemon'],
    ['sudo killall -9 auditd', 'flag', 'killall of auditd, a security or audit agent'],
    ['kill -9 $(pgrep rsyslogd)', 'flag', 'kills rsyslogd, a system daemon'],
    ['kill -9 `pidof cron`', 'flag', 'kills cron, a system daemon'],
    ["ps aux | grep [s]shd | awk '{print $2}' | xargs kill -9", 'flag', 'kills [s]shd, a system daemon'],
    ["for p in $(ps -ef | awk '{print $2}'); do kill -9 $p; done", 'warn', null],
    ["ps aux | grep sshd | awk '{print $2}' | while read pid; do kill -9 $pid; done", 'flag', 'kills sshd, a system daemon'],
    ['ps -eo pid= | while read -r p; do kill -9 "$p"; done', 'flag', 'kills every process ps lists'],
    ["pgrep -f 'node server' | while read pid; do kill $pid; done", 'warn', null],
    ['while read pid; do kill -9 $pid; done < <(pgrep -x auditd)', 'flag', 'kills auditd, a security or audit agent'],
    ["kill -9 $(ps -ef | awk '{print $2}')", 'flag', 'kills every process ps lists'],
    ['pkill -9 -u root', 'flag', 'pkill of every process of root'],
    ['systemctl stop auditd.service', 'flag', 'systemctl stop auditd.service, a security or audit agent'],
    ['systemctl disable --now ssh', 'flag', 'systemctl disable ssh, a system daemon'],
    ['service rsyslog stop', 'flag', 'service stop rsyslog, a system daemon'],
    ['/etc/init.d/cron stop', 'flag', 'stops cron, a system daemon'],
    ['systemctl isolate rescue.target', 'flag', 'switches the machine to rescue.target (most services stop)'],
  ])('%s: %s', (command, action, reason) => {
    const v = exec(command);
    expect(v.action).toBe(action);
    if (reason) expect(v.reasons.join('\n')).toContain(reason);
  });

  it.each([
    'kill -9 12345',
    'kill %1',
    'pkill -f "node server.js"',
    'killall node',
    "ps aux | grep node | awk '{print $2}' | xargs kill",
    'kill $(cat /tmp/app.pid)',
    'systemctl restart nginx',
    'systemctl status sshd',
    'service postgresql start',
    'pgrep -a sshd',
  ])('%s is ordinary', (command) => {
    expect(exec(command).categories).not.toContain('process_control');
  });

  it('knows unit names and grep tricks as the daemon they name', () => {
    expect(systemProcessKind('sshd.service')).toBe('a system daemon');
    expect(systemProcessKind('[a]uditd')).toBe('a security or audit agent');
    expect(systemProcessKind('^cron$')).toBe('a system daemon');
    expect(systemProcessKind('myapp')).toBeNull();
  });
});
