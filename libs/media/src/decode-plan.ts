/**
 * Decisions about what to decode, made from the header alone: which frames, how much
 * work reaching them costs, how large the OCR picture is. Plain arithmetic, so the
 * limits are tested without an image.
 */

/** Indices of at most `max` frames spread evenly over `count` frames, first and last included. */
export function spreadFrames(count: number, max: number): number[] {
  const total = Math.max(1, Math.floor(count));
  if (total <= max) return Array.from({ length: total }, (_, i) => i);
  if (max <= 1) return [0];
  // The step is above 1, so rounded positions never collide.
  return Array.from({ length: max }, (_, i) => Math.round((i * (total - 1)) / (max - 1)));
}

/**
 * Pixels decoded to produce `indices` one page at a time, when each page can only be
 * reached by decoding every page before it (GIF and WebP animations composite each
 * frame onto the previous ones).
 */
export function sequentialDecodeWork(indices: number[], framePixels: number): number {
  return indices.reduce((sum, index) => sum + (index + 1) * framePixels, 0);
}

/**
 * Longest side of the OCR picture. Large images shrink to `maxSide`; small ones are
 * enlarged up to 2× (never past `maxSide`): Tesseract reads best when letters are
 * 20-30 px tall, and text in a 400 px meme is smaller than that.
 */
export function ocrLongestSide(width: number, height: number, maxSide: number): number {
  const longest = Math.max(width, height, 1);
  return Math.max(1, Math.round(Math.min(maxSide, longest * 2)));
}
