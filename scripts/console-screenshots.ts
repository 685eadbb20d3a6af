/* npm run screenshots: the README's pictures of the moderator console. Starts the built
 * service (embedded, a temporary data dir), seeds a few decisions, a webhook and some
 * guardrail calls, and saves 1280x800 PNGs of the console into docs/console/. */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '../..');
const OUT = path.join(ROOT, 'docs/console');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** A public-domain photo of a cat (safe content). */
const IMAGE = process.env.SCREENSHOT_IMAGE ?? path.resolve(ROOT, '../shared/data/images/chelsea.png');
const ADMIN_KEY = 'screenshots-admin-key-0123456789abcdef';
const PROJECT = 'support-agent';

const COMMUNITY = `name: Community
categories:
  hate: { threshold: 0.6, action: block }
  harassment: { threshold: 0.5, action: warn }
  violence: { threshold: 0.6, action: flag }
  self-harm: { threshold: 0.5, action: flag }
  sexual: { threshold: 0.8, action: block }
`;
const STRICTER = COMMUNITY.replace('name: Community', 'name: Community (stricter)')
  .replace('harassment: { threshold: 0.5, action: warn }', 'harassment: { threshold: 0.3, action: flag }')
  .replace('violence: { threshold: 0.6, action: flag }', 'violence: { threshold: 0.4, action: block }');

/** Content, policy, user; the fourth is the decision pictured in detail. */
const TEXTS: [string, string, string][] = [
  ['Great write-up, thanks for sharing the benchmarks!', 'community', 'u-1042'],
  ['those people are an inferior race of vermin, exterminate them all', 'community', 'u-2291'],
  ['Can someone explain how the refund policy works for annual plans?', 'community', 'u-0007'],
  ['I will stab you to death with a knife and burn your house', 'default', 'u-2291'],
  ['I will kill you tonight', 'community', 'u-2291'],
  ['go back to your country you dirty subhuman scum, your kind should die', 'community', 'u-3310'],
  ['Meet me at the station at 6, bring the tickets', 'community', 'u-0412'],
  ['I will stab you to death with a knife and burn your house', 'community', 'u-5120'],
  ['<img src=x onerror=alert(1)>', 'community', 'u-6666'],
  ['Have a lovely day at the beach', 'default', 'u-0007'],
];

const GUARDRAIL_CALLS: [string, Record<string, unknown>][] = [
  ['action-authorize', { actionType: 'exec', command: 'rm -rf /' }],
  ['action-authorize', { actionType: 'file_read', targetPath: './src/index.ts' }],
  ['action-authorize', { actionType: 'exec', command: 'npm test' }],
  ['action-authorize', { actionType: 'network_request', command: 'curl https://example.com/' }],
  [
    'skill-vetting',
    { skillId: 'pdf-tools', name: 'PDF tools', source: 'public_marketplace', prompt: 'Summarise PDF files', requestedPermissions: ['run_shell'] },
  ],
];

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-screenshots-'));
  const receiver = await listen(createServer((_req, res) => res.end('ok')));
  const port = await freePort();
  const service = spawn(process.execPath, [path.join(ROOT, 'dist/apps/api/src/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      EGRESS_ALLOW_LOOPBACK: 'true',
      IMAGE_WORKERS: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    await healthy(base, service);
    const ids = await seed(base, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await capture(page, base, ids);
  } finally {
    await browser.close();
    await stop(service);
    receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function seed(base: string, hookUrl: string): Promise<string[]> {
  await call(base, 'POST', '/v1/policies', { policyId: 'community', yamlContent: COMMUNITY });
  const ids: string[] = [];
  for (const [content, policyId, userId] of TEXTS) {
    ids.push((await call(base, 'POST', '/v1/check', { content, policyId, metadata: { userId } })).decisionId);
  }
  if (fs.existsSync(IMAGE)) {
    await call(base, 'POST', '/v1/check', {
      content: fs.readFileSync(IMAGE).toString('base64'),
      contentType: 'image',
      policyId: 'default',
      metadata: { userId: 'u-1042' },
    });
  }
  const hook = await call(base, 'POST', '/v1/webhooks', { url: hookUrl, events: ['decision.blocked', 'decision.flagged'], description: 'Moderation queue' });
  await call(base, 'POST', `/v1/webhooks/${hook.id}/test`, { eventType: 'decision.created' });
  for (const [endpoint, body] of GUARDRAIL_CALLS) await call(base, 'POST', `/v1/agent/guardrails/${endpoint}`, { projectId: PROJECT, ...body });
  return ids;
}

async function capture(page: Page, base: string, ids: string[]): Promise<void> {
  const shot = async (name: string) => {
    await page.screenshot({ path: path.join(OUT, name) });
    process.stdout.write(`docs/console/${name}\n`);
  };
  fs.mkdirSync(OUT, { recursive: true });
  await page.goto(`${base}/console`);
  await page.getByLabel('API key').fill(ADMIN_KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .locator('table.data tbody tr')
    .nth(TEXTS.length - 1)
    .waitFor();
  await shot('decisions.png');

  await page.goto(`${base}/console#/decisions/${ids[3]}`);
  await page.locator('section', { hasText: 'Categories' }).locator('tbody tr').first().waitFor();
  await shot('decision.png');

  await page.goto(`${base}/console#/policies/community`);
  await page.getByLabel('YAML').fill(STRICTER);
  await page.getByRole('button', { name: 'Impact' }).click();
  await page.locator('.impact').waitFor();
  await page.evaluate("document.querySelector('.editor h2').scrollIntoView()");
  await shot('policy-impact.png');

  await page.goto(`${base}/console#/guardrails?projectId=${PROJECT}&days=14`);
  await page.locator('svg.chart').waitFor();
  await shot('guardrail-metrics.png');
}

async function call(base: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(base + p, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function freePort(): Promise<number> {
  const server = await listen(createServer());
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function healthy(base: string, service: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (service.exitCode !== null) throw new Error(`the service exited with ${service.exitCode}: run npm run build first`);
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become healthy in 30 s');
}

function stop(service: ChildProcess): Promise<void> {
  if (service.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    service.once('exit', () => resolve());
    service.kill('SIGTERM');
  });
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
