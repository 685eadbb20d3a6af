import { EmbeddingHead, EmbeddingHeadsFormatError, EncoderPin, headProbability, sigmoid } from './embedding-heads';
import { ChunkLimits } from './text-chunks';

/** The signals of the prompt-attack heads: text that tries to override the instructions a
 * model was given (`prompt_injection`), and text that tries to talk a model out of its
 * safety rules (`jailbreak`). Each folds into the category of the same name. */
export const INJECTION_SIGNALS = ['prompt_injection', 'jailbreak'] as const;
export type InjectionSignal = (typeof INJECTION_SIGNALS)[number];
export type InjectionScores = Record<InjectionSignal, number>;

/**
 * The committed prompt-attack heads (model/injection-heads.json): heads with Platt
 * calibration, logistic like the moderation heads or with one hidden layer, on the pooled
 * output of intermediate encoder layers (`model.features`, up to `model.layer`). The layers
 * are below the ones another model may fine-tune,
 * and a check that embeds its text for the moderation heads gets this layer from the same
 * forward pass (EmbeddingPool.embedLayers).
 */
export interface InjectionHeadsFile {
  /** 2 when `model.features` or a head's `hidden` layer is used (a reader of format 1 would
   * misread them) */
  format: 1 | 2;
  model: EncoderPin & {
    /** the deepest layer the heads read: how far skill vetting's pass runs */
    layer: number;
    /** the layers whose pooled outputs, side by side in this order, are the heads' input
     * (strictly increasing, the last one `layer`); absent: [layer] */
    features?: number[];
  };
  chunks: ChunkLimits;
  heads: Record<InjectionSignal, InjectionHead>;
  /** The heads' decision boundary (calibrated): at or above it a text reads more like the
   * attacks than the benign texts they learned from (model/INJECTION_CARD.md). */
  threshold: number;
  /** The probability at or above which skill vetting counts a prompt as an attack, at or
   * above `threshold`: a skill's prompt is instructions addressed to a model, where the heads
   * flag benign look-alikes at the boundary, so it needs more evidence. Chosen on
   * cross-source scores and the development set (sweep:injection). Absent: `threshold`. */
  skillThreshold?: number;
}

/** A head: logistic (EmbeddingHead) on the features, or on `hidden`'s rectified units when
 * present: p = σ(platt.a · (w·relu(W₁x + b₁) + b) + platt.b), w one weight per unit. */
export interface InjectionHead extends EmbeddingHead {
  /** W₁ as base64 of little-endian float32, `units` rows of the input's length (compact and
   * exact: a JSON number per weight would make the file ten times larger); b₁ one per unit */
  hidden?: { units: number; w: string; b: number[] };
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** The layers the heads read, in the order their vectors are concatenated. */
export function featureLayers(file: InjectionHeadsFile): number[] {
  return file.model.features ?? [file.model.layer];
}

/** One vector of the heads' input from the pooled outputs of `featureLayers`, in that order. */
export function featureVector(perLayer: ArrayLike<number>[]): Float32Array {
  if (perLayer.length === 1 && perLayer[0] instanceof Float32Array) return perLayer[0];
  const out = new Float32Array(perLayer.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const v of perLayer) (out.set(v, at), (at += v.length));
  return out;
}

const decoded = new WeakMap<object, Float32Array>();

/** A hidden layer's weights, decoded once per parsed file. */
function hiddenWeights(h: NonNullable<InjectionHead['hidden']>): Float32Array {
  let w = decoded.get(h);
  if (!w) {
    const buf = Buffer.from(h.w, 'base64');
    w = new Float32Array(buf.byteLength / 4);
    for (let i = 0; i < w.length; i++) w[i] = buf.readFloatLE(i * 4);
    decoded.set(h, w);
  }
  return w;
}

/** A head's calibrated probability for one input vector. */
export function injectionHeadProbability(head: InjectionHead, x: ArrayLike<number>): number {
  if (!head.hidden) return headProbability(head, x);
  const W = hiddenWeights(head.hidden);
  const n = x.length;
  let z = head.b;
  for (let u = 0; u < head.hidden.units; u++) {
    let a = head.hidden.b[u];
    const row = u * n;
    for (let j = 0; j < n; j++) a += W[row + j] * x[j];
    if (a > 0) z += head.w[u] * a;
  }
  return sigmoid(head.platt.a * z + head.platt.b);
}

export function parseInjectionHeads(json: unknown): InjectionHeadsFile {
  const f = json as InjectionHeadsFile;
  const bad = (m: string) => new EmbeddingHeadsFormatError(`injection heads: ${m}`);
  if (!f || typeof f !== 'object' || (f.format !== 1 && f.format !== 2)) throw bad('format must be 1 or 2');
  if (!f.model || !Number.isInteger(f.model.dim) || f.model.dim < 1) throw bad('model.dim missing');
  if (!Number.isInteger(f.model.layer) || f.model.layer < 1 || f.model.layer > 12) throw bad('model.layer must be an integer within 1..12');
  const feats = f.model.features;
  if (feats !== undefined) {
    if (f.format !== 2) throw bad('model.features needs format 2');
    if (!Array.isArray(feats) || feats.length < 1 || !feats.every((l, i) => Number.isInteger(l) && l >= 1 && (i === 0 || l > feats[i - 1])))
      throw bad('model.features must be strictly increasing layer numbers');
    if (feats[feats.length - 1] !== f.model.layer) throw bad('model.features must end at model.layer');
  }
  const input = f.model.dim * (feats?.length ?? 1);
  if (!f.chunks || !(f.chunks.chunkChars >= 1) || !(f.chunks.maxChunks >= 1)) throw bad('chunks missing');
  if (!finite(f.threshold) || f.threshold <= 0 || f.threshold >= 1) throw bad('threshold must be within (0, 1)');
  if (f.skillThreshold !== undefined && (!finite(f.skillThreshold) || f.skillThreshold < f.threshold || f.skillThreshold >= 1))
    throw bad('skillThreshold must be within [threshold, 1)');
  for (const s of INJECTION_SIGNALS) {
    const h = f.heads?.[s];
    if (!h) throw bad(`${s}: missing`);
    if (h.hidden !== undefined) parseHidden(h.hidden, input, f.format, (m) => bad(`${s}: ${m}`));
    const width = h.hidden?.units ?? input;
    if (!Array.isArray(h.w) || h.w.length !== width || !h.w.every(finite)) throw bad(`${s}: w must hold ${width} numbers`);
    if (!finite(h.b) || !h.platt || !finite(h.platt.a) || !finite(h.platt.b)) throw bad(`${s}: b and platt must be numbers`);
  }
  return f;
}

function parseHidden(h: InjectionHead['hidden'], input: number, format: number, bad: (m: string) => Error): void {
  if (format !== 2) throw bad('hidden needs format 2');
  if (!h || !Number.isInteger(h.units) || h.units < 1) throw bad('hidden.units must be a positive integer');
  if (!Array.isArray(h.b) || h.b.length !== h.units || !h.b.every(finite)) throw bad(`hidden.b must hold ${h.units} numbers`);
  if (typeof h.w !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(h.w)) throw bad('hidden.w must be base64');
  const w = hiddenWeights(h);
  if (w.length !== h.units * input) throw bad(`hidden.w must hold ${h.units} × ${input} float32`);
  if (!w.every(Number.isFinite)) throw bad('hidden.w must hold finite numbers');
}

/** The threshold skill vetting applies to a prompt's score. */
export function skillThreshold(file: InjectionHeadsFile): number {
  return file.skillThreshold ?? file.threshold;
}

/** Each head's probability, max over the chunks' input vectors (featureVector). */
export function injectionScores(file: InjectionHeadsFile, chunks: ArrayLike<number>[]): InjectionScores {
  const out = { prompt_injection: 0, jailbreak: 0 };
  for (const s of INJECTION_SIGNALS) for (const x of chunks) out[s] = Math.max(out[s], injectionHeadProbability(file.heads[s], x));
  return out;
}
