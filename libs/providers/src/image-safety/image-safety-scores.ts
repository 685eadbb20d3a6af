/** The image safety model's three exclusive classes, as probabilities summing to 1 (the
 * softmax is in the graph). Its output order is NSFL, NSFW, SFW. */
export interface SafetyScores {
  /** "not safe for life": gore, graphic violence, disturbing injury */
  nsfl: number;
  /** "not safe for work": sexual content */
  nsfw: number;
  sfw: number;
}

export const SAFETY_CLASSES = ['nsfl', 'nsfw', 'sfw'] as const;

/** Frame i's scores from the model's `[batch, 3]` output; throws on a shape or a value
 * that would mean another model than the one this code was written for. */
export function safetyScoresAt(probabilities: Float32Array, i: number): SafetyScores {
  if (probabilities.length < (i + 1) * 3) throw new Error(`the image safety model gave ${probabilities.length} values, fewer than ${(i + 1) * 3}`);
  const [nsfl, nsfw, sfw] = probabilities.subarray(i * 3, i * 3 + 3);
  for (const v of [nsfl, nsfw, sfw]) {
    if (!Number.isFinite(v) || v < -1e-6 || v > 1 + 1e-6) throw new Error(`the image safety model gave ${v}, not a probability`);
  }
  if (Math.abs(nsfl + nsfw + sfw - 1) > 1e-3) throw new Error(`the image safety model's probabilities sum to ${nsfl + nsfw + sfw}, not 1`);
  return { nsfl, nsfw, sfw };
}
