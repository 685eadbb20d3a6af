import { damagedInputLine, firstStderrLine, pixelLimitHit, refusedDemuxer } from './ffmpeg-stderr';

const FILE = '/var/blobs/t1/ab/abcdef';

describe('reading ffmpeg stderr', () => {
  it('gives the first line, without heap addresses or the server path', () => {
    const stderr = `\n[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5562cac1e780] moov atom not found\nfile:${FILE}: Invalid data found when processing input\n`;
    expect(firstStderrLine(stderr, FILE)).toBe('[mov,mp4,m4a,3gp,3g2,mj2] moov atom not found');
    expect(firstStderrLine(`file:${FILE}: Invalid data found when processing input`, FILE)).toBe('input: Invalid data found when processing input');
    expect(firstStderrLine('    Last message repeated 3 times\nreal one', FILE)).toBe('real one');
    expect(firstStderrLine('', FILE)).toBe('');
  });

  it('finds the frame size a decoder refused under -max_pixels', () => {
    const stderr = '[h264 @ 0x55] [IMGUTILS @ 0x7ff] Picture size 8000x8000 exceeds specified max pixel count 8294400, see the documentation';
    expect(pixelLimitHit(stderr)).toEqual({ width: 8000, height: 8000 });
    expect(pixelLimitHit('moov atom not found')).toBeNull();
  });

  it('names the demuxer the whitelist refused', () => {
    expect(refusedDemuxer("[png_pipe @ 0x5570456a9280] Format not on whitelist 'mov,matroska,avi,mpegts'")).toBe('png_pipe');
    expect(refusedDemuxer("Format not on whitelist 'mov'")).toBe('unknown');
    expect(refusedDemuxer('moov atom not found')).toBeNull();
  });

  it('recognises a truncated or damaged input, and nothing else', () => {
    const stderr = `[NULL @ 0x56] Invalid NAL unit size (1964 > 407).\n[mov,mp4,m4a,3gp,3g2,mj2 @ 0x56] stream 0, offset 0x18cb5: partial file\n`;
    expect(damagedInputLine(stderr, FILE)).toBe('[mov,mp4,m4a,3gp,3g2,mj2] stream 0, offset 0x18cb5: partial file');
    expect(damagedInputLine(`file:${FILE}: corrupt input packet in stream 0`, FILE)).toBe('input: corrupt input packet in stream 0');
    expect(damagedInputLine('[h264 @ 0x1] error while decoding MB 3 4', FILE)).toBeNull();
  });
});
