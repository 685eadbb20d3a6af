import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { evaluate, foldSignals, parsePolicyYaml } from '@cds/policy';
import { LOCAL_SIGNAL_FOLDING } from '@cds/providers';
import { BENCH_ADMIN_KEY, load, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:impact — POST /v1/policies/{id}/impact over 9 000 stored decisions
 * (embedded mode): the replay rate the report measures itself (`replayMs`), and the whole
 * report's time, against the bare evaluation (@cds/policy `evaluate` over the same stored
 * signals, folded, in this process) as the baseline. Env: BENCH_DECISIONS (default 9000).
 */
const N = Number(process.env.BENCH_DECISIONS ?? 9000);
const BASE =
  'name: base\ncategories:\n  sexual: { threshold: 0.8, action: block }\n  hate: { threshold: 0.7, action: block }\n  harassment: { threshold: 0.7, action: flag }\n  violence: { threshold: 0.7, action: flag }\n  self-harm: { threshold: 0.5, action: flag }\n';
const CANDIDATE =
  'name: candidate\ncategories:\n  sexual: { threshold: 0.6, action: block }\n  hate: { threshold: 0.3, action: block }\n  harassment: { threshold: 0.3, action: warn }\n  violence: { threshold: 0.4, action: flag }\n  self-harm: { threshold: 0.3, action: flag }\n';
const TEXTS = ['Have a great day!', 'You are an idiot and everyone hates you', 'I will find you and hurt you', 'I want to die', 'Buy cheap watches now'];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-impact-'));
  const port = 4600;
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}`, 'content-type': 'application/json' };
  const svc = startNode(path.join(ROOT, 'dist/apps/api/src/main.js'), {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
    IMAGE_MODEL_PRELOAD: 'false',
  });
  try {
    await waitHealthy(`${base}/health`);
    await fetch(`${base}/v1/policies`, { method: 'POST', headers: auth, body: JSON.stringify({ policyId: 'base', yamlContent: BASE }) });
    let i = 0;
    while (i < N) {
      const r = await load(
        'fill',
        `${base}/v1/check`,
        { authorization: auth.authorization },
        () => JSON.stringify({ content: `${TEXTS[i % TEXTS.length]} ${i++}`, policyId: 'base' }),
        1,
        20,
      );
      if (r.non2xx > 0) throw new Error(`${r.non2xx} checks failed while filling`);
    }
    const reports: { ms: number; replayMs: number; evaluated: number; changed: number }[] = [];
    for (let run = 0; run < 5; run++) {
      const t = performance.now();
      const res = await fetch(`${base}/v1/policies/base/impact`, { method: 'POST', headers: auth, body: JSON.stringify({ yamlContent: CANDIDATE, limit: N }) });
      const body = (await res.json()) as { evaluated: number; changed: number; replayMs: number };
      if (res.status !== 200) throw new Error(`impact answered ${res.status}: ${JSON.stringify(body)}`);
      reports.push({ ms: performance.now() - t, replayMs: body.replayMs, evaluated: body.evaluated, changed: body.changed });
    }
    // Baseline: the bare evaluation of the candidate over the same stored signals.
    const docs: { signals: Record<string, Record<string, number>> }[] = [];
    for (let offset = 0; offset < N; offset += 1000) {
      const page = (await (await fetch(`${base}/v1/decisions?limit=1000&offset=${offset}&policyId=base`, { headers: auth })).json()) as {
        decisions: { signals: Record<string, Record<string, number>> }[];
      };
      docs.push(...page.decisions);
    }
    const candidate = parsePolicyYaml(CANDIDATE);
    let bareMs = Infinity;
    for (let run = 0; run < 5; run++) {
      const t = performance.now();
      for (const d of docs) evaluate(candidate, foldSignals(d.signals.local, LOCAL_SIGNAL_FOLDING), 'local');
      bareMs = Math.min(bareMs, performance.now() - t);
    }
    const best = reports.reduce((a, b) => (a.replayMs <= b.replayMs ? a : b));
    const median = [...reports].sort((a, b) => a.ms - b.ms)[2];
    const replayRate = Math.round((best.evaluated * 1000) / best.replayMs);
    const bareRate = Math.round((docs.length * 1000) / bareMs);
    const report = {
      date: new Date().toISOString(),
      machine: machine(),
      decisions: best.evaluated,
      changed: best.changed,
      replayRate,
      bareRate,
      ratio: +(replayRate / bareRate).toFixed(2),
      reportMsMedian: Math.round(median.ms),
      reports,
    };
    console.log(`machine: ${report.machine}; ${report.decisions} decisions, ${report.changed} change under the candidate`);
    console.log('| what | decisions/s | ms |');
    console.log('|---|---|---|');
    console.log(`| bare evaluate() over the stored signals (baseline) | ${bareRate} | ${bareMs.toFixed(1)} |`);
    console.log(`| the report's replay (replayMs, best of 5) | ${replayRate} | ${best.replayMs} |`);
    console.log(`| the whole report, request to answer (median of 5) | ${Math.round((best.evaluated * 1000) / median.ms)} | ${report.reportMsMedian} |`);
    console.log(`replay ÷ bare: ${report.ratio}`);
    console.log(`written to ${writeResult('impact', report)}`);
  } finally {
    await stopProcess(svc);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
