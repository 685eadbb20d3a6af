import { parseCommandLine, policyIdOfFile, tokenize } from './command-line.parser';
import { parseDuration } from './duration.parser';
import { UsageError } from './usage.error';

const env = { CDS_URL: 'http://127.0.0.1:3000', CDS_API_KEY: 'env-key' };
const conn = { url: 'http://127.0.0.1:3000', key: 'env-key' };
const parse = (line: string[], e: Record<string, string | undefined> = env) => parseCommandLine(line, e);
const usage = (line: string[], e: Record<string, string | undefined> = env) => {
  try {
    parse(line, e);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`no usage error for ${line.join(' ')}`);
};

describe('cds command line', () => {
  it('check TEXT with its options, before or after the text', () => {
    expect(parse(['check', 'have a nice day'])).toEqual({ kind: 'check', conn, text: 'have a nice day', policyId: 'default', json: false });
    expect(parse(['check', '--policy', 'strict', 'you', 'there', '--language=fr', '--json'])).toEqual({
      kind: 'check',
      conn,
      text: 'you there',
      policyId: 'strict',
      language: 'fr',
      json: true,
    });
    expect(parse(['check', '--', '--not-a-flag'])).toMatchObject({ text: '--not-a-flag' });
    expect(parse(['check', '-1 is a number'])).toMatchObject({ text: '-1 is a number' });
  });

  it('takes the connection from --url/--key before CDS_URL/CDS_API_KEY', () => {
    expect(parse(['--url', 'https://cds.example', 'check', 'x', '--key', 'k2'])).toMatchObject({ conn: { url: 'https://cds.example', key: 'k2' } });
    expect(usage(['check', 'x'], {})).toBe('no service address: set CDS_URL or pass --url');
    expect(usage(['check', 'x'], { CDS_URL: 'http://x' })).toBe('no API key: set CDS_API_KEY or pass --key');
    expect(usage(['check', 'x', '--url', 'ftp://x'])).toContain('must be an http(s) URL');
  });

  it('policies apply FILE: the id defaults to the file name without its extension', () => {
    expect(parse(['policies', 'apply', 'policies/strict.v2.yaml'])).toEqual({
      kind: 'policies-apply',
      conn,
      file: 'policies/strict.v2.yaml',
      policyId: 'strict.v2',
      json: false,
    });
    expect(parse(['policies', 'apply', 'p.yml', '--id', 'community'])).toMatchObject({ policyId: 'community' });
    expect(policyIdOfFile('C:\\x\\rules.YAML')).toBe('rules');
    expect(usage(['policies', 'apply'])).toBe('policies apply needs a FILE');
    expect(usage(['policies', 'apply', 'a.yaml', 'b.yaml'])).toBe('policies apply takes one FILE (got 2 arguments)');
  });

  it('policies test FILE --cases CASES', () => {
    expect(parse(['policies', 'test', 'p.yaml', '--cases', 'c.yaml'])).toEqual({ kind: 'policies-test', conn, file: 'p.yaml', casesFile: 'c.yaml' });
    expect(usage(['policies', 'test', 'p.yaml'])).toBe('policies test needs --cases CASES.yaml');
  });

  it('policies impact FILE --policy ID --since 7d', () => {
    expect(parse(['policies', 'impact', 'p.yaml', '--policy', 'community', '--since', '36h', '--limit', '100'])).toEqual({
      kind: 'policies-impact',
      conn,
      file: 'p.yaml',
      policyId: 'community',
      sinceMs: 36 * 3_600_000,
      limit: 100,
      json: false,
    });
    expect(parse(['policies', 'impact', 'p.yaml', '--policy', 'c'])).toMatchObject({ sinceMs: 7 * 86_400_000 });
    expect(usage(['policies', 'impact', 'p.yaml'])).toContain('needs --policy ID');
    expect(usage(['policies', 'impact', 'p.yaml', '--policy', 'c', '--since', 'yesterday'])).toContain('--since must be a duration');
    expect(usage(['policies', 'impact', 'p.yaml', '--policy', 'c', '--limit', '0'])).toContain('--limit must be an integer of at least 1');
  });

  it('decisions tail with its defaults and options', () => {
    expect(parse(['decisions', 'tail'])).toEqual({ kind: 'decisions-tail', conn, intervalMs: 2000, once: false, lines: 10, json: false });
    expect(parse(['decisions', 'tail', '--interval', '500ms', '--policy', 'p', '--once', '--lines', '0', '--json'])).toEqual({
      kind: 'decisions-tail',
      conn,
      intervalMs: 500,
      policyId: 'p',
      once: true,
      lines: 0,
      json: true,
    });
    expect(usage(['decisions', 'tail', 'now'])).toContain('takes no arguments');
  });

  it('help, with no arguments, "help", --help or -h anywhere', () => {
    expect(parse([], {})).toEqual({ kind: 'help' });
    expect(parse(['help'], {})).toEqual({ kind: 'help' });
    expect(parse(['--help'], {})).toEqual({ kind: 'help' });
    expect(parse(['policies', 'test', '-h'], {})).toEqual({ kind: 'help' });
  });

  it('names what is wrong', () => {
    expect(usage(['frobnicate'])).toBe('unknown command "frobnicate"');
    expect(usage(['policies'])).toBe('policies needs a subcommand: apply, test or impact');
    expect(usage(['policies', 'delete', 'x'])).toBe('unknown command "policies delete"');
    expect(usage(['decisions'])).toBe('decisions needs a subcommand: tail');
    expect(usage(['check', 'x', '--polcy', 'p'])).toBe('unknown option --polcy');
    expect(usage(['check', 'x', '--once'])).toBe('--once is not an option of check (its options: --policy, --language, --json)');
    expect(usage(['check', 'x', '--policy'])).toBe('--policy needs a value');
    expect(usage(['check', 'x', '--policy', '--json'])).toBe('--policy needs a value');
    expect(usage(['check', 'x', '--policy='])).toBe('--policy needs a value');
    expect(usage(['check', 'x', '--json=yes'])).toBe('--json takes no value');
    expect(usage(['check', 'x', '--policy', 'a', '--policy', 'b'])).toBe('--policy given twice');
    expect(usage(['check'])).toBe('check needs the TEXT to check');
    expect(usage(['--url', 'http://x'])).toBe('no command given');
  });
});

describe('tokenize', () => {
  it('separates positionals and flags, and stops at --', () => {
    const t = tokenize(['a', '--v', '1', '--b', '--w=x=y', '--', '--v', 'z'], { v: 'value', b: 'boolean', w: 'value' });
    expect(t.positionals).toEqual(['a', '--v', 'z']);
    expect([...t.flags]).toEqual([
      ['v', '1'],
      ['b', true],
      ['w', 'x=y'],
    ]);
  });
});

describe('parseDuration', () => {
  it('reads ms, s, m, h, d, w and bare seconds', () => {
    expect(['250ms', '2s', '1.5s', '5m', '12h', '7d', '2w', '3'].map((d) => parseDuration(d, '--x'))).toEqual([
      250, 2000, 1500, 300_000, 43_200_000, 604_800_000, 1_209_600_000, 3000,
    ]);
    for (const bad of ['0s', '-1s', '7 days', 'd', '']) expect(() => parseDuration(bad, '--x')).toThrow(UsageError);
  });
});
