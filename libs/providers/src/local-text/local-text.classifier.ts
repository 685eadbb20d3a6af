import { createHash } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { LocalTextModel, LocalTextModelFormatError, LocalTextModelHeader, decodeLocalTextModel } from './local-text-model.format';
import { TextFeaturizer } from './text-featurizer';
import { LexiconFile, LexiconIndex } from './text-lexicon';
import { normalizeTokens } from './text-normalizer';

export const LOCAL_TEXT_MODEL_FILE = 'local-text-model.bin';
export const LOCAL_TEXT_LEXICON_FILE = 'local-text-lexicons.json';

/** Where the committed model lives, whether running from sources (ts) or from dist (compiled js). */
function defaultModelDir(): string {
  const candidates = [
    join(__dirname, 'model'),
    resolve(__dirname, '../../../../../libs/providers/src/local-text/model'),
    resolve(process.cwd(), 'libs/providers/src/local-text/model'),
  ];
  return candidates.find((dir) => existsSync(join(dir, LOCAL_TEXT_MODEL_FILE))) ?? candidates[0];
}

function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** `pt-BR` -> `pt`; anything unusable -> '' (scored without a language-specific lexicon). */
function primaryLanguage(language: unknown): string {
  if (typeof language !== 'string') return '';
  const m = /^[A-Za-z]{2,3}/.exec(language.trim());
  return m ? m[0].toLowerCase() : '';
}

/**
 * The offline text classifier behind the built-in `local` provider: one calibrated
 * logistic-regression head per signal over hashed word and character n-grams plus
 * lexicon hits. Pure CPU after construction; `score` never throws.
 */
export class LocalTextClassifier {
  readonly signals: readonly string[];
  private readonly header: LocalTextModelHeader;
  private readonly table: Int8Array;
  private readonly featurizer: TextFeaturizer;
  private readonly acc: Int32Array;
  /** Scratch: where each feature's row of the table starts. */
  private rows = new Int32Array(256);
  private readonly denseW: Float64Array;
  /** resolved lexicon floors: dense feature index -> (signal index, minimum score) */
  private readonly floors: { dense: number; signal: number; score: number }[];

  private constructor(
    model: LocalTextModel,
    lexicon: LexiconFile,
    /** Which model this is, as stored with each decision it scores: `ngram:` and the
     * first 12 hex digits of the model file's sha256 (`ngram:in-memory` when built from parts). */
    readonly id = 'ngram:in-memory',
  ) {
    this.header = model.header;
    this.table = model.table;
    this.signals = Object.freeze(model.header.signals.slice());
    this.featurizer = new TextFeaturizer(model.header.featurizer, LexiconIndex.fromFile(lexicon));
    const K = this.signals.length;
    const D = this.featurizer.denseSize;
    if (model.header.denseWeights.length !== D) {
      throw new LocalTextModelFormatError(`model expects ${model.header.denseWeights.length} lexicon features, lexicon gives ${D}`);
    }
    this.denseW = new Float64Array(D * K);
    model.header.denseWeights.forEach((row, j) => row.forEach((w, k) => (this.denseW[j * K + k] = w)));
    this.acc = new Int32Array(K);
    const denseNames = this.featurizer.denseNames();
    this.floors = (model.header.lexiconFloors ?? []).flatMap((f) => {
      const dense = denseNames.indexOf(`lex_${f.lexiconCategory}`);
      if (dense < 0) throw new LocalTextModelFormatError(`lexicon floor on unknown lexicon category ${f.lexiconCategory}`);
      return f.signals.map((name) => {
        const signal = this.signals.indexOf(name);
        if (signal < 0) throw new LocalTextModelFormatError(`lexicon floor on unknown signal ${name}`);
        return { dense, signal, score: f.score };
      });
    });
  }

  /** Loads `local-text-model.bin` and its lexicon from `modelDir` (default: the committed model). */
  static load(modelDir?: string): LocalTextClassifier {
    const dir = modelDir ?? defaultModelDir();
    const modelPath = join(dir, LOCAL_TEXT_MODEL_FILE);
    if (!existsSync(modelPath)) throw new LocalTextModelFormatError(`local text model not found at ${modelPath}`);
    const modelBuf = readFileSync(modelPath);
    const model = decodeLocalTextModel(modelBuf);
    const lexiconBuf = readFileSync(join(dir, model.header.lexiconFile));
    const sha = createHash('sha256').update(lexiconBuf).digest('hex');
    if (sha !== model.header.lexiconSha256) {
      throw new LocalTextModelFormatError(`${model.header.lexiconFile} does not match the model (sha256 ${sha})`);
    }
    const id = `ngram:${createHash('sha256').update(modelBuf).digest('hex').slice(0, 12)}`;
    return new LocalTextClassifier(model, JSON.parse(lexiconBuf.toString('utf8')) as LexiconFile, id);
  }

  /** Builds a classifier from in-memory parts (used by the trainer's evaluation). */
  static fromModel(model: LocalTextModel, lexicon: LexiconFile): LocalTextClassifier {
    return new LocalTextClassifier(model, lexicon);
  }

  /** Calibrated probabilities in [0, 1], one per signal. Never throws. */
  score(text: string, language: string): Record<string, number> {
    const raw = this.rawScores(text, language);
    const cal = this.header.calibration;
    const p = new Float64Array(raw.length);
    for (let k = 0; k < raw.length; k++) {
      const v = sigmoid(cal[k].a * raw[k] + cal[k].b);
      p[k] = Number.isFinite(v) ? v : 0;
    }
    // lexicon score path: the dense features still hold this text's lexicon hits
    const dense = this.featurizer.dense;
    for (const f of this.floors) if (dense[f.dense] > 0 && p[f.signal] < f.score) p[f.signal] = f.score;
    const out: Record<string, number> = {};
    for (let k = 0; k < raw.length; k++) out[this.signals[k]] = p[k];
    return out;
  }

  /** Uncalibrated logits, one per signal (for calibration and evaluation). */
  rawScores(text: string, language: string): Float64Array {
    const K = this.signals.length;
    const z = new Float64Array(K);
    try {
      const tokens = normalizeTokens(text);
      const f = this.featurizer;
      const n = f.featurize(tokens, primaryLanguage(language));
      const acc = this.acc;
      if (this.rows.length < n) this.rows = new Int32Array(n * 2);
      sumRows(this.table, f.buckets, n, K, this.rows, acc);
      const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
      const dense = f.dense;
      const { bias, scales } = this.header;
      for (let k = 0; k < K; k++) {
        let v = bias[k] + scales[k] * acc[k] * inv;
        for (let j = 0; j < dense.length; j++) if (dense[j] !== 0) v += dense[j] * this.denseW[j * K + k];
        z[k] = v;
      }
    } catch {
      // defensive: a scoring bug must not take the request down; intercepts only
      for (let k = 0; k < K; k++) z[k] = this.header.bias[k];
      this.featurizer.dense.fill(0);
    }
    return z;
  }
}

/**
 * acc[k] = the sum over the n features of table[bucket × K + k]. Four signals at a time,
 * each in a local: against one pass that adds every row into `acc`, 3x faster (the sums are
 * integers, so the order of the additions changes nothing).
 */
function sumRows(table: Int8Array, buckets: Int32Array, n: number, K: number, rows: Int32Array, acc: Int32Array): void {
  for (let i = 0; i < n; i++) rows[i] = buckets[i] * K;
  let k = 0;
  for (; k + 4 <= K; k += 4) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    for (let i = 0; i < n; i++) {
      const b = rows[i] + k;
      a0 += table[b];
      a1 += table[b + 1];
      a2 += table[b + 2];
      a3 += table[b + 3];
    }
    acc[k] = a0;
    acc[k + 1] = a1;
    acc[k + 2] = a2;
    acc[k + 3] = a3;
  }
  for (; k < K; k++) {
    let a = 0;
    for (let i = 0; i < n; i++) a += table[rows[i] + k];
    acc[k] = a;
  }
}
