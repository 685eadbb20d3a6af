import { LOCAL_TEXT_CATEGORIES, LOCAL_TEXT_SIGNALS, LocalTextCategory, LocalTextSignal } from '../local-text/local-text.signals';
import { ChunkLimits } from './text-chunks';

/** One logistic head over the embedding, then Platt calibration:
 * p = σ(platt.a · (w·x + b) + platt.b). */
export interface EmbeddingHead {
  w: number[];
  b: number;
  platt: { a: number; b: number };
}

/** The published encoder a heads file was trained on: other weights make the heads meaningless. */
export interface EncoderPin {
  package: string;
  version: string;
  weightsSha256: string;
  prefix: 'query: ';
  dim: number;
}

/** The committed heads file (model/embedding-heads.json). */
export interface EmbeddingHeadsFile {
  format: 1;
  /** the embedding model the heads were trained on: a different one makes them meaningless */
  model: EncoderPin & {
    /** The heads read the pooled output of the model's first `layers` encoder layers;
     * absent: of all of them. */
    layers?: number;
    /** Fine-tuned encoder layers loaded over the published weights: a file beside the heads
     * file (model/), pinned by its sha256; absent: the weights as published. */
    overlay?: { file: string; sha256: string };
  };
  chunks: ChunkLimits;
  heads: Partial<Record<LocalTextSignal, EmbeddingHead>>;
  /** Cascade: a text whose n-gram category scores are all below these is cleared by the
   * n-gram model alone (never embedded); null = embed every text. */
  cascade: { clearBelow: Record<LocalTextCategory, number> } | null;
}

export class EmbeddingHeadsFormatError extends Error {
  constructor(message: string) {
    super(`invalid embedding heads file: ${message}`);
    this.name = 'EmbeddingHeadsFormatError';
  }
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Validates a parsed heads file (shape, sizes, finite numbers). */
export function parseEmbeddingHeads(json: unknown): EmbeddingHeadsFile {
  const f = json as EmbeddingHeadsFile;
  if (!f || typeof f !== 'object' || f.format !== 1) throw new EmbeddingHeadsFormatError('format must be 1');
  if (!f.model || !Number.isInteger(f.model.dim) || f.model.dim < 1) throw new EmbeddingHeadsFormatError('model.dim missing');
  if (f.model.layers !== undefined && !(Number.isInteger(f.model.layers) && f.model.layers >= 1))
    throw new EmbeddingHeadsFormatError('model.layers must be an integer >= 1 when present');
  const ov = f.model.overlay;
  if (
    ov !== undefined &&
    !(ov && typeof ov.file === 'string' && /^[\w.-]+$/.test(ov.file) && typeof ov.sha256 === 'string' && /^[0-9a-f]{64}$/.test(ov.sha256))
  )
    throw new EmbeddingHeadsFormatError('model.overlay must be { file: a file name beside the heads file, sha256: 64 hex digits } when present');
  if (!f.chunks || !(f.chunks.chunkChars >= 1) || !(f.chunks.maxChunks >= 1)) throw new EmbeddingHeadsFormatError('chunks missing');
  if (!f.heads || typeof f.heads !== 'object') throw new EmbeddingHeadsFormatError('heads missing');
  for (const [signal, h] of Object.entries(f.heads)) {
    if (!(LOCAL_TEXT_SIGNALS as readonly string[]).includes(signal)) throw new EmbeddingHeadsFormatError(`unknown signal ${signal}`);
    if (!h || !Array.isArray(h.w) || h.w.length !== f.model.dim || !h.w.every(finite))
      throw new EmbeddingHeadsFormatError(`${signal}: w must hold ${f.model.dim} numbers`);
    if (!finite(h.b) || !h.platt || !finite(h.platt.a) || !finite(h.platt.b)) throw new EmbeddingHeadsFormatError(`${signal}: b and platt must be numbers`);
  }
  if (f.cascade !== null) {
    for (const c of LOCAL_TEXT_CATEGORIES) {
      if (!finite(f.cascade?.clearBelow?.[c])) throw new EmbeddingHeadsFormatError(`cascade.clearBelow.${c} must be a number`);
    }
  }
  return f;
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** Calibrated probability of one head for one embedding. */
export function headProbability(head: EmbeddingHead, x: ArrayLike<number>): number {
  let z = head.b;
  for (let j = 0; j < head.w.length; j++) z += head.w[j] * x[j];
  return sigmoid(head.platt.a * z + head.platt.b);
}

/**
 * Signals of a text from its chunks' embeddings: each head's probability, max over chunks;
 * signals without a head take `fallback` (the n-gram model's score), or 0.
 */
export function scoreChunks(
  heads: EmbeddingHeadsFile['heads'],
  chunks: ArrayLike<number>[],
  fallback: Partial<Record<LocalTextSignal, number>> = {},
): Record<LocalTextSignal, number> {
  const out = {} as Record<LocalTextSignal, number>;
  for (const signal of LOCAL_TEXT_SIGNALS) {
    const head = heads[signal];
    if (!head) {
      out[signal] = fallback[signal] ?? 0;
      continue;
    }
    let best = 0;
    for (const x of chunks) best = Math.max(best, headProbability(head, x));
    out[signal] = best;
  }
  return out;
}

/** True when every category score is below its clearing threshold. */
export function clearedByCascade(categories: Record<LocalTextCategory, number>, clearBelow: Record<LocalTextCategory, number>): boolean {
  return LOCAL_TEXT_CATEGORIES.every((c) => categories[c] < clearBelow[c]);
}
