import { fitInside, overlayCentred, roundHalfEven } from './padded-frame';

describe('roundHalfEven', () => {
  it('rounds as Python does: halves to the even neighbour, the rest to the nearest', () => {
    expect([84.5, 85.5, 0.5, 1.5, 2.5, 84.49, 84.51, 3].map(roundHalfEven)).toEqual([84, 86, 0, 2, 2, 84, 85, 3]);
  });
});

describe('fitInside', () => {
  it('fits the longer side to the square and keeps the aspect', () => {
    expect(fitInside(1280, 720, 224)).toEqual({ width: 224, height: 126 });
    expect(fitInside(451, 300, 224)).toEqual({ width: 224, height: 149 });
    expect(fitInside(300, 900, 224)).toEqual({ width: 75, height: 224 });
    expect(fitInside(512, 512, 224)).toEqual({ width: 224, height: 224 });
  });

  it('enlarges small pictures, rounds halves to even and never goes below one pixel', () => {
    expect(fitInside(16, 12, 224)).toEqual({ width: 224, height: 168 });
    // 448 × 169: scale 0.5, 84.5 → 84 (Math.round would say 85)
    expect(fitInside(448, 169, 224)).toEqual({ width: 224, height: 84 });
    expect(fitInside(448, 171, 224)).toEqual({ width: 224, height: 86 });
    expect(fitInside(10_000, 1, 224)).toEqual({ width: 224, height: 1 });
  });

  it('refuses a picture without pixels', () => {
    expect(() => fitInside(0, 10, 224)).toThrow(RangeError);
  });
});

describe('overlayCentred', () => {
  it('lays the foreground at the centre, offsets rounded down, the background elsewhere', () => {
    const size = 4;
    const background = Buffer.alloc(size * size * 3, 9);
    const foreground = Buffer.from([1, 1, 1, 2, 2, 2, 3, 3, 3]); // 3 × 1
    const out = overlayCentred(background, foreground, 3, 1, size);
    const row = (y: number) => Array.from(out.subarray(y * size * 3, (y + 1) * size * 3));
    expect(row(0)).toEqual(Array(12).fill(9));
    // x0 = floor(1 / 2) = 0, y0 = floor(3 / 2) = 1
    expect(row(1)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 9, 9, 9]);
    expect(row(2)).toEqual(Array(12).fill(9));
    expect(background[0]).toBe(9);
  });

  it('refuses buffers of the wrong size', () => {
    expect(() => overlayCentred(Buffer.alloc(10), Buffer.alloc(3), 1, 1, 4)).toThrow(RangeError);
    expect(() => overlayCentred(Buffer.alloc(48), Buffer.alloc(4), 1, 1, 4)).toThrow(RangeError);
  });
});
