/**
 * Embeds every training row at the candidate layers (one forward pass each) into
 * .tmp/injection-cache. One worker thread: run under `nice`.
 *
 *   nice node -r ./scripts/train-text/register.js scripts/train-injection/injection-embed.ts [--mirror-dir /work/.mirror] [--planted]
 */
import { EmbeddingPool } from '../../libs/providers/src/local-embedding/embedding-pool';
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { parseArgs } from '../train-text/cli-options';
import { LayerCache } from './injection-cache';
import { CANDIDATE_LAYERS, DEFAULT_MIRROR, DEFAULT_SHARED, dataOptions, trainingRows } from './injection-data';

export async function embedRows(texts: string[], layers: readonly number[], log: (m: string) => void, workers = 1): Promise<LayerCache> {
  const model = locateE5Model();
  const cache = new LayerCache(model.weightsSha256, layers);
  const pool = EmbeddingPool.start({ workers, log: () => undefined }, model);
  try {
    await pool.ready();
    await cache.fill(texts, pool, log);
  } finally {
    await pool.close();
  }
  return cache;
}

if (require.main === module) {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  trainingRows(args['mirror-dir'] ?? DEFAULT_MIRROR, args['shared-dir'] ?? DEFAULT_SHARED, dataOptions(args))
    .then((rows) =>
      embedRows(
        rows.map((r) => r.text),
        CANDIDATE_LAYERS,
        log,
        Number(args.workers ?? 1),
      ),
    )
    .catch((err) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
}
