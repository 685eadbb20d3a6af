/**
 * Append throughput of the file event log: C concurrent callers, each appending one
 * event at a time and awaiting its durable acknowledgement (fdatasync), for D seconds.
 *   node -r ./libs/event-log/test/swc-register.js libs/event-log/bench/file-append.bench.js [callers=50] [seconds=5] [dir]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { FileEventLog } = require('../src/file/file-event-log.adapter.ts');

async function main() {
  const callers = Number(process.argv[2] ?? 50);
  const seconds = Number(process.argv[3] ?? 5);
  const base = process.argv[4] ?? os.tmpdir();
  const dir = fs.mkdtempSync(path.join(base, 'file-log-bench-'));
  const log = await FileEventLog.open({ dir, logger: { warn: console.warn, log: () => undefined } });
  const data = { content: 'x'.repeat(300), signals: { toxicity: 0.12, spam: 0.01 }, action: 'allow' };
  const latencies = [];
  let appended = 0;
  const until = Date.now() + seconds * 1000;
  const caller = async () => {
    while (Date.now() < until) {
      const event = { id: randomUUID(), type: 'decision.created', version: 1, occurredAt: new Date().toISOString(), tenantId: 't1', key: randomUUID(), data };
      const t = process.hrtime.bigint();
      await log.append('decisions', [event]);
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      appended += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: callers }, caller));
  const elapsed = (Date.now() - started) / 1000;
  const end = (await log.endOffsets('decisions')).get(0);
  await log.close();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
  console.log(
    `${callers} callers, ${elapsed.toFixed(1)} s: ${appended} appends (end offset ${end}), ` +
      `${Math.round(appended / elapsed)} appends/s, latency p50 ${pct(50)} ms p99 ${pct(99)} ms (dir ${dir})`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
