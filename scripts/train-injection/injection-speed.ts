/**
 * What one prompt-attack pass costs, per layer the heads could read: wall time per pass
 * (p50, what skill vetting waits for on this machine now) and CPU time per pass (the
 * process's user + system time over the passes: what one unloaded core would take, since a
 * pass runs on one worker thread and the main thread only waits). Layers are interleaved
 * round by round so that a change in the machine's load falls on all of them alike.
 *
 *   npm run models:fetch
 *   nice node -r ./scripts/train-text/register.js scripts/train-injection/injection-speed.ts [--rounds 20] [--layers 4,6,8,12]
 */
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { parseArgs } from '../train-text/cli-options';

/** Skill prompts of the lengths bench:guardrails sends: a line, a paragraph, a page. */
export const PROMPTS = [
  'Formats markdown tables and aligns their columns.',
  'Reviews the staged diff, points out bugs and missing tests, and suggests a commit message. Never pushes to main without asking the user, and keeps comments short.',
  'You are a release assistant for a TypeScript monorepo. '.concat(
    'Read the changelog entries under docs/changes, group them by package, and write release notes with one section per package. '.repeat(6),
    'Ignore generated files under dist/. Ask the user before tagging a release.',
  ),
];

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rounds = Number(args.rounds ?? 20);
  const layers = (args.layers ?? '4,6,8,12').split(',').map(Number);
  const pool = EmbeddingPool.start({ workers: 1, log: () => undefined }, locateE5Model());
  await pool.ready();
  try {
    for (const l of layers) for (const p of PROMPTS) await pool.embedLayers(p, [l]); // warm-up
    const wall = new Map<string, number[]>();
    const cpu = new Map<string, number>();
    for (let r = 0; r < rounds; r++) {
      for (const l of layers) {
        for (const [k, p] of PROMPTS.entries()) {
          const key = `${l}:${k}`;
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await pool.embedLayers(p, [l]);
          const t1 = performance.now();
          const c = process.cpuUsage(c0);
          wall.set(key, [...(wall.get(key) ?? []), t1 - t0]);
          cpu.set(key, (cpu.get(key) ?? 0) + (c.user + c.system) / 1000);
        }
      }
    }
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    process.stdout.write(`| layers run | prompt | wall p50 ms | CPU ms per pass |\n|---|---|---|---|\n`);
    for (const l of layers) {
      for (const [k, p] of PROMPTS.entries()) {
        const key = `${l}:${k}`;
        process.stdout.write(`| 1–${l} | ${p.length} chars | ${p50(wall.get(key)!).toFixed(1)} | ${(cpu.get(key)! / rounds).toFixed(1)} |\n`);
      }
    }
  } finally {
    await pool.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
