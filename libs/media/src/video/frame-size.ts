/**
 * The size frames are extracted at when the caller keeps the aspect: the picture as
 * displayed, its longest side brought down to `maxSide`, never enlarged. Pure.
 */
export function frameSizeWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  if (!(width > 0 && height > 0)) throw new RangeError(`a video of ${width}×${height} has no pixels`);
  if (!(Number.isInteger(maxSide) && maxSide >= 1)) throw new RangeError(`maxSide must be an integer >= 1, got ${maxSide}`);
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
