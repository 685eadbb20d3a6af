import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, Page } from 'playwright-core';
import { BENCH_ADMIN_KEY, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:decisions — the decisions list and the console's decisions page at
 * 100 000 stored decisions against the same at 1 000 (the baseline), in one run on one
 * embedded service (file log + SQLite; the environment passes through, so READ_MODELS and
 * the like can point it elsewhere). Decisions are seeded through POST /v1/batch/check.
 * Per row: p50 / p99 ms of the API request (fetch to last byte) over BENCH_REPS requests
 * after a warm-up, or of the console in Chromium (navigation to the first page's rows;
 * Next to the second page's rows), and the 100k / 1k ratio of the p50s.
 * Env: BENCH_DECISIONS (100000), BENCH_BASELINE (1000), BENCH_REPS (40),
 * BENCH_CONSOLE_REPS (10), BENCH_KEEP_DATA=1 keeps the data dir (to EXPLAIN the queries).
 */
const TOTAL = Number(process.env.BENCH_DECISIONS ?? 100_000);
const BASELINE = Number(process.env.BENCH_BASELINE ?? 1000);
const REPS = Number(process.env.BENCH_REPS ?? 40);
const CONSOLE_REPS = Number(process.env.BENCH_CONSOLE_REPS ?? 10);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE = 50;
const DEEP_PAGES = 20;
const BATCH = 250;
const IN_FLIGHT = 4;
const STRICT =
  'name: Strict\ncategories:\n  sexual: { threshold: 0.6, action: block }\n  hate: { threshold: 0.5, action: block }\n  harassment: { threshold: 0.5, action: flag }\n  violence: { threshold: 0.5, action: block }\n  self-harm: { threshold: 0.4, action: flag }\n';

// The generator: a base sentence that the local classifier allows, flags or blocks, two
// filler words, one of 100 topic words (each in ~1 % of the texts: the `q` searched) and
// the item's number (every text distinct). One of 1 000 users in metadata.userId.
const ALLOW = [
  'Have a lovely day at the beach',
  'Thanks for the quick delivery, the package arrived intact',
  'The meeting moved to Thursday afternoon',
  'Great photo, the colours of the sunset are amazing',
  'Can someone recommend a good book about gardening',
  'The recipe needs two eggs and a cup of flour',
];
const FLAG = ['I will stab you to death with a knife and burn your house', 'you are a worthless idiot and I hate you'];
const BLOCK = ['those people are an inferior race of vermin, exterminate them all'];
const WORDS =
  'river window paper garden orange silver morning market bridge castle engine forest harbor island jacket ladder meadow needle pencil rocket'.split(' ');
const TOPICS = Array.from({ length: 100 }, (_, k) => `topic${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}`);
const SEARCHED = TOPICS[7];
const USER = 'u7';

function mix(i: number): number {
  let x = Math.imul(i + 1, 2654435761) >>> 0;
  x ^= x >>> 13;
  x = Math.imul(x, 0x5bd1e995) >>> 0;
  return (x ^ (x >>> 15)) >>> 0;
}

function item(i: number) {
  const r = mix(i);
  const k = r % 100;
  const base = k < 10 ? BLOCK[0] : k < 35 ? FLAG[(r >>> 8) % FLAG.length] : ALLOW[(r >>> 8) % ALLOW.length];
  const content = `${base} ${WORDS[(r >>> 12) % WORDS.length]} ${WORDS[(r >>> 17) % WORDS.length]} ${TOPICS[(r >>> 22) % TOPICS.length]} #${i}`;
  return { id: String(i), content, metadata: { userId: `u${mix(i + 7919) % 1000}` } };
}

interface Stat {
  p50: number;
  p99: number;
  n: number;
}
type Phase = Record<string, Stat>;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const stat = (xs: number[]): Stat => ({ p50: +pct(xs, 50).toFixed(1), p99: +pct(xs, 99).toFixed(1), n: xs.length });

async function main() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-decisions-'));
  const port = 4650;
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
  const svc = startNode(path.join(ROOT, 'dist/apps/api/src/main.js'), {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '10000000',
    BATCH_MAX_ITEMS: String(BATCH),
    LOG_LEVEL: 'warn',
    IMAGE_MODEL_PRELOAD: 'false',
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const started = performance.now();
  try {
    await waitHealthy(`${base}/health`);
    const put = await fetch(`${base}/v1/policies`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ policyId: 'strict', yamlContent: STRICT }),
    });
    if (put.status !== 201) throw new Error(`POST /v1/policies answered ${put.status}: ${await put.text()}`);

    const actions: Record<string, number> = {};
    /** Seed up to `n` decisions; the from/to window of the middle fifth of the seeding's
     * time (the checks run at an even rate, so about a fifth of the decisions seeded). */
    let seeded = 0;
    const seed = async (n: number): Promise<string> => {
      const first = seeded;
      const startedAt = Date.now();
      const t = performance.now();
      let next = seeded;
      const worker = async () => {
        while (next < n) {
          const start = next;
          next = Math.min(n, next + BATCH);
          // Every fourth batch under the second policy, interleaved in time with the rest.
          const policyId = Math.floor(start / BATCH) % 4 === 1 ? 'strict' : 'default';
          const items = Array.from({ length: next - start }, (_, j) => item(start + j));
          const res = await fetch(`${base}/v1/batch/check`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ policyId, items }),
          });
          const body = (await res.json()) as { items: { action?: string }[] };
          if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${JSON.stringify(body)}`);
          for (const r of body.items) actions[r.action ?? 'error'] = (actions[r.action ?? 'error'] ?? 0) + 1;
          const before = seeded;
          seeded += items.length;
          const tenth = Math.max(1, Math.floor((n - first) / 10));
          if (Math.floor((before - first) / tenth) !== Math.floor((seeded - first) / tenth)) {
            const s = (performance.now() - t) / 1000;
            console.log(`  seeded ${seeded} / ${n} (${Math.round((seeded - first) / s)} decisions/s)`);
          }
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      if (actions.error) throw new Error(`${actions.error} batch items failed`);
      const at = (f: number) => encodeURIComponent(new Date(startedAt + f * (Date.now() - startedAt)).toISOString());
      return `from=${at(0.4)}&to=${at(0.6)}`;
    };

    const getMs = async (query: string): Promise<{ ms: number; decisions: { timestamp: string; decisionId: string }[]; status: number }> => {
      const t = performance.now();
      const res = await fetch(`${base}/v1/decisions?${query}`, { headers: auth });
      const text = await res.text();
      const ms = performance.now() - t;
      return { ms, status: res.status, decisions: res.ok ? JSON.parse(text).decisions : [] };
    };

    const measure = async (n: number, window: string): Promise<{ phase: Phase; notes: Record<string, string> }> => {
      const phase: Phase = {};
      const notes: Record<string, string> = {};
      // Each filter with a common value and with one that matches nothing (the whole list
      // is then looked through unless an index leads to the matches).
      const rows: [string, string][] = [
        ['first page', ''],
        ['action=block (6 %)', 'action=block'],
        ['action=warn (none)', 'action=warn'],
        ['category=violence (12 %)', 'category=violence'],
        ['category=self-harm (none)', 'category=self-harm'],
        ['policyId=strict (25 %)', 'policyId=strict'],
        ['policyId=archived (none)', 'policyId=archived'],
        ['userId (0.1 %)', `userId=${USER}`],
        ['q (1 %)', `q=${SEARCHED}`],
        ['q (none)', 'q=zeppelin'],
        ['from/to window (20 %)', window],
        [`page ${DEEP_PAGES} by offset (${(DEEP_PAGES - 1) * PAGE})`, `offset=${(DEEP_PAGES - 1) * PAGE}`],
        [`last page by offset (n − ${PAGE})`, `offset=${n - PAGE}`],
      ];
      for (const [label, query] of rows) {
        const times: number[] = [];
        for (let i = 0; i < REPS + 3; i++) {
          const r = await getMs(`limit=${PAGE}${query ? `&${query}` : ''}`);
          if (r.status !== 200) {
            notes[label] = `answered ${r.status}`;
            break;
          }
          if (i === 0) notes[label] = String(r.decisions.length);
          if (i >= 3) times.push(r.ms);
        }
        if (times.length > 0) phase[label] = stat(times);
        console.log(`  ${label}: ${JSON.stringify(phase[label] ?? null)} ${notes[label]}`);
      }
      // Keyset, as the console and the SDK page: `to` = the oldest timestamp of the page
      // before, offset = the rows at that timestamp already shown. The first walk warms up;
      // every walk must show the first 1 000 decisions of the list, in its order, once each.
      const expected = (await getMs(`limit=${DEEP_PAGES * PAGE}`)).decisions.map((d) => d.decisionId).join();
      const pageTimes: number[] = [];
      const walks = 1 + Math.max(1, Math.round(REPS / DEEP_PAGES));
      const keyset = `keyset pages 1–${DEEP_PAGES}, per page`;
      for (let w = 0; w < walks; w++) {
        let to = '';
        let skip = 0;
        const ids: string[] = [];
        for (let p = 0; p < DEEP_PAGES; p++) {
          const r = await getMs(`limit=${PAGE}&offset=${skip}${to ? `&to=${encodeURIComponent(to)}` : ''}`);
          if (r.status !== 200 || r.decisions.length === 0) throw new Error(`keyset page ${p + 1} answered ${r.status} with ${r.decisions.length} rows`);
          if (w > 0) pageTimes.push(r.ms);
          ids.push(...r.decisions.map((d) => d.decisionId));
          const oldest = r.decisions[r.decisions.length - 1].timestamp;
          skip = to === oldest ? skip + r.decisions.length : r.decisions.filter((d) => d.timestamp === oldest).length;
          to = oldest;
        }
        if (ids.join() !== expected) throw new Error(`${DEEP_PAGES} keyset pages did not show the list's first ${DEEP_PAGES * PAGE} decisions`);
      }
      phase[keyset] = stat(pageTimes);
      notes[keyset] = `${PAGE} each`;
      console.log(`  ${keyset}: ${JSON.stringify(phase[keyset])}`);
      const shown = await consoleTimes(browser, base);
      for (const label of Object.keys(shown)) notes[label] = String(PAGE);
      Object.assign(phase, shown);
      return { phase, notes };
    };

    console.log(`seeding ${BASELINE} decisions`);
    const smallWindow = await seed(BASELINE);
    console.log(`measuring at ${BASELINE}`);
    const small = await measure(BASELINE, smallWindow);
    console.log(`seeding up to ${TOTAL} decisions`);
    const seedStart = performance.now();
    const bigWindow = await seed(TOTAL);
    const seedRate = Math.round((TOTAL - BASELINE) / ((performance.now() - seedStart) / 1000));
    console.log(`measuring at ${TOTAL}`);
    const big = await measure(TOTAL, bigWindow);

    const k = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));
    const lines = [
      `| what | rows ${k(BASELINE)} / ${k(TOTAL)} | ${k(BASELINE)} p50 ms | ${k(BASELINE)} p99 ms | ${k(TOTAL)} p50 ms | ${k(TOTAL)} p99 ms | ${k(TOTAL)} / ${k(BASELINE)} (p50) |`,
      '|---|---|---|---|---|---|---|',
    ];
    const ratios: Record<string, number | null> = {};
    for (const label of new Set([...Object.keys(small.phase), ...Object.keys(big.phase)])) {
      const a = small.phase[label];
      const b = big.phase[label];
      ratios[label] = a && b ? +(b.p50 / a.p50).toFixed(2) : null;
      const shown = small.notes[label] === undefined ? '' : `${small.notes[label]} / ${big.notes[label]}`;
      const cell = (s: Stat | undefined) => (s ? [s.p50, s.p99] : ['—', '—']);
      lines.push(`| ${label} | ${[shown, ...cell(a), ...cell(b), ratios[label] ?? '—'].join(' | ')} |`);
    }
    const report = {
      date: new Date().toISOString(),
      machine: machine(),
      decisions: { baseline: BASELINE, total: TOTAL, actions, seedRate },
      reps: REPS,
      consoleReps: CONSOLE_REPS,
      baseline: small,
      measured: big,
      ratios,
      wallSeconds: Math.round((performance.now() - started) / 1000),
      // Other work on the machine during the run (1-minute load average, at the end).
      loadAverage: +os.loadavg()[0].toFixed(1),
    };
    console.log(`machine: ${report.machine}`);
    console.log(`decisions: ${JSON.stringify(actions)}; seeded at ${seedRate}/s; whole run ${report.wallSeconds} s; load average ${report.loadAverage}`);
    console.log(lines.join('\n'));
    console.log(`written to ${writeResult('decisions-list', report)}`);
  } finally {
    await browser.close();
    await stopProcess(svc);
    if (process.env.BENCH_KEEP_DATA === '1') console.log(`data kept in ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The console in Chromium, signed in: navigation (a fresh document) to the first page's
 * rows, and Next to the second page's rows. */
async function consoleTimes(browser: Awaited<ReturnType<typeof chromium.launch>>, base: string): Promise<Phase> {
  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(60_000);
  try {
    await page.goto(`${base}/console`);
    await page.evaluate(`sessionStorage.setItem('cds.console.apiKey', ${JSON.stringify(BENCH_ADMIN_KEY)})`);
    const rows = page.locator('table.data tbody tr');
    const firstTimes: number[] = [];
    const nextTimes: number[] = [];
    for (let i = 0; i < CONSOLE_REPS + 1; i++) {
      await page.goto('about:blank');
      const t = performance.now();
      await page.goto(`${base}/console#/decisions`);
      await page.getByText(`Rows 1–${PAGE}`, { exact: true }).waitFor();
      const firstMs = performance.now() - t;
      if ((await rows.count()) !== PAGE) throw new Error(`the console showed ${await rows.count()} rows`);
      const t2 = performance.now();
      await page.getByRole('button', { name: 'Next →' }).click();
      await page.getByText(`Rows ${PAGE + 1}–${2 * PAGE}`, { exact: true }).waitFor();
      const nextMs = performance.now() - t2;
      if (i > 0) {
        firstTimes.push(firstMs);
        nextTimes.push(nextMs);
      }
    }
    return { 'console: navigation → first page rendered': stat(firstTimes), 'console: Next → second page rendered': stat(nextTimes) };
  } finally {
    await page.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
