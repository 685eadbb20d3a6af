import { EmbeddingHead, EmbeddingHeadsFormatError, headProbability } from './embedding-heads';
import { ChunkLimits } from './text-chunks';

/** The signals of the prompt-attack heads: text that tries to override the instructions a
 * model was given (`prompt_injection`), and text that tries to talk a model out of its
 * safety rules (`jailbreak`). Each folds into the category of the same name. */
export const INJECTION_SIGNALS = ['prompt_injection', 'jailbreak'] as const;
export type InjectionSignal = (typeof INJECTION_SIGNALS)[number];
export type InjectionScores = Record<InjectionSignal, number>;

/**
 * The committed prompt-attack heads (model/injection-heads.json): logistic heads with Platt
 * calibration, like the moderation heads, but on the pooled output of an intermediate
 * encoder layer (`model.layer`). The layer is below the ones another model may fine-tune,
 * and a check that embeds its text for the moderation heads gets this layer from the same
 * forward pass (EmbeddingPool.embedLayers).
 */
export interface InjectionHeadsFile {
  format: 1;
  model: { package: string; version: string; weightsSha256: string; prefix: 'query: '; dim: number; layer: number };
  chunks: ChunkLimits;
  heads: Record<InjectionSignal, EmbeddingHead>;
  /** The heads' decision boundary (calibrated): at or above it a text reads more like the
   * attacks than the benign texts they learned from (model/INJECTION_CARD.md). */
  threshold: number;
  /** The probability at or above which skill vetting counts a prompt as an attack, at or
   * above `threshold`: a skill's prompt is instructions addressed to a model, where the heads
   * flag benign look-alikes at the boundary, so it needs more evidence. Chosen on
   * cross-source scores and the development set (sweep:injection). Absent: `threshold`. */
  skillThreshold?: number;
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

export function parseInjectionHeads(json: unknown): InjectionHeadsFile {
  const f = json as InjectionHeadsFile;
  const bad = (m: string) => new EmbeddingHeadsFormatError(`injection heads: ${m}`);
  if (!f || typeof f !== 'object' || f.format !== 1) throw bad('format must be 1');
  if (!f.model || !Number.isInteger(f.model.dim) || f.model.dim < 1) throw bad('model.dim missing');
  if (!Number.isInteger(f.model.layer) || f.model.layer < 1 || f.model.layer > 12) throw bad('model.layer must be an integer within 1..12');
  if (!f.chunks || !(f.chunks.chunkChars >= 1) || !(f.chunks.maxChunks >= 1)) throw bad('chunks missing');
  if (!finite(f.threshold) || f.threshold <= 0 || f.threshold >= 1) throw bad('threshold must be within (0, 1)');
  if (f.skillThreshold !== undefined && (!finite(f.skillThreshold) || f.skillThreshold < f.threshold || f.skillThreshold >= 1))
    throw bad('skillThreshold must be within [threshold, 1)');
  for (const s of INJECTION_SIGNALS) {
    const h = f.heads?.[s];
    if (!h || !Array.isArray(h.w) || h.w.length !== f.model.dim || !h.w.every(finite)) throw bad(`${s}: w must hold ${f.model.dim} numbers`);
    if (!finite(h.b) || !h.platt || !finite(h.platt.a) || !finite(h.platt.b)) throw bad(`${s}: b and platt must be numbers`);
  }
  return f;
}

/** The threshold skill vetting applies to a prompt's score. */
export function skillThreshold(file: InjectionHeadsFile): number {
  return file.skillThreshold ?? file.threshold;
}

/** Each head's probability, max over the chunks' embeddings at the heads' layer. */
export function injectionScores(file: InjectionHeadsFile, chunks: ArrayLike<number>[]): InjectionScores {
  const out = { prompt_injection: 0, jailbreak: 0 };
  for (const s of INJECTION_SIGNALS) for (const x of chunks) out[s] = Math.max(out[s], headProbability(file.heads[s], x));
  return out;
}
