/**
 * Writes the rows the encoder fine-tuning reads (scripts/train-text/finetune/*.py):
 * the capped train and dev rows of the corpus, with the seed sentences, each with its
 * training labels (embedding-data.ts trainingLabel: the same labels, weights and hard
 * negatives as the heads). One JSON object a line:
 *   {"text", "dataset", "lang", "split", "labels": {signal: [y, w]}}
 *
 *   node -r ./scripts/train-text/register.js scripts/train-text/finetune-export.ts [--data-dir <dir>] [--out .tmp/finetune/rows.jsonl]
 *        [--test-out .tmp/finetune/test-rows.jsonl (also every chunk of the capped test rows, unlabelled:
 *         cache_states.py --rows it, so that cross-dataset runs can embed them from the cache)]
 */
import { mkdirSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { PROJECT_ROOT, dataDirFrom, parseArgs } from './cli-options';
import { loadCorpus } from './corpus/corpus';
import { SIGNALS } from './corpus/example';
import { DEFAULT_LABEL_OPTIONS, selectRows, trainingLabel } from './embedding-data';
import { chunksOf } from './embedding-features';
import { seedExamples } from './embedding-seeds';
import { definitionSeedExamples } from './embedding-seeds-v2';
import { DEFAULT_SEED_WEIGHT } from './embedding-train';

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const out = args.out ?? join(PROJECT_ROOT, '.tmp/finetune/rows.jsonl');
  const corpus = loadCorpus(dataDirFrom(args));
  const examples = [...corpus.examples, ...seedExamples(DEFAULT_SEED_WEIGHT), ...definitionSeedExamples(DEFAULT_SEED_WEIGHT)];
  const lines: string[] = [];
  for (const split of ['train', 'dev'] as const) {
    for (const i of selectRows(examples, split)) {
      const e = examples[i];
      const labels: Record<string, [number, number]> = {};
      for (const s of SIGNALS) {
        const l = trainingLabel(e, s, DEFAULT_LABEL_OPTIONS);
        if (l) labels[s] = [l.y, l.w];
      }
      if (Object.keys(labels).length === 0) continue;
      // the first chunk, as the heads train on it (the runtime takes the max over chunks)
      lines.push(JSON.stringify({ text: chunksOf(e)[0], dataset: e.dataset, lang: e.lang, split, labels }));
    }
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, lines.join('\n') + '\n');
  if (args['test-out']) {
    const test = selectRows(corpus.examples, 'test').flatMap((i) =>
      chunksOf(corpus.examples[i]).map((text) => JSON.stringify({ text, dataset: corpus.examples[i].dataset, lang: corpus.examples[i].lang, split: 'test' })),
    );
    writeFileSync(args['test-out'], test.join('\n') + '\n');
    process.stdout.write(`${test.length} test chunks -> ${args['test-out']}\n`);
  }
  process.stdout.write(`${lines.length} rows -> ${out} (corpus ${corpus.corpusHash.slice(0, 12)})\n`);
}

main();
