import { FNV_OFFSET, fmix32, hashStep, toCodePoints } from './text-hash';
import { LexiconIndex, isUnspacedScript } from './text-lexicon';

const WORD_SALT = 0x2545f491;
const BIGRAM_SALT = 0x68e31da4;
const CHAR_SALT = 0x1b873593;
const SPACE = 32;

export interface FeaturizerConfig {
  /** log2 of the number of hash buckets */
  bits: number;
  charMin: number;
  charMax: number;
}

export const DEFAULT_FEATURIZER_CONFIG: FeaturizerConfig = { bits: 18, charMin: 2, charMax: 5 };

/**
 * Turns normalised tokens into hashed sparse features (word unigrams and bigrams,
 * character n-grams over the space-joined text, single characters of unspaced scripts)
 * and a few dense lexicon features. Reuses its buffers: not re-entrant, cheap to call.
 */
export class TextFeaturizer {
  /** bucket ids of the last call, `count` of them valid */
  buckets: Int32Array = new Int32Array(4096);
  /** dense lexicon features of the last call */
  readonly dense: Float64Array;
  private cps: Int32Array = new Int32Array(1024);
  private readonly hits: Float64Array;
  private readonly shift: number;

  constructor(
    readonly config: FeaturizerConfig,
    readonly lexicon: LexiconIndex | null,
  ) {
    if (!(config.bits >= 8 && config.bits <= 24)) throw new Error(`featurizer: bits out of range: ${config.bits}`);
    this.shift = 32 - config.bits;
    const cats = lexicon ? lexicon.categories.length : 0;
    this.hits = new Float64Array(cats);
    this.dense = new Float64Array(cats * 2);
  }

  get denseSize(): number {
    return this.dense.length;
  }

  /** Names of the dense features, for the manifest. */
  denseNames(): string[] {
    const cats = this.lexicon ? this.lexicon.categories : [];
    return cats.flatMap((c) => [`lex_${c}`, `lex_${c}_2plus`]);
  }

  /** Featurises normalised tokens; returns the number of bucket ids written to `buckets`. */
  featurize(tokens: string[], language: string): number {
    const text = ' ' + tokens.join(' ') + ' ';
    const [cps, len] = toCodePoints(text, this.cps);
    this.cps = cps;
    const need = len * (this.config.charMax - this.config.charMin + 2) + tokens.length * 2 + 16;
    if (this.buckets.length < need) this.buckets = new Int32Array(need * 2);
    const out = this.buckets;
    const shift = this.shift;
    let n = 0;

    // word unigrams and bigrams
    let prev = 0;
    let h = FNV_OFFSET;
    let inWord = false;
    for (let i = 1; i < len; i++) {
      const c = cps[i];
      if (c === SPACE) {
        if (inWord) {
          out[n++] = fmix32(h ^ WORD_SALT) >>> shift;
          if (prev !== 0) out[n++] = fmix32((Math.imul(prev, 0x9e3779b1) + h) ^ BIGRAM_SALT) >>> shift;
          prev = h | 1;
          h = FNV_OFFSET;
          inWord = false;
        }
        continue;
      }
      h = hashStep(h, c);
      inWord = true;
    }

    // character n-grams
    const { charMin, charMax } = this.config;
    for (let i = 0; i < len; i++) {
      let g = FNV_OFFSET;
      const c0 = cps[i];
      if (charMin > 1 && isUnspacedScript(c0)) out[n++] = fmix32(hashStep(g, c0) ^ CHAR_SALT) >>> shift;
      for (let k = 1; k <= charMax && i + k <= len; k++) {
        g = hashStep(g, cps[i + k - 1]);
        if (k >= charMin) out[n++] = fmix32((g + k) ^ CHAR_SALT) >>> shift;
      }
    }

    // lexicon hits
    const dense = this.dense;
    dense.fill(0);
    if (this.lexicon) {
      const hits = this.hits;
      hits.fill(0);
      this.lexicon.count(cps, len, this.lexicon.languageMask(language), hits);
      for (let c = 0; c < hits.length; c++) {
        if (hits[c] >= 1) dense[2 * c] = 1;
        if (hits[c] >= 2) dense[2 * c + 1] = 1;
      }
    }
    return n;
  }
}
