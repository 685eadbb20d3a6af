import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunningService, startService } from '@cds/testing';
import { CdsClient } from '../src/cds.client';

const SDK = path.resolve(__dirname, '..');
const CLI = path.join(SDK, 'dist/cli.js');

const RULES = `name: CLI rules
categories:
  hate: { threshold: 0.6, action: block }
  harassment: { threshold: 0.5, action: warn }
  violence: { threshold: 0.5, action: flag }
`;
const EVERYTHING_BLOCKS = `name: Everything blocks
categories:
  hate: { threshold: 0, action: block }
`;
const PASSING = `- text: have a nice day
  expect: allow
- scores: { hate: 0.9 }
  expect: block
- name: mild harassment
  scores: { harassment: 0.55 }
  expect: warn
- signals: { hate_threat: 0.8 }
  expect: block
`;
const FAILING = `- scores: { hate: 0.1 }
  expect: allow
- scores: { hate: 0.9 }
  expect: allow
`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('the cds CLI against the real service', () => {
  let svc: RunningService;
  let cds: CdsClient;
  let dir: string;
  const file = (name: string) => path.join(dir, name);

  /** `node packages/sdk/dist/cli.js ...args` with CDS_URL and CDS_API_KEY set. */
  const cli = (...args: string[]) =>
    new Promise<Run>((resolve) => {
      const env = { ...process.env, CDS_URL: svc.baseUrl, CDS_API_KEY: svc.adminKey };
      const child = execFile(process.execPath, [CLI, ...args], { env, timeout: 30_000 }, (_err, stdout, stderr) =>
        resolve({ code: child.exitCode, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    // The CLI runs from the package's compiled output, as an installed `cds` does.
    const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(SDK, 'tsconfig.json')], { encoding: 'utf8' });
    if (tsc.status !== 0) throw new Error(`compiling packages/sdk failed:\n${tsc.stdout}${tsc.stderr}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-cli-'));
    fs.writeFileSync(file('cli-rules.yaml'), RULES);
    fs.writeFileSync(file('candidate.yaml'), EVERYTHING_BLOCKS);
    fs.writeFileSync(file('passing.yaml'), PASSING);
    fs.writeFileSync(file('failing.yaml'), FAILING);
    svc = await startService();
    cds = new CdsClient({ baseUrl: svc.baseUrl, apiKey: svc.adminKey });
  });
  afterAll(async () => {
    await svc?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('policies apply FILE saves it under the file name, or --id', async () => {
    const r = await cli('policies', 'apply', file('cli-rules.yaml'));
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^applied policy cli-rules \("CLI rules", version \d+\): hate >= 0\.6 block, harassment >= 0\.5 warn, violence >= 0\.5 flag\n$/);
    expect(await cds.getPolicy('cli-rules')).toMatchObject({ name: 'CLI rules', yamlContent: RULES });

    const named = await cli('policies', 'apply', file('candidate.yaml'), '--id', 'cli-candidate', '--json');
    expect(named.code).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ policyId: 'cli-candidate', name: 'Everything blocks' });
  });

  it('check TEXT prints the decision and exits 0', async () => {
    const r = await cli('check', 'have a nice day', '--policy', 'cli-rules');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^allow {2}decision [0-9a-f-]{36} {2}policy cli-rules {2}safe yes {2}flagged no\n/);
    expect(r.stdout).toContain('category');
    const json = await cli('check', 'guten Tag', '--policy', 'cli-rules', '--language', 'de', '--json');
    expect(json.code).toBe(0);
    const d = JSON.parse(json.stdout);
    expect(await cds.getDecision(d.decisionId)).toMatchObject({ content: 'guten Tag', language: 'de', policyId: 'cli-rules' });
  });

  it('policies test exits 0 when every case passes', async () => {
    const r = await cli('policies', 'test', file('cli-rules.yaml'), '--cases', file('passing.yaml'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/: 4 cases \(text cases checked under the temporary policy cli-test-[0-9a-f]{12}\)$/);
    expect(lines[1].split(/\s{2,}/)).toEqual(['#', 'case', 'expected', 'got', 'result']);
    expect(lines.slice(2, 6).map((l) => l.split(/\s{2,}/))).toEqual([
      ['1', 'text "have a nice day"', 'allow', 'allow', 'ok'],
      ['2', 'scores hate=0.9', 'block', 'block', 'ok'],
      ['3', 'mild harassment', 'warn', 'warn', 'ok'],
      ['4', 'signals hate_threat=0.8', 'block', 'block', 'ok'],
    ]);
    expect(lines[6]).toBe('4 passed, 0 failed');
  });

  it('policies test exits 1 on a mismatch, showing what it got', async () => {
    const r = await cli('policies', 'test', file('cli-rules.yaml'), '--cases', file('failing.yaml'));
    expect(r.code).toBe(1);
    const rows = r.stdout
      .trim()
      .split('\n')
      .slice(2, 4)
      .map((l) => l.split(/\s{2,}/));
    expect(rows).toEqual([
      ['1', 'scores hate=0.1', 'allow', 'allow', 'ok'],
      ['2', 'scores hate=0.9', 'allow', 'block', 'FAIL'],
    ]);
    expect(r.stdout).toContain('1 passed, 1 failed');
  });

  it('policies impact replays the decisions since --since under the candidate', async () => {
    const r = await cli('policies', 'impact', file('candidate.yaml'), '--policy', 'cli-rules', '--since', '1h');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const { decisions } = await cds.listDecisions({ policyId: 'cli-rules' });
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    expect(r.stdout).toContain(`policy cli-rules -> ${file('candidate.yaml')} ("Everything blocks")`);
    expect(r.stdout).toContain(`${decisions.length} decisions evaluated`);
    expect(r.stdout).toContain(`unchanged 0, changed ${decisions.length}`);
    expect(r.stdout).toMatch(new RegExp(`allow -> block {2}${decisions.length} {2}`));
  });

  it('decisions tail --once prints the newest decisions, one line each, the newest last', async () => {
    const { decisions } = await cds.listDecisions({ policyId: 'cli-rules', limit: 2 });
    const r = await cli('decisions', 'tail', '--once', '--policy', 'cli-rules', '--lines', '2');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('  ')[2])).toEqual(decisions.map((d) => d.decisionId).reverse());
    expect(lines[1]).toContain('  cli-rules  ');
  });

  it('exits 2 on a usage error and 3 on an error answer', async () => {
    const usage = await cli('policies', 'test', file('cli-rules.yaml'));
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('policies test needs --cases CASES.yaml');
    const missing = await cli('check', 'hello', '--policy', 'no-such-policy');
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('404 POLICY_NOT_FOUND');
  });
});
