/**
 * Writes the training rows and their cached layer embeddings for the Python head trainer
 * (scripts/train-injection/mlp/): .tmp/injection-export/rows.jsonl (source, label, lang, sha1
 * of the text; no text) and X.f32 (rows × layers × 384 floats, the cache's layers in order).
 * Reads only the training data and the cache filled by injection-embed.ts: no corpus set.
 *
 *   nice node -r ./scripts/train-text/register.js scripts/train-injection/injection-export.ts [--planted] [--out DIR]
 */
import { createHash } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { parseArgs, PROJECT_ROOT } from '../train-text/cli-options';
import { DIM, LayerCache } from './injection-cache';
import { CANDIDATE_LAYERS, DEFAULT_MIRROR, DEFAULT_SHARED, dataOptions, trainingRows } from './injection-data';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const out = args.out ?? join(PROJECT_ROOT, '.tmp', 'injection-export');
  const rows = await trainingRows(args['mirror-dir'] ?? DEFAULT_MIRROR, args['shared-dir'] ?? DEFAULT_SHARED, dataOptions(args));
  const cache = new LayerCache(locateE5Model().weightsSha256, CANDIDATE_LAYERS);
  const X = new Float32Array(rows.length * CANDIDATE_LAYERS.length * DIM);
  rows.forEach((r, i) =>
    CANDIDATE_LAYERS.forEach((layer, j) => {
      const v = cache.get(r.text, layer);
      if (!v) throw new Error(`not embedded (run injection-embed.ts): ${r.text.slice(0, 60)}`);
      X.set(v, (i * CANDIDATE_LAYERS.length + j) * DIM);
    }),
  );
  mkdirSync(out, { recursive: true });
  const meta = rows.map((r) => JSON.stringify({ source: r.source, label: r.label, lang: r.lang, sha1: createHash('sha1').update(r.text).digest('hex') }));
  writeFileSync(join(out, 'rows.jsonl'), meta.join('\n') + '\n');
  writeFileSync(join(out, 'X.f32'), Buffer.from(X.buffer));
  writeFileSync(join(out, 'layers.json'), JSON.stringify({ layers: CANDIDATE_LAYERS, dim: DIM, rows: rows.length }));
  process.stdout.write(`${rows.length} rows, layers ${CANDIDATE_LAYERS.join(', ')} -> ${out}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
