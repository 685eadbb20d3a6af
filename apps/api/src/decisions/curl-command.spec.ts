import { execFileSync } from 'node:child_process';
import { asciiJson, buildCurl, safeBase, shellQuote } from './curl-command';

const echoArgs = (cmd: string) =>
  // Replace curl by a printer of its arguments, so the shell's parsing is what is tested.
  execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }; ${cmd}`], { env: { API_KEY: 'k123' }, encoding: 'utf8' }).split('\n');

describe('curl command', () => {
  it('quotes anything so the shell passes it through unchanged', () => {
    for (const s of [`it's`, '$(id)', '`id`', '$HOME', 'a\nb', "'''", '\\', '!event', 'é 日本 🙂']) {
      expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(s)}`], { encoding: 'utf8' })).toBe(s);
    }
  });

  it('escapes non-ASCII so the body is printable ASCII and parses back to the same value', () => {
    const v = { content: 'é 日本 🙂 \u2028 \u0000 "q"' };
    const s = asciiJson(v);
    expect(s).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(s)).toEqual(v);
  });

  it('reads the key from $API_KEY and sends the original request body', () => {
    const d = { content: `x'; rm -rf / #$(id)`, policyId: 'p', contentType: 'text', language: 'fr', metadata: { userId: 'u' } };
    const args = echoArgs(buildCurl('http://h:1', d));
    expect(args).toContain('Authorization: Bearer k123');
    expect(args).toContain('http://h:1/v1/check');
    const body = JSON.parse(args[args.indexOf('--data-binary') + 1]);
    expect(body).toEqual(d);
  });

  it('keeps only scheme, host and path of a base address', () => {
    expect(safeBase('https://a.example/api/')).toBe('https://a.example/api');
    expect(safeBase("http://h'x")).toBe('http://localhost');
    expect(safeBase('javascript:alert(1)')).toBe('http://localhost');
  });
});
