import { credentialKind } from '../rules/credential-files';
import { globReaches, hasPathGlob, templateOf } from './path-glob';
import { compilePathPrefix, matchesPathPrefix, normalizePath } from './path-normalizer';

const under = (path: string, prefix: string) => matchesPathPrefix(normalizePath(path), compilePathPrefix(prefix));
const credential = (path: string) => credentialKind(normalizePath(path));

describe('path globs', () => {
  it('recognizes globs and brace lists in paths, not in code or prose', () => {
    expect(['/?*', '/[!w]*', '~/.ss?/id_rsa', '/{a,{b,c}}', '/x/{1..3}'].map(hasPathGlob)).toEqual([true, true, true, true, true]);
    expect(['/etc/passwd', '${HOME}/x', 'a,b', `{open(STDIN,">&S");exec("/bin/sh")}`, 'rm -rf /*'].map(hasPathGlob)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('matches a glob segment by segment, exactly or anything under', () => {
    expect(globReaches('/e?c', templateOf('/etc'), 'exact')).toBe(true);
    expect(globReaches('/e?c/x', templateOf('/etc'), 'exact')).toBe(false);
    expect(globReaches('/e?c/x', templateOf('/etc'), 'under')).toBe(true);
    expect(globReaches('/*', templateOf('/etc/shadow'), 'under')).toBe(false);
    expect(globReaches('/**', templateOf('/etc/shadow'), 'exact')).toBe(true);
  });

  it('never lets *, ? or [...] match a leading dot, as bash without dotglob', () => {
    expect(under('~/*', '~/.ssh')).toBe(false);
    expect(under('~/.?*', '~/.ssh')).toBe(true);
    expect(under('/home/*/.s*', '~/.ssh')).toBe(true);
  });

  it('expands leftover (quoted or nested) brace lists as bash would', () => {
    expect(under('/{e,x}tc/hosts', '/etc')).toBe(true);
    expect(under('~/{.ssh,.aws}/x', '~/.aws')).toBe(true);
    expect(under('/{b{in,oot},e{tc,x}}', '/etc')).toBe(true);
    expect(credential('src/**/*.{ts,tsx}')).toBeNull();
  });

  it('finds the credential files a glob could name', () => {
    expect(credential('~/.ss?/id_rsa')).toBe('SSH private key');
    expect(credential('~/.aws/cred*')).toBe('AWS credentials');
    expect(credential('/e*/shadow')).toBe('password hashes');
    expect(credential('/proc/*/environ')).toBe('process environment (secrets)');
    expect(credential('config/.env*')).toBe('dotenv secrets file');
    expect([credential('src/*.ts'), credential('.env.exa*'), credential('~/.config/*.json')]).toEqual([null, null, null]);
  });

  it('never lets ** span a hidden directory, nor a directory pass for a drive letter', () => {
    expect(credential('**/*.c')).toBeNull();
    expect(credential('src/**/id_rsa')).toBeNull();
    expect(under('**/*.c', '~/.ssh')).toBe(false);
    expect(credential('/?/users/*/.ssh/id_rsa')).toBe('SSH private key');
    expect(credential('/home/**/.ssh/id_rsa')).toBe('SSH private key');
  });
});
