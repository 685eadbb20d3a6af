/**
 * Embeds the capped train/dev/test rows into the disk cache (.tmp/embedding-cache), so
 * that `embedding-train` and `embedding-eval` reruns are cheap. One worker thread (one
 * core): run it under `nice`.
 *
 *   nice node -r ./scripts/train-text/register.js scripts/train-text/embedding-embed.ts [--data-dir <dir>] [--splits train,dev,test] [--layers 4]
 */
import { locateE5Model } from '../../libs/providers/src/local-embedding/e5-model-files';
import { dataDirFrom, numberArg, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { Split } from './corpus/example';
import { EmbeddingCache } from './embedding-cache';
import { selectRows } from './embedding-data';
import { ensureEmbedded } from './embedding-features';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const log = (m: string) => process.stdout.write(`${m}\n`);
  const corpus = loadCorpus(dataDirFrom(args), log);
  const cache = EmbeddingCache.forWeights(locateE5Model().weightsSha256, args.layers === undefined ? undefined : numberArg(args, 'layers', 12));
  const splits = (args.splits ?? 'train,dev,test').split(',') as Split[];
  for (const split of splits) {
    const idx = selectRows(corpus.examples, split);
    log(`${split}: ${idx.length} rows`);
    await ensureEmbedded(corpus.examples, idx, cache, log);
  }
  log(`cache: ${cache.count} embeddings in ${cache.dir}`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
