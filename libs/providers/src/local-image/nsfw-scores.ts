/** The model's five exclusive classes, as probabilities summing to 1. */
export interface NsfwScores {
  drawing: number;
  hentai: number;
  neutral: number;
  porn: number;
  sexy: number;
}

/** The graph's output order (nsfwjs's NSFW_CLASSES: Drawing, Hentai, Neutral, Porn, Sexy). */
export const NSFW_CLASSES = ['drawing', 'hentai', 'neutral', 'porn', 'sexy'] as const satisfies readonly (keyof NsfwScores)[];
export const NSFW_CLASS_COUNT = NSFW_CLASSES.length;

/** Frame i's scores from the graph's `[batch, 5]` softmax output; throws on a shape or a
 * value that would mean another model than the one this code was written for. */
export function nsfwScoresAt(probabilities: Float32Array, i: number): NsfwScores {
  const n = NSFW_CLASS_COUNT;
  if (probabilities.length < (i + 1) * n) throw new Error(`the nsfw model gave ${probabilities.length} values, fewer than ${(i + 1) * n}`);
  const values = Array.from(probabilities.subarray(i * n, (i + 1) * n));
  for (const v of values) {
    if (!Number.isFinite(v) || v < -1e-6 || v > 1 + 1e-6) throw new Error(`the nsfw model gave ${v}, not a probability`);
  }
  const sum = values.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-3) throw new Error(`the nsfw model's probabilities sum to ${sum}, not 1`);
  const [drawing, hentai, neutral, porn, sexy] = values;
  return { drawing, hentai, neutral, porn, sexy };
}
