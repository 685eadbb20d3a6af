import * as fs from 'node:fs';
import { request } from 'node:http';
import { Browser, chromium, Page } from 'playwright-core';
import { ApiClient, RunningService, startService } from '@cds/testing';
import { TestReceiver } from './webhook-test-receiver';

/** Debian's headless Chromium (apt-get install chromium), driven by playwright-core. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const HATE = 'those people are an inferior race of vermin, exterminate them all';
const THREAT = 'I will stab you to death with a knife and burn your house';
const BEACH = 'Have a lovely day at the beach';
const THANKS = 'Thanks for the quick delivery, the package arrived intact';
const HOSTILE = '<img src=x onerror=alert(1)>';
const STRICT = 'name: Strict\ncategories:\n  hate: { threshold: 0.5, action: block }\n  violence: { threshold: 0.3, action: block }\n';
const PROJECT = 'console-e2e';
const CSP = "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** GET with the path sent as written (fetch would resolve its dot segments first). */
function rawGet(base: string, path: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, path, method: 'GET' }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('moderator console (GET /console, in Chromium)', () => {
  let svc: RunningService;
  let api: ApiClient;
  let receiver: TestReceiver;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const ids: Record<string, string> = {};

  const rows = () => page.locator('table.data tbody tr');
  const row = (text: string) => rows().filter({ hasText: text });

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
    }
    receiver = await TestReceiver.start();
    svc = await startService({ env: { EGRESS_ALLOW_LOOPBACK: 'true' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    expect((await api.post('/v1/policies', { policyId: 'strict', yamlContent: STRICT })).status).toBe(201);
    for (const [name, content] of Object.entries({ HATE, THREAT, BEACH, THANKS, HOSTILE })) {
      const r = await api.post('/v1/check', { content, policyId: 'default' });
      expect(r.status).toBe(200);
      ids[name] = r.body.decisionId;
    }
    expect((await api.get(`/v1/decisions/${ids.HATE}`)).body.action).toBe('block');
    expect((await api.get(`/v1/decisions/${ids.THREAT}`)).body.action).toBe('flag');
    expect((await api.get(`/v1/decisions/${ids.BEACH}`)).body.action).toBe('allow');
    const hook = await api.post('/v1/webhooks', { url: receiver.url, events: ['decision.blocked'], description: 'console e2e' });
    expect(hook.status).toBe(201);
    ids.hook = hook.body.id;
    expect((await api.post(`/v1/webhooks/${ids.hook}/test`, { eventType: 'decision.created' })).body.success).toBe(true);
    const guard = await api.post('/v1/agent/guardrails/action-authorize', { projectId: PROJECT, actionType: 'exec', command: 'rm -rf /' });
    expect(guard.body.action).toBe('block');

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) pageErrors.push(m.text());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await receiver?.close();
  });

  it('serves its files without a key, with the security headers and their content types; 404 for anything else', async () => {
    for (const [path, type] of [
      ['/console', 'text/html'],
      ['/console/app.js', 'text/javascript'],
      ['/console/console.css', 'text/css'],
    ]) {
      const r = await fetch(svc.baseUrl + path);
      expect({ path, status: r.status, type: r.headers.get('content-type') }).toEqual({ path, status: 200, type: `${type}; charset=utf-8` });
      expect(r.headers.get('content-security-policy')).toBe(CSP);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    }
    for (const path of ['/console/nope.js', '/console/../package.json', '/console/%2e%2e/package.json', '/console/..%2Fpackage.json']) {
      const r = await rawGet(svc.baseUrl, path);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 404, code: 'CONSOLE_ASSET_NOT_FOUND' });
      expect(typeof r.body.error === 'string' && typeof r.body.details === 'string').toBe(true);
    }
  });

  it('refuses a wrong key at sign-in and keeps nothing', async () => {
    await page.goto(`${svc.baseUrl}/console`);
    await page.getByLabel('API key').fill('not-a-key-of-this-service');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid or missing API key' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('signs in and lists the decisions; filters by action and searches the content', async () => {
    await page.getByLabel('API key').fill(svc.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await row(THREAT).waitFor();
    expect(await rows().count()).toBe(5);
    expect(await page.evaluate('[localStorage.length, document.cookie]')).toEqual([0, '']);

    await page.getByLabel('Action').selectOption('block');
    await page.getByRole('button', { name: 'Apply' }).click();
    await row(THREAT).waitFor({ state: 'detached' }); // the unfiltered list is gone
    await row(HATE).waitFor();
    expect(await rows().allInnerTexts()).toEqual([expect.stringContaining(HATE)]);

    await page.getByRole('button', { name: 'Reset' }).click();
    await row(THREAT).waitFor();
    await page.getByLabel('Search').fill('beach');
    await page.getByRole('button', { name: 'Apply' }).click();
    await row(THREAT).waitFor({ state: 'detached' });
    await row(BEACH).waitFor();
    expect(await rows().allInnerTexts()).toEqual([expect.stringContaining(BEACH)]);
  });

  it('shows hostile content as text, never as markup', async () => {
    await page.goto(`${svc.baseUrl}/console#/decisions/${ids.HOSTILE}`);
    await page.locator('pre.content').waitFor();
    expect(await page.locator('pre.content').textContent()).toBe(HOSTILE);
    expect(await page.locator('main img').count()).toBe(0);
    await page.goto(`${svc.baseUrl}/console#/decisions`);
    await row(HOSTILE).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('shows a decision against its policy thresholds and replays it under another policy', async () => {
    await page.goto(`${svc.baseUrl}/console#/decisions/${ids.THREAT}`);
    const violence = page.locator('section', { hasText: 'Categories' }).locator('tr', { hasText: 'violence' });
    await violence.waitFor();
    expect(await page.getByRole('columnheader', { name: 'Policy threshold (v0)' }).count()).toBe(1);
    expect(await violence.innerText()).toMatch(/violence\s+0\.9\d\d\s+0\.700\s+yes\s+0\.700\s+flag/i);

    await page.getByLabel('Policy', { exact: true }).selectOption('strict');
    await page.getByRole('button', { name: 'Replay' }).click();
    const replayed = page.getByTestId('replayed');
    await replayed.waitFor();
    expect(await replayed.innerText()).toMatch(/block\s+strict v1/i);
    expect(await page.locator('.compare-side').first().innerText()).toMatch(/flag\s+default v0/i);

    await page.getByRole('button', { name: 'Show curl' }).click();
    expect(await page.locator('pre.curl').innerText()).toContain(`${svc.baseUrl}/v1/check`);
  });

  it('shows the impact of a stricter policy, and saves it', async () => {
    await page.goto(`${svc.baseUrl}/console#/policies/default`);
    await page.getByLabel('YAML').fill(STRICT);
    await page.getByRole('button', { name: 'Impact' }).click();
    const change = page
      .locator('.impact tbody tr')
      .filter({ has: page.locator('.badge-flag') })
      .filter({ has: page.locator('.badge-block') });
    await change.waitFor();
    expect(await change.first().innerText()).toMatch(/flag\s+block\s+\d+\s+violence/i);

    await page.getByLabel('Policy id').fill('console-strict');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved: version 1.').waitFor();
    expect(await page.getByRole('link', { name: 'console-strict' }).count()).toBe(1);
  });

  it('charts the guardrail metrics of a project', async () => {
    await page.goto(`${svc.baseUrl}/console#/guardrails?projectId=${PROJECT}&days=7`);
    await page.locator('svg.chart').waitFor();
    expect(await page.locator('svg.chart rect.bar-total').count()).toBe(7);
    const heights = await page.locator('svg.chart rect.bar-blocked').evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('height'))));
    expect(heights.filter((x) => x > 0)).toHaveLength(1);
    expect(await page.locator('.card', { hasText: 'Blocked' }).innerText()).toMatch(/1\s+100\.0% of decisions/);
  });

  it('lists the webhooks and the deliveries of one', async () => {
    await page.goto(`${svc.baseUrl}/console#/webhooks`);
    await page.getByRole('link', { name: receiver.url }).click();
    const delivery = row('decision.created');
    await delivery.waitFor();
    expect(await delivery.first().innerText()).toMatch(/decision\.created\s+test\s+succeeded\s+200/);
  });

  it('pages the decisions by keyset: Next shows every decision once, in order; Prev returns to the same rows', async () => {
    const items = Array.from({ length: 60 }, (_, i) => ({ id: `p${i}`, content: `${BEACH}, postcard ${i}` }));
    expect((await api.post('/v1/batch/check', { policyId: 'default', items })).status).toBe(200);
    const all: { decisionId: string; timestamp: string }[] = (await api.get('/v1/decisions?limit=1000')).body.decisions;
    expect(all).toHaveLength(65);

    const pager = page.getByRole('navigation', { name: 'Pages' });
    const shownIds = () =>
      rows()
        .locator('td:first-child a')
        .evaluateAll((links) => links.map((a) => decodeURIComponent(a.getAttribute('href')!.split('/').pop()!)));
    /** Click `button` and return the list request it made (its query) once `range` shows. */
    const turn = async (button: string, range: string) => {
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().includes('/v1/decisions?')),
        pager.getByRole('button', { name: button }).click(),
      ]);
      await pager.getByText(range, { exact: true }).waitFor();
      return new URL(request.url()).searchParams;
    };

    await page.goto(`${svc.baseUrl}/console#/decisions?limit=25`);
    await pager.getByText('Rows 1–25', { exact: true }).waitFor();
    const first = await shownIds();
    expect(await pager.getByRole('button', { name: '← Prev' }).isDisabled()).toBe(true);

    // Page 2 starts at the oldest timestamp of page 1, past the rows of page 1 at it.
    const boundary = all[24].timestamp;
    const second = await turn('Next →', 'Rows 26–50');
    expect({ to: second.get('to'), offset: second.get('offset') }).toEqual({
      to: boundary,
      offset: String(all.slice(0, 25).filter((d) => d.timestamp === boundary).length),
    });
    const secondIds = await shownIds();
    await turn('Next →', 'Rows 51–65');
    const thirdIds = await shownIds();
    expect(await pager.getByRole('button', { name: 'Next →' }).isDisabled()).toBe(true);
    expect([...first, ...secondIds, ...thirdIds]).toEqual(all.map((d) => d.decisionId));

    await turn('← Prev', 'Rows 26–50');
    expect(await shownIds()).toEqual(secondIds);
    await turn('← Prev', 'Rows 1–25');
    expect(await shownIds()).toEqual(first);
    expect(await pager.getByRole('button', { name: '← Prev' }).isDisabled()).toBe(true);
  });

  it('signs out, clearing the key; a key refused later ends the session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);

    await page.evaluate("sessionStorage.setItem('cds.console.apiKey', 'revoked-key')");
    await page.goto(`${svc.baseUrl}/console#/webhooks`);
    await page.getByText('Your session ended').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(pageErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
