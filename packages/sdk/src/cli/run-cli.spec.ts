import { CdsClient } from '../cds.client';
import { fakeClock, json, scriptedFetch } from '../fetch.fixtures';
import type { CliIo } from './cli.io';
import { runCli } from './run-cli';

const env = { CDS_URL: 'http://cds.test', CDS_API_KEY: 'k' };

function io(files: Record<string, string> = {}, sleep?: CliIo['sleep']) {
  const out: string[] = [];
  const err: string[] = [];
  const ac = new AbortController();
  const value: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => {
      if (!(p in files)) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      return files[p];
    },
    now: () => Date.UTC(2025, 0, 8),
    sleep: sleep ?? (async () => undefined),
    signal: ac.signal,
  };
  return { io: value, out, err, abort: () => ac.abort() };
}

const clientOf = (f: typeof fetch) => () => new CdsClient({ baseUrl: 'http://cds.test', apiKey: 'k', fetch: f, clock: fakeClock(), retries: 0 });
const decision = (id: string, s: number, content = 'c') => ({
  decisionId: id,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString(),
  action: 'allow',
  policyId: 'default',
  contentType: 'text',
  content,
});

describe('runCli', () => {
  it('exits 0 with the usage for help, 2 for a usage error, 3 for a service error', async () => {
    const h = io();
    expect(await runCli(['help'], {}, h.io)).toBe(0);
    expect(h.out[0]).toMatch(/^Usage: cds <command>/);
    const u = io();
    expect(await runCli(['check'], env, u.io)).toBe(2);
    expect(u.err[0]).toBe('cds: check needs the TEXT to check\nRun "cds help" for usage.');
    const missing = io();
    expect(await runCli(['policies', 'apply', 'gone.yaml'], env, missing.io)).toBe(2);
    expect(missing.err[0]).toContain('cannot read gone.yaml: ENOENT');
    const s = io();
    const f = scriptedFetch(json(404, { error: 'Policy not found', code: 'POLICY_NOT_FOUND', details: 'no policy x' }));
    expect(await runCli(['check', 'hi', '--policy', 'x'], env, s.io, clientOf(f.fetch))).toBe(3);
    expect(s.err[0]).toBe('cds: POST /v1/check: 404 POLICY_NOT_FOUND: Policy not found (no policy x)');
  });

  it('policies test: dry runs for score cases, a table, exit 1 on a mismatch', async () => {
    const files = {
      'p.yaml': 'name: P\ncategories:\n  hate: {threshold: 0.5, action: block}\n',
      'c.yaml': '- scores: {hate: 0.9}\n  expect: block\n- scores: {hate: 0.1}\n  expect: block\n',
    };
    const f = scriptedFetch(json(200, { action: 'allow' }), json(200, { action: 'block' }), json(200, { action: 'allow' }));
    const t = io(files);
    expect(await runCli(['policies', 'test', 'p.yaml', '--cases', 'c.yaml'], env, t.io, clientOf(f.fetch))).toBe(1);
    expect(f.requests.map((r) => r.body)).toEqual([
      { policy: files['p.yaml'], mockScores: {} },
      { policy: files['p.yaml'], mockScores: { hate: 0.9 } },
      { policy: files['p.yaml'], mockScores: { hate: 0.1 } },
    ]);
    expect(t.out.join('\n')).toBe(
      [
        'policy p.yaml: 2 cases',
        '#  case             expected  got    result',
        '1  scores hate=0.9  block     block  ok',
        '2  scores hate=0.1  block     allow  FAIL',
        '1 passed, 1 failed',
      ].join('\n'),
    );
  });

  it('policies test: an invalid policy fails the test (exit 1) before any case runs', async () => {
    const files = { 'p.yaml': 'name: [', 'c.yaml': '- scores: {hate: 0.9}\n  expect: block\n' };
    const f = scriptedFetch(json(422, { error: 'Invalid policy YAML', code: 'INVALID_POLICY_YAML', details: 'line 1: bad' }));
    const t = io(files);
    expect(await runCli(['policies', 'test', 'p.yaml', '--cases', 'c.yaml'], env, t.io, clientOf(f.fetch))).toBe(1);
    expect(t.err).toEqual(['policy p.yaml is invalid: INVALID_POLICY_YAML: line 1: bad']);
    expect(f.requests).toHaveLength(1);
  });

  it('decisions tail: the newest oldest first, then each new decision once, until interrupted', async () => {
    let polls = 0;
    const t = io({}, async () => {
      if (++polls === 3) t.abort();
    });
    const f = scriptedFetch(
      json(200, { decisions: [decision('d2', 2, 'line\nbreak \u009b[31m'), decision('d1', 1)] }), // the backlog
      json(200, { decisions: [decision('d2', 2), decision('d1', 1)] }), // what was there at the start
      json(200, { decisions: [decision('d3', 3), decision('d2', 2), decision('d1', 1)] }), // poll 1
      json(200, { decisions: [decision('d4', 3), decision('d3', 3), decision('d2', 2)] }), // poll 2
    );
    expect(await runCli(['decisions', 'tail', '--lines', '2', '--interval', '1s'], env, t.io, clientOf(f.fetch))).toBe(0);
    expect(t.out.map((l) => l.split('  ')[2])).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(t.out[1]).toBe('2025-01-01T00:00:02.000Z  allow  d2  default  text  "line\\nbreak \\u009b[31m"');
    // Each poll looks 10 s behind the newest decision seen.
    expect(new URL(f.requests[2].url).searchParams.get('from')).toBe('2024-12-31T23:59:52.000Z');
    expect(new URL(f.requests[3].url).searchParams.get('from')).toBe('2024-12-31T23:59:53.000Z');
  });

  it('decisions tail --once prints the newest and exits', async () => {
    const t = io();
    const f = scriptedFetch(json(200, { decisions: [decision('d2', 2), decision('d1', 1)] }));
    expect(await runCli(['decisions', 'tail', '--once', '--policy', 'default'], env, t.io, clientOf(f.fetch))).toBe(0);
    expect(new URL(f.requests[0].url).search).toBe('?policyId=default&limit=10');
    expect(t.out.map((l) => l.split('  ')[2])).toEqual(['d1', 'd2']);
  });
});
