import { compilePathPrefix, isUnderWorkspace, matchesPathPrefix, normalizePath, PLACEHOLDER_HOME } from './path-normalizer';

const norm = (p: string) => normalizePath(p).display;
const under = (path: string, prefix: string) => matchesPathPrefix(normalizePath(path), compilePathPrefix(prefix));

describe('normalizePath', () => {
  it('resolves . and .. and repeated or trailing slashes', () => {
    expect(norm('/etc/./ssh//sshd_config/')).toBe('/etc/ssh/sshd_config');
    expect(norm('/var/www/../../etc/passwd')).toBe('/etc/passwd');
    expect(norm('/../../..')).toBe('/');
  });

  it('resolves relative paths against the workspace (or a given cwd)', () => {
    expect(norm('src/index.ts')).toBe('/workspace/src/index.ts');
    expect(norm('../../etc/passwd')).toBe('/etc/passwd');
    expect(normalizePath('shadow', '/etc').display).toBe('/etc/shadow');
  });

  it('expands ~, ~user, $HOME and ${HOME} to the placeholder home', () => {
    expect(norm('~')).toBe(PLACEHOLDER_HOME);
    expect(norm('~/.ssh/id_rsa')).toBe(`${PLACEHOLDER_HOME}/.ssh/id_rsa`);
    expect(norm('$HOME/.aws')).toBe(`${PLACEHOLDER_HOME}/.aws`);
    expect(norm('${HOME}/.aws')).toBe(`${PLACEHOLDER_HOME}/.aws`);
    expect(norm('~alice/.ssh')).toBe('/home/alice/.ssh');
    expect(norm('~root/.ssh')).toBe('/root/.ssh');
  });

  it('turns backslashes and drive letters into POSIX paths', () => {
    expect(norm('C:\\Users\\bob\\.aws\\credentials')).toBe('/c/Users/bob/.aws/credentials');
    expect(norm('..\\..\\etc\\passwd')).toBe('/etc/passwd');
  });

  it('reads the path of a file URI, without its query', () => {
    expect(norm('file:///etc/shadow')).toBe('/etc/shadow');
    expect(norm('file:/etc/shadow')).toBe('/etc/shadow');
    expect(norm('file:/home/agent/Library/Cookies/Cookies.binarycookies?immutable=1')).toBe('/home/agent/Library/Cookies/Cookies.binarycookies');
    expect(norm('file:data.db?mode=ro')).toBe('/workspace/data.db');
  });

  it('decodes percent-encoding, including double encoding, and reports it', () => {
    expect(normalizePath('%2e%2e/%2e%2e/etc/shadow')).toMatchObject({ display: '/etc/shadow', encoded: true, climbed: true });
    expect(norm('%252e%252e%252fetc/shadow')).toBe('/etc/shadow');
    expect(normalizePath('/etc/passwd')).toMatchObject({ encoded: false, climbed: false });
  });

  it('sees through well-known links back into the tree', () => {
    expect(norm('/proc/self/root/etc/shadow')).toBe('/etc/shadow');
    expect(norm('/proc/1234/root/root/.ssh')).toBe('/root/.ssh');
    expect(norm('/private/etc/master.passwd')).toBe('/etc/master.passwd');
    expect(norm('/var/run/docker.sock')).toBe('/run/docker.sock');
  });

  it('cuts at NUL and folds full-width characters', () => {
    expect(norm('/etc/passwd\u0000.png')).toBe('/etc/passwd');
    expect(norm('/\uff45\uff54\uff43/passwd')).toBe('/etc/passwd');
  });

  it('lowercases the comparison key only', () => {
    expect(normalizePath('/ETC/Shadow')).toMatchObject({ display: '/ETC/Shadow', key: '/etc/shadow' });
  });

  it('knows what stays inside the workspace', () => {
    expect(isUnderWorkspace(normalizePath('./a/../b'))).toBe(true);
    expect(isUnderWorkspace(normalizePath('../b'))).toBe(false);
  });

  it('takes its shortcuts only where the full walk gives the same path', () => {
    // The full walk over segments, as every path took it before the shortcuts (ASCII,
    // canonical absolute paths, no link roots): one generated path each, checked against it.
    const walk = (p: string, cwd: string): { display: string; climbed: boolean } => {
      const abs = p.startsWith('/') ? p : `${cwd}/${p}`;
      const segments: string[] = [];
      let climbed = false;
      for (const seg of abs.split('/')) {
        if (seg === '' || seg === '.') continue;
        if (seg === '..') {
          climbed = true;
          segments.pop();
        } else segments.push(seg);
      }
      return { display: '/' + segments.join('/'), climbed };
    };
    const parts = ['', '.', '..', '...', '.a', 'a.', 'etc', 'Src', 'x y', 'proc2', 'devices', 'variable'];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 2000; i++) {
      const segs = Array.from({ length: 1 + next(6) }, () => parts[next(parts.length)]);
      const p = (next(2) ? '/' : '') + segs.join('/') + (next(4) ? '' : '/');
      const cwd = next(2) ? '/workspace' : '/srv/app';
      const got = normalizePath(p, cwd);
      const want = walk(p, cwd);
      expect({ p, display: got.display, climbed: got.climbed }).toEqual({ p, ...want });
      expect(got.key).toBe(want.display.toLowerCase());
    }
  });
});

describe('matchesPathPrefix', () => {
  it('matches whole path segments, case-insensitively', () => {
    expect(under('/etc/passwd', '/etc')).toBe(true);
    expect(under('/ETC', '/etc/')).toBe(true);
    expect(under('/etcetera/x', '/etc')).toBe(false);
  });

  it('matches a home-relative prefix in every user home', () => {
    for (const p of ['~/.ssh/id_rsa', '/home/alice/.ssh/id_rsa', '/root/.ssh/id_rsa', '/Users/bob/.ssh', 'C:\\Users\\bob\\.ssh\\id_rsa']) {
      expect(under(p, '~/.ssh')).toBe(true);
    }
    expect(under('/home/alice/projects/.ssh-notes', '~/.ssh')).toBe(false);
    expect(under('/srv/.ssh/id_rsa', '~/.ssh')).toBe(false);
  });

  it('keeps explicit homes explicit', () => {
    expect(under('/home/bob/.ssh', '/home/alice/.ssh')).toBe(false);
  });

  it('normalizes the prefix the same way as the path', () => {
    expect(under('/srv/secrets/db.txt', '/SRV/./secrets/')).toBe(true);
    expect(under('/run/docker.sock', '/var/run/docker.sock')).toBe(true);
  });
});
