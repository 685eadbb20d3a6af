import { CHANGE_RULE, changedCells, greyThumbnail, TextReadPlanner } from './frame-change';

const SIZE = 224;

/** A frame of one grey level, with a deterministic ±`noise` texture (compression noise). */
function frame(level: number, noise = 0, seed = 1): Uint8Array {
  const rgb = new Uint8Array(SIZE * SIZE * 3);
  let s = seed;
  for (let i = 0; i < rgb.length; i += 3) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const v = Math.max(0, Math.min(255, level + (noise ? (s % (2 * noise + 1)) - noise : 0)));
    rgb[i] = rgb[i + 1] = rgb[i + 2] = v;
  }
  return rgb;
}

/** `base` with a caption: a white band (rows 180-200, columns x0..x0+width) with dark
 * vertical strokes every 4 px, as letters are. */
function captioned(base: Uint8Array, width = 150, x0 = 20): Uint8Array {
  const rgb = Uint8Array.from(base);
  for (let y = 180; y < 200; y++)
    for (let x = x0; x < x0 + width; x++) {
      const v = x % 4 < 2 ? 20 : 250;
      rgb.fill(v, (y * SIZE + x) * 3, (y * SIZE + x) * 3 + 3);
    }
  return rgb;
}

function brighter(base: Uint8Array, by: number, rows?: [number, number]): Uint8Array {
  const rgb = Uint8Array.from(base);
  const [from, to] = rows ?? [0, SIZE];
  for (let i = from * SIZE * 3; i < to * SIZE * 3; i++) rgb[i] = Math.min(255, rgb[i] + by);
  return rgb;
}

const thumb = (rgb: Uint8Array) => greyThumbnail(rgb, SIZE);

describe('greyThumbnail / changedCells', () => {
  it('averages 8×8 cells into one grey byte each (BT.601 luma)', () => {
    const t = thumb(frame(100));
    expect(t).toHaveLength(28 * 28);
    expect(new Set(t)).toEqual(new Set([100]));
    const red = new Uint8Array(SIZE * SIZE * 3);
    for (let i = 0; i < red.length; i += 3) red[i] = 255;
    expect(thumb(red)[0]).toBe(76);
  });

  it('counts a caption as changed cells, and noise or a small shift of brightness as none', () => {
    const still = frame(120, 3, 1);
    expect(changedCells(thumb(still), thumb(frame(120, 3, 2)), CHANGE_RULE.cellDelta)).toBe(0);
    expect(changedCells(thumb(still), thumb(brighter(still, 8)), CHANGE_RULE.cellDelta)).toBe(0);
    const cells = changedCells(thumb(still), thumb(captioned(still)), CHANGE_RULE.cellDelta);
    expect(cells).toBeGreaterThanOrEqual(CHANGE_RULE.minCells);
    // 150 × 20 px of caption cover about 19 × 3 cells
    expect(cells).toBeGreaterThan(30);
  });

  it('refuses frames and thumbnails of the wrong size', () => {
    expect(() => greyThumbnail(new Uint8Array(10), SIZE)).toThrow(RangeError);
    expect(() => changedCells(new Uint8Array(4), new Uint8Array(5), 12)).toThrow(RangeError);
  });
});

describe('TextReadPlanner', () => {
  it('reads the first frame, a frame whose picture changed since the last read, and not the unchanged ones', () => {
    const still = frame(120, 3);
    const withCaption = captioned(still);
    const planner = new TextReadPlanner(10);
    // a 10 s clip sampled every 2 s, the caption on screen at 4 and 6 s
    const frames = [still, frame(120, 3, 7), withCaption, withCaption, still];
    expect(frames.map((f, i) => planner.next(i, false, thumb(f)))).toEqual(['first', null, 'changed', null, 'changed']);
  });

  it('in footage that changes everywhere, reads every other frame, never two in a row for a change', () => {
    const planner = new TextReadPlanner(0);
    const moving = Array.from({ length: 8 }, (_, i) => thumb(frame(40 + 25 * i)));
    expect(moving.map((t, i) => planner.next(i, false, t))).toEqual(['first', null, 'changed', null, 'changed', null, 'changed', null]);
  });

  it('reads any overlay on screen in two sampled frames in a row, wherever it starts', () => {
    // moving footage (every frame changed) with a caption on frames [k, k + 1]
    for (let k = 1; k < 7; k++) {
      const planner = new TextReadPlanner(0);
      const frames = Array.from({ length: 9 }, (_, i) => {
        const base = frame(40 + 20 * i);
        return i === k || i === k + 1 ? captioned(base) : base;
      });
      const read = frames.map((f, i) => planner.next(i, false, thumb(f)) !== null);
      expect({ k, read: read[k] || read[k + 1] }).toEqual({ k, read: true });
    }
  });

  it('keeps VIDEO_OCR_EVERY as a floor and reads scene cuts; 0 leaves the floor out', () => {
    const still = thumb(frame(90, 2));
    const planner = new TextReadPlanner(3);
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => planner.next(i, i === 4, still))).toEqual(['first', null, null, 'every', 'scene', null, 'every']);
    const noFloor = new TextReadPlanner(0);
    expect([0, 1, 2, 3].map((i) => noFloor.next(i, false, still))).toEqual(['first', null, null, null]);
  });

  it('compares with the last frame read, not the previous one: a slow fade-in adds up', () => {
    const base = frame(60);
    const planner = new TextReadPlanner(0);
    // a band of rows brightening by 8 a frame: no step passes cellDelta, the sum does
    const steps = [0, 8, 16, 24].map((by) => thumb(brighter(base, by, [160, 200])));
    expect(steps.map((t, i) => planner.next(i, false, t))).toEqual(['first', null, 'changed', null]);
  });

  it('a scan resumed after a crash reads its first frame, whatever its index', () => {
    const planner = new TextReadPlanner(10);
    expect(planner.next(7, false, thumb(frame(50)))).toBe('first');
    expect(planner.next(8, false, thumb(frame(50)))).toBeNull();
  });
});
