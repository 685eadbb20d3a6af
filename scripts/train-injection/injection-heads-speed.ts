/**
 * What skill vetting's prompt-attack score costs with one heads file against another (A, the
 * baseline, and B), in the same run: per prompt, a pass through the heads' layers with their
 * taps (EmbeddingPool.embedLayers) and the heads on the result, as LocalEmbeddingScorer.
 * scoreInjection does. A and B alternate prompt by prompt, so a change in the machine's load
 * falls on both alike; prints wall p50 and CPU per score (the process's user + system time:
 * what one unloaded core would take) and B ÷ A.
 *
 *   git show main:libs/providers/src/local-embedding/model/injection-heads.json > .tmp/heads-a.json
 *   nice node -r ./scripts/train-text/register.js scripts/train-injection/injection-heads-speed.ts --a .tmp/heads-a.json --b libs/providers/src/local-embedding/model/injection-heads.json [--rounds 20]
 */
import { readFileSync } from 'fs';
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import {
  featureLayers,
  featureVector,
  InjectionHeadsFile,
  injectionScores,
  parseInjectionHeads,
} from '../../libs/providers/src/local-embedding/injection-heads';
import { chunkText } from '../../libs/providers/src/local-embedding/text-chunks';
import { parseArgs } from '../train-text/cli-options';
import { PROMPTS } from './injection-speed';

async function score(pool: EmbeddingPool, heads: InjectionHeadsFile, text: string): Promise<number> {
  const chunks = chunkText(text, heads.chunks);
  const embeddings = await Promise.all(chunks.map((c) => pool.embedLayers(c, featureLayers(heads))));
  const s = injectionScores(heads, embeddings.map(featureVector));
  return Math.max(s.prompt_injection, s.jailbreak);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const rounds = Number(args.rounds ?? 20);
  if (!args.a || !args.b) throw new Error('--a and --b: two injection heads files');
  const files = { A: parseInjectionHeads(JSON.parse(readFileSync(args.a, 'utf8'))), B: parseInjectionHeads(JSON.parse(readFileSync(args.b, 'utf8'))) };
  const pool = EmbeddingPool.start({ workers: 1, log: () => undefined }, locateE5Model());
  await pool.ready();
  try {
    for (const f of Object.values(files)) for (const p of PROMPTS) await score(pool, f, p); // warm-up
    const wall = new Map<string, number[]>();
    const cpu = new Map<string, number>();
    for (let r = 0; r < rounds; r++) {
      for (const [k, p] of PROMPTS.entries()) {
        for (const [name, f] of r % 2 ? Object.entries(files).reverse() : Object.entries(files)) {
          const key = `${name}:${k}`;
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await score(pool, f, p);
          const t1 = performance.now();
          const c = process.cpuUsage(c0);
          wall.set(key, [...(wall.get(key) ?? []), t1 - t0]);
          cpu.set(key, (cpu.get(key) ?? 0) + (c.user + c.system) / 1000);
        }
      }
    }
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const desc = (f: InjectionHeadsFile) =>
      `layers ${featureLayers(f).join(',')}${f.heads.prompt_injection.hidden ? `, ${f.heads.prompt_injection.hidden.units} hidden units` : ', linear'}`;
    process.stdout.write(`A: ${desc(files.A)}; B: ${desc(files.B)}; ${rounds} rounds\n\n`);
    process.stdout.write(`| prompt | A wall p50 ms | B wall p50 ms | A CPU ms | B CPU ms | B ÷ A (CPU) |\n|---|---|---|---|---|---|\n`);
    for (const [k, p] of PROMPTS.entries()) {
      const [a, b] = [cpu.get(`A:${k}`)! / rounds, cpu.get(`B:${k}`)! / rounds];
      process.stdout.write(
        `| ${p.length} chars | ${p50(wall.get(`A:${k}`)!).toFixed(1)} | ${p50(wall.get(`B:${k}`)!).toFixed(1)} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(3)} |\n`,
      );
    }
  } finally {
    await pool.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
