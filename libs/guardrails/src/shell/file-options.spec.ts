import { exec } from '../exec-action.fixtures';
import { attachedPath, embeddedFiles, optionOutputs } from './file-options';

const outputs = (command: string) => {
  const [program, ...args] = command.split(' ');
  return optionOutputs(program, args);
};

describe('files a program reads or writes through its options', () => {
  it('reads -o FILE of any program as a write, unless its -o means something else', () => {
    expect(outputs('anytool -o /usr/local/bin/x in.txt')).toEqual(['/usr/local/bin/x']);
    expect(outputs('anytool -o/usr/bin/ls')).toEqual(['/usr/bin/ls']);
    expect(outputs('anytool --save=/etc/cron.d/x')).toEqual(['/etc/cron.d/x']);
    expect(outputs('anytool --dump /var/lib/x')).toEqual(['/var/lib/x']);
    expect(outputs('ls -o /etc')).toEqual([]);
    expect(outputs('grep -o foo /etc/hosts')).toEqual([]);
    expect(outputs('kubectl get pods -o yaml')).toEqual([]);
    expect(outputs('anytool -o json')).toEqual([]);
  });

  it('reads the archive being created and the output operands the manuals give', () => {
    expect(outputs('zip /usr/local/bin/x.zip a b')).toEqual(['/usr/local/bin/x.zip']);
    expect(outputs('tar -czf /opt/x.tgz src')).toEqual(['/opt/x.tgz']);
    expect(outputs('tar czf /opt/x.tgz src')).toEqual(['/opt/x.tgz']);
    expect(outputs('tar --create --file=/opt/x.tar src')).toEqual(['/opt/x.tar']);
    expect(outputs('tar -xzf /opt/x.tgz')).toEqual([]);
    expect(outputs('7z a /opt/x.7z src')).toEqual(['/opt/x.7z']);
    expect(outputs('cpio -o -O /opt/x.cpio')).toEqual(['/opt/x.cpio']);
    expect(outputs('uniq in.txt /usr/local/bin/x')).toEqual(['/usr/local/bin/x']);
    expect(outputs('xxd -r dump.hex /usr/local/bin/x')).toEqual(['/usr/local/bin/x']);
    expect(outputs('dos2unix -n in.txt /etc/x')).toEqual(['/etc/x']);
    expect(outputs('script /var/log/x')).toEqual(['/var/log/x']);
    expect(outputs('nmap -oN /usr/local/bin/x localhost')).toEqual(['/usr/local/bin/x']);
    expect(outputs('nmap -oA scans/out localhost')).toEqual(['scans/out']);
  });

  it('finds files named inside arguments: glued to an option, in socat addresses, in SQL', () => {
    expect(attachedPath('-f/etc/shadow')).toBe('/etc/shadow');
    expect(attachedPath('-fast')).toBeNull();
    expect(embeddedFiles('socat', ['-u', 'FILE:/etc/shadow', 'STDOUT'])).toEqual([{ raw: '/etc/shadow', verb: 'read' }]);
    expect(embeddedFiles('socat', ['-u', 'TCP-LISTEN:1234', 'OPEN:/etc/x,creat'])).toEqual([{ raw: '/etc/x', verb: 'write' }]);
    expect(embeddedFiles('mysql', ['-e', "select load_file('/etc/shadow')"])).toEqual([{ raw: '/etc/shadow', verb: 'read' }]);
    expect(embeddedFiles('mysql', ['-e', "select 1 into outfile '/var/www/x.php'"])).toEqual([{ raw: '/var/www/x.php', verb: 'write' }]);
    expect(embeddedFiles('sqlite3', ['db', '.output /usr/local/bin/x', '.read /etc/shadow'])).toEqual([
      { raw: '/usr/local/bin/x', verb: 'write' },
      { raw: '/etc/shadow', verb: 'read' },
    ]);
    expect(embeddedFiles('psql', ['-c', 'select 1'])).toEqual([]);
  });

  it('judges those files like any other: a system write, a credential read', () => {
    expect(exec('echo data | anytool -o /usr/bin/ls')).toMatchObject({ action: 'flag', categories: ['sensitive_action', 'system_change'] });
    expect(exec('anytool -f/etc/shadow').action).toBe('block');
    expect(exec('socat -u FILE:/etc/shadow STDOUT').categories).toContain('dangerous_command');
    expect(exec('sqlite3 db ".output /usr/local/bin/x" "select 1"').categories).toContain('system_change');
    expect(exec('mysql -e "select load_file(\'/etc/shadow\')"').action).toBe('block');
    // A schedule or startup file written any way is persistence, as one written by a redirect is.
    expect(exec('sqlite3 app.db ".output /etc/cron.d/job" "select 1"').reasons.join('\n')).toContain('which runs code at boot or on a schedule (persistence)');
    expect(exec('cp job /etc/cron.d/job').reasons.join('\n')).toContain('which runs code at boot or on a schedule (persistence)');
    expect(exec('touch ~/.bash_profile').reasons.join('\n')).toContain('modifies shell startup file ~/.bash_profile (persistence)');
    expect(exec('touch .bash_profile').reasons.join('\n')).not.toContain('persistence');
    expect(exec('ln -s .bashrc .bash_profile').reasons.join('\n')).not.toContain('persistence');
    // Everyday uses stay as they were.
    for (const command of ['gcc -I/usr/include -L/usr/lib -o build/app main.c', 'tar -czf dist.tgz build', 'zip -r out.zip src', 'sort -o sorted.txt in.txt'])
      expect({ command, action: exec(command).action }).toEqual({ command, action: 'warn' });
  });
});
