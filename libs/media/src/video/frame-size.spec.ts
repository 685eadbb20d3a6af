import { frameSizeWithin } from './frame-size';

describe('frameSizeWithin', () => {
  it('brings the longest side down to maxSide and keeps the aspect', () => {
    expect(frameSizeWithin(3840, 2160, 1280)).toEqual({ width: 1280, height: 720 });
    expect(frameSizeWithin(1080, 1920, 1280)).toEqual({ width: 720, height: 1280 });
    expect(frameSizeWithin(1000, 333, 500)).toEqual({ width: 500, height: 167 });
  });

  it('never enlarges a small video, and refuses sizes without pixels', () => {
    expect(frameSizeWithin(640, 360, 1280)).toEqual({ width: 640, height: 360 });
    expect(frameSizeWithin(5000, 1, 1280)).toEqual({ width: 1280, height: 1 });
    expect(() => frameSizeWithin(0, 360, 1280)).toThrow(RangeError);
    expect(() => frameSizeWithin(640, 360, 0)).toThrow(RangeError);
  });
});
