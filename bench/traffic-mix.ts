import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isSupportedLanguage } from '@cds/providers';
import { loadCorpus } from '../scripts/train-text/corpus/corpus';
import { CorpusExample } from '../scripts/train-text/corpus/example';
import { anyUnsafeLabel } from '../scripts/train-text/embedding-cross';
import { ROOT } from './bench-support';

/**
 * The traffic of the check benchmarks' default-model rows, out of every 100 checks (texts
 * from the held-out test split of the moderation datasets, every language, each sent once
 * unless it is the spam wave's):
 * - 70 benign short texts (no category labelled unsafe, ≤ 280 characters);
 * - 10 unsafe short texts (some category labelled unsafe, ≤ 280 characters);
 * - 5 long texts (600 to 4,000 characters, any label);
 * - 15 repeats of a spam wave of 3 texts (2 benign, 1 unsafe), in turn.
 * The datasets' benign rows are harder than most real traffic (tweets and comments picked
 * for hate-speech studies, counter-speech, quotes): a real mix would clear more.
 */
export const TRAFFIC_MIX = { benign: 70, unsafe: 10, long: 5, repeated: 15 } as const;
export type MixKind = keyof typeof TRAFFIC_MIX;

export interface MixItem {
  kind: MixKind;
  content: string;
  language: string;
}

const rank = (key: string) => createHash('sha1').update(`mix:${key}`).digest().readUInt32BE(0);

/** A fixed order of the kinds over each 100 checks: spread out, the same every run. */
const KIND_ORDER: MixKind[] = (Object.entries(TRAFFIC_MIX) as [MixKind, number][])
  .flatMap(([kind, n]) => Array.from({ length: n }, (_, i) => ({ kind, at: rank(`${kind}${i}`) })))
  .sort((a, b) => a.at - b.at)
  .map((k) => k.kind);

export class TrafficMix {
  private readonly cursor: Record<MixKind, number> = { benign: 0, unsafe: 0, long: 0, repeated: 0 };
  private i = 0;

  private constructor(private readonly pools: Record<MixKind, MixItem[]>) {}

  /** The mix over the test split in `dataDir` (../shared/data/moderation by default). */
  static load(dataDir = path.join(ROOT, '../shared/data/moderation')): TrafficMix {
    const test = loadCorpus(dataDir, () => undefined).examples.filter((e) => e.split === 'test');
    const item = (kind: MixKind) => (e: CorpusExample) => ({ kind, content: e.text, language: isSupportedLanguage(e.lang) ? e.lang : 'en' });
    const shuffled = (rows: CorpusExample[]) => rows.sort((a, b) => rank(a.text) - rank(b.text));
    const benign = shuffled(test.filter((e) => anyUnsafeLabel(e) === 0 && e.text.length <= 280));
    const unsafe = shuffled(test.filter((e) => anyUnsafeLabel(e) === 1 && e.text.length <= 280));
    const long = shuffled(test.filter((e) => e.text.length > 600 && e.text.length <= 4000));
    // the spam wave: the first texts of each pool, which the pools then skip
    const wave = [benign.shift()!, unsafe.shift()!, benign.shift()!];
    return new TrafficMix({
      benign: benign.map(item('benign')),
      unsafe: unsafe.map(item('unsafe')),
      long: long.map(item('long')),
      repeated: wave.map(item('repeated')),
    });
  }

  /** A fresh copy that sends the same sequence from the start. */
  restart(): TrafficMix {
    return new TrafficMix(this.pools);
  }

  /** The next check of the sequence; a pool used up starts again (a repeat). */
  next(): MixItem {
    const kind = KIND_ORDER[this.i++ % KIND_ORDER.length];
    const pool = this.pools[kind];
    return pool[this.cursor[kind]++ % pool.length];
  }

  /** How many distinct texts each kind has before it repeats. */
  sizes(): Record<MixKind, number> {
    return { benign: this.pools.benign.length, unsafe: this.pools.unsafe.length, long: this.pools.long.length, repeated: this.pools.repeated.length };
  }
}

/** The body of the next POST /v1/check of the mix under the built-in policy. */
export function mixCheckBody(mix: TrafficMix): () => string {
  let n = 0;
  return () => {
    const { content, language } = mix.next();
    return JSON.stringify({ content, language, policyId: 'default', metadata: { userId: `u${n++ % 100}` } });
  };
}
