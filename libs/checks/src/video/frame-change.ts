/**
 * Which sampled video frames are read by OCR. Tesseract costs several times the image
 * models, so not every frame is read; but a caption or an overlay can appear between two
 * frames read, and stay on screen only a few seconds. A frame is read when
 *  - it is the first, or a scene cut (scenes mode), or every `every`-th (VIDEO_OCR_EVERY:
 *    the floor, whatever the picture does), or
 *  - its picture changed since the last frame read: a cheap difference of grey
 *    thumbnails (the mean brightness of each 8×8 cell of the 224² model frame), counted
 *    in cells that changed by more than CHANGE_RULE.cellDelta; CHANGE_RULE.minCells of
 *    them make a change (a line of text a few cells long; compression noise and a slow
 *    fade stay under it) — unless the frame just before it was read.
 * Compared with the last frame *read*, not the previous one: a caption that fades in over
 * several frames adds up.
 *
 * Why not right after a read: in footage that moves everywhere (a pan, bench:video's
 * testsrc2) every frame has changed, and reading them all doubles a video's cost (OCR is
 * most of it). Skipping the frame after a read halves that, and still reads every overlay
 * on screen in two sampled frames in a row (on screen for two sampling intervals, 4 s at
 * the default 2 s, is always enough): if the first frame showing it is skipped, the one
 * after is read, having changed since the read before. One seen in a single sampled frame
 * is read unless the frame before it was read too. Pure.
 */

/** Side of the square cells averaged into one thumbnail pixel. */
export const THUMBNAIL_CELL = 8;

export interface ChangeRule {
  /** Least change of a cell's mean brightness (0-255) counted. */
  cellDelta: number;
  /** Least changed cells that make the picture changed. */
  minCells: number;
}

/** Measured (2026-11-29) on the e2e caption clip, a 600×70 caption box over a still
 * photo at 640×360: 162 of the 784 cells change (by up to 246) when it appears, and H.264
 * noise moves the still's cells by at most 1. bench:video's testsrc2 clip changes 50-63
 * cells every 2 s (its moving bar and clock): there, every other frame is read. */
export const CHANGE_RULE: ChangeRule = { cellDelta: 12, minCells: 4 };

/** The grey thumbnail of a square RGB frame: one byte per cell, the cell's mean luma (BT.601). */
export function greyThumbnail(rgb: Uint8Array, size: number, cell = THUMBNAIL_CELL): Uint8Array {
  if (rgb.length !== size * size * 3) throw new RangeError(`${rgb.length} bytes are not a ${size}² RGB frame`);
  const cells = Math.ceil(size / cell);
  const sums = new Float64Array(cells * cells);
  const counts = new Uint32Array(cells * cells);
  for (let y = 0; y < size; y++) {
    const row = Math.floor(y / cell) * cells;
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 3;
      const c = row + Math.floor(x / cell);
      sums[c] += 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2];
      counts[c] += 1;
    }
  }
  return Uint8Array.from(sums, (s, c) => Math.round(s / counts[c]));
}

/** Cells whose mean brightness moved by more than `cellDelta` between two thumbnails. */
export function changedCells(a: Uint8Array, b: Uint8Array, cellDelta: number): number {
  if (a.length !== b.length) throw new RangeError(`thumbnails of ${a.length} and ${b.length} cells`);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i] - b[i]) > cellDelta) n += 1;
  return n;
}

export type ReadReason = 'first' | 'scene' | 'every' | 'changed';

/**
 * Decides, frame by frame in time order, which frames OCR reads, remembering the
 * thumbnail of the last one read. A scan resumed after a crash starts with no frame
 * read: its first frame is read (reason 'first').
 */
export class TextReadPlanner {
  private lastRead: Uint8Array | null = null;
  private lastReadIndex = -1;

  constructor(
    private readonly every: number,
    private readonly rule: ChangeRule = CHANGE_RULE,
  ) {}

  /** Why frame `index` is read, or null when it is not. */
  next(index: number, scene: boolean, thumbnail: Uint8Array): ReadReason | null {
    const reason = this.reason(index, scene, thumbnail);
    if (reason) {
      this.lastRead = thumbnail;
      this.lastReadIndex = index;
    }
    return reason;
  }

  private reason(index: number, scene: boolean, thumbnail: Uint8Array): ReadReason | null {
    if (index === 0 || this.lastRead === null) return 'first';
    if (scene) return 'scene';
    if (this.every > 0 && index % this.every === 0) return 'every';
    if (index === this.lastReadIndex + 1) return null;
    if (changedCells(this.lastRead, thumbnail, this.rule.cellDelta) >= this.rule.minCells) return 'changed';
    return null;
  }
}
