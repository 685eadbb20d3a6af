import { pngDimensions } from './png-header';

const png = (width: number, height: number) => {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
};

describe('pngDimensions', () => {
  it('reads width and height from the IHDR chunk', () => {
    expect(pngDimensions(png(600, 200))).toEqual({ width: 600, height: 200 });
    expect(pngDimensions(png(100_000, 100_000))).toEqual({ width: 100_000, height: 100_000 });
  });

  it('is null for anything that is not a PNG', () => {
    expect(pngDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...new Array(30).fill(0)]))).toBeNull();
    expect(pngDimensions(png(1, 1).subarray(0, 20))).toBeNull();
    const noIhdr = png(1, 1);
    noIhdr.write('IDAT', 12, 'ascii');
    expect(pngDimensions(noIhdr)).toBeNull();
  });
});
