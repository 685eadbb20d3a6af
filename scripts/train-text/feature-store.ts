import { TextFeaturizer, normalizeTokens } from '@cds/providers';
import { CorpusExample, SIGNALS } from './corpus/example';

/** Training reads at most this much of each text (the runtime reads up to MAX_TEXT_CHARS). */
export const TRAIN_TEXT_CHARS = 4000;

/**
 * Featurised examples in flat typed arrays (bucket ids, dense lexicon bits, targets and
 * per-signal costs), so an epoch is a tight loop with no allocation.
 */
export class FeatureStore {
  readonly size: number;
  readonly K = SIGNALS.length;
  readonly D: number;
  offsets: Uint32Array;
  buckets: Int32Array;
  dense: Uint8Array;
  /** target per (example, signal) */
  y: Uint8Array;
  /** label weight per (example, signal); 0 = unlabelled */
  w: Float32Array;

  constructor(
    readonly examples: CorpusExample[],
    featurizer: TextFeaturizer,
  ) {
    const n = examples.length;
    this.size = n;
    this.D = featurizer.denseSize;
    this.offsets = new Uint32Array(n + 1);
    this.dense = new Uint8Array(n * this.D);
    this.y = new Uint8Array(n * this.K);
    this.w = new Float32Array(n * this.K);
    let buf = new Int32Array(1 << 24);
    let used = 0;
    for (let i = 0; i < n; i++) {
      const e = examples[i];
      const count = featurizer.featurize(normalizeTokens(e.text.slice(0, TRAIN_TEXT_CHARS)), e.lang);
      if (used + count > buf.length) {
        const next = new Int32Array(Math.max(buf.length * 2, used + count));
        next.set(buf.subarray(0, used));
        buf = next;
      }
      buf.set(featurizer.buckets.subarray(0, count), used);
      used += count;
      this.offsets[i + 1] = used;
      for (let j = 0; j < this.D; j++) this.dense[i * this.D + j] = featurizer.dense[j] > 0 ? 1 : 0;
      SIGNALS.forEach((s, k) => {
        const l = e.labels[s];
        if (l) {
          this.y[i * this.K + k] = l.y;
          this.w[i * this.K + k] = l.w;
        }
      });
    }
    this.buckets = buf.slice(0, used);
  }

  hasDense(i: number): boolean {
    for (let j = 0; j < this.D; j++) if (this.dense[i * this.D + j]) return true;
    return false;
  }
}
