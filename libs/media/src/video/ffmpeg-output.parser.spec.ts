import { FrameAssembler, MetadataPrintParser, parsePpm } from './ffmpeg-output.parser';

describe('FrameAssembler', () => {
  it('cuts frames out of chunks of any size, keeping the remainder', () => {
    const frames = new FrameAssembler(4);
    expect(frames.push(Buffer.from([1, 2, 3]))).toEqual([]);
    expect(frames.pendingBytes).toBe(3);
    expect(frames.push(Buffer.from([4, 5, 6, 7, 8, 9, 10]))).toEqual([Buffer.from([1, 2, 3, 4]), Buffer.from([5, 6, 7, 8])]);
    expect(frames.pendingBytes).toBe(2);
    expect(frames.push(Buffer.from([11, 12]))).toEqual([Buffer.from([9, 10, 11, 12])]);
    expect(frames.pendingBytes).toBe(0);
  });

  it('gives frames that stay valid after the next chunk arrives', () => {
    const frames = new FrameAssembler(2);
    const [first] = frames.push(Buffer.from([1, 2, 3]));
    frames.push(Buffer.from([4]));
    expect(first).toEqual(Buffer.from([1, 2]));
  });

  it('refuses a frame size that is not a positive integer', () => {
    expect(() => new FrameAssembler(0)).toThrow(RangeError);
  });
});

describe('MetadataPrintParser', () => {
  it('reads pts_time of each frame record, lines cut anywhere', () => {
    const parser = new MetadataPrintParser();
    expect(parser.push('frame:0    pts:0       pts_time:0\nlavfi.scene_score=0.000000\nframe:1    pts:25')).toEqual([0]);
    expect(parser.push('600   pts_time:2\nlavfi.scene_score=0.400000\n')).toEqual([2]);
    expect(parser.push('frame:2    pts:90000   pts_time:3.52')).toEqual([]);
    expect(parser.end()).toEqual([3.52]);
  });

  it('gives NaN for a frame without a timestamp', () => {
    expect(new MetadataPrintParser().push('frame:0    pts:NOPTS   pts_time:NOPTS\n')).toEqual([Number.NaN]);
  });
});

describe('parsePpm', () => {
  it('reads a P6 header and the pixels after it', () => {
    const ppm = Buffer.concat([Buffer.from('P6\n2 1\n255\n'), Buffer.from([255, 0, 0, 0, 0, 255])]);
    expect(parsePpm(ppm)).toEqual({ width: 2, height: 1, rgb: Buffer.from([255, 0, 0, 0, 0, 255]) });
  });

  it('refuses what is not an 8-bit P6 with all its pixels', () => {
    expect(parsePpm(Buffer.from('P5\n2 1\n255\n\0\0'))).toBeNull();
    expect(parsePpm(Buffer.from('P6\n2 1\n65535\n'))).toBeNull();
    expect(parsePpm(Buffer.concat([Buffer.from('P6\n2 1\n255\n'), Buffer.alloc(5)]))).toBeNull();
    expect(parsePpm(Buffer.alloc(0))).toBeNull();
  });
});
