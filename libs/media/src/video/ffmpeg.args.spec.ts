import { evidenceArgs, frameAtArgs, inputUrl, rateOf, sampleArgs, scenesArgs, sceneSelectExpr, seconds, seekSplit } from './ffmpeg.args';
import { ffprobeArgs, packetTimesArgs } from './ffprobe.args';

const FILE = '/var/blobs/t1/ab/abcdef';
const LIMIT = { maxPixels: 8_294_400 };

/** Every list the video path can build, for the checks that hold for all of them. */
const ALL: [string, string[]][] = [
  ['ffprobe', ffprobeArgs(FILE, LIMIT)],
  ['ffprobe packets', packetTimesArgs(FILE)],
  ['sample', sampleArgs(FILE, { interval: 2, frames: 30, size: 224, ...LIMIT })],
  ['sample resumed', sampleArgs(FILE, { seek: 14, interval: 2, frames: 23, size: 224, ...LIMIT })],
  ['frame at', frameAtArgs(FILE, { seek: 30, size: 224, ...LIMIT })],
  ['frame at, preroll', frameAtArgs(FILE, { seek: 30, preroll: 20, size: 224, ...LIMIT })],
  ['frame at, from the start', frameAtArgs(FILE, { seek: 30, preroll: Infinity, size: 224, ...LIMIT })],
  ['scenes', scenesArgs(FILE, { threshold: 0.3, minGap: 2, frames: 60, size: 224, ...LIMIT })],
  ['scenes resumed', scenesArgs(FILE, { seek: 12.5, threshold: 0.3, minGap: 2, frames: 40, size: 224, after: 0, ...LIMIT })],
  ['evidence', evidenceArgs(FILE, { seek: 3.2, maxSide: 1280, ...LIMIT })],
];

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('ffmpeg and ffprobe argument lists', () => {
  it.each(ALL)('%s: only the file and pipe protocols, the input as file:<absolute path>, never a URL', (name, args) => {
    expect(after(args, '-protocol_whitelist')).toBe('file,pipe');
    expect(args.indexOf('-protocol_whitelist')).toBeLessThan(args.indexOf(`file:${FILE}`));
    expect(args.filter((a) => a.startsWith('file:'))).toEqual([`file:${FILE}`]);
    expect(args.join(' ')).not.toMatch(/https?:|rtmp|tcp:|udp:/i);
    expect(after(args, '-format_whitelist')).toBe('mov,matroska,avi,mpegts');
    if (!name.startsWith('ffprobe packets')) expect(after(args, '-max_pixels')).toBe('8294400');
  });

  it.each(ALL.filter(([name]) => !name.startsWith('ffprobe')))(
    '%s: no stdin, no banner, errors only, the first real video stream, output to a pipe',
    (_name, args) => {
      expect(args.slice(0, 5)).toEqual(['-nostdin', '-hide_banner', '-loglevel', 'error', '-protocol_whitelist']);
      expect(after(args, '-codec_whitelist')).toBe('h264,hevc,vp8,libvpx,vp9,libvpx-vp9,libdav1d,libaom-av1,av1,mpeg4,mpeg2video,mjpeg');
      expect(after(args, '-map')).toBe('0:V:0');
      expect(args).toEqual(expect.arrayContaining(['-an', '-sn', '-dn']));
      expect(args[args.length - 1]).toBe('pipe:1');
      // input options come before -i, output options after
      expect(args.indexOf('-max_pixels')).toBeLessThan(args.indexOf('-i'));
      expect(args.indexOf('-frames:v')).toBeGreaterThan(args.indexOf('-i'));
    },
  );

  it('makes a relative path absolute and never lets a name pass for an option or a URL', () => {
    expect(inputUrl('clip.mp4')).toBe(`file:${process.cwd()}/clip.mp4`);
    expect(inputUrl('-i')).toBe(`file:${process.cwd()}/-i`);
    expect(inputUrl('http://example.com/v.mp4')).toBe(`file:${process.cwd()}/http:/example.com/v.mp4`);
  });

  it('ffprobe: JSON of the format and the streams, the input last', () => {
    expect(ffprobeArgs(FILE)).toEqual([
      '-v',
      'error',
      '-protocol_whitelist',
      'file,pipe',
      '-format_whitelist',
      'mov,matroska,avi,mpegts',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      `file:${FILE}`,
    ]);
  });

  it('sampling: reference frames only, an fps filter rounding up from 0, stretched to the square, raw RGB', () => {
    const args = sampleArgs(FILE, { interval: 2, frames: 30, size: 224, ...LIMIT });
    expect(after(args, '-skip_frame')).toBe('noref');
    expect(args).not.toContain('-ss');
    expect(after(args, '-vf')).toBe('fps=fps=1000000/2000000:start_time=0:round=up,scale=224:224:flags=area');
    expect(args.slice(args.indexOf('-frames:v'))).toEqual(['-frames:v', '30', '-vsync', 'passthrough', '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1']);
  });

  it('a width and height instead of a side: the frames are scaled to them (the caller keeps the aspect)', () => {
    expect(after(sampleArgs(FILE, { interval: 2, frames: 30, size: { width: 1280, height: 720 }, ...LIMIT }), '-vf')).toBe(
      'fps=fps=1000000/2000000:start_time=0:round=up,scale=1280:720:flags=area',
    );
    expect(after(frameAtArgs(FILE, { seek: 30, size: { width: 640, height: 360 }, ...LIMIT }), '-vf')).toBe('scale=640:360:flags=area');
    expect(after(scenesArgs(FILE, { threshold: 0.3, minGap: 2, frames: 60, size: { width: 96, height: 54 }, ...LIMIT }), '-vf')).toMatch(
      /,scale=96:54:flags=area$/,
    );
  });

  it('resuming: an input seek to the first frame wanted', () => {
    const args = sampleArgs(FILE, { seek: 14, interval: 2, frames: 23, size: 224, ...LIMIT });
    expect(after(args, '-ss')).toBe('14');
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
  });

  it('seek method: one frame at the time asked, every frame decoded', () => {
    const args = frameAtArgs(FILE, { seek: 30, size: 64, ...LIMIT });
    expect(after(args, '-ss')).toBe('30');
    expect(args).not.toContain('-skip_frame');
    expect(after(args, '-frames:v')).toBe('1');
    expect(after(args, '-vf')).toBe('scale=64:64:flags=area');
  });

  it('preroll: an input seek that much earlier, then -ss after the input to drop the frames before the target', () => {
    const args = frameAtArgs(FILE, { seek: 30, preroll: 20, size: 64, ...LIMIT });
    expect(args.filter((_, i) => args[i - 1] === '-ss')).toEqual(['10', '20']);
    expect(args.indexOf('-ss')).toBeLessThan(args.indexOf('-i'));
    expect(args.lastIndexOf('-ss')).toBeGreaterThan(args.indexOf('-i'));
    const fromStart = frameAtArgs(FILE, { seek: 30, preroll: Infinity, size: 64, ...LIMIT });
    expect(fromStart.indexOf('-ss')).toBeGreaterThan(fromStart.indexOf('-i'));
    expect(after(fromStart, '-ss')).toBe('30');
    expect(seekSplit(5, 20)).toEqual({ input: 0, output: 5 });
    expect(seekSplit(0, 20)).toEqual({ input: 0, output: 0 });
    expect(seekSplit(7)).toEqual({ input: 7, output: 0 });
  });

  it('ffprobe packets: the packet times of the first video stream as CSV, nothing decoded', () => {
    const args = packetTimesArgs(FILE);
    expect(after(args, '-select_streams')).toBe('V:0');
    expect(after(args, '-show_entries')).toBe('packet=pts_time,duration_time');
    expect(after(args, '-print_format')).toBe('csv=p=0');
  });

  it('scenes: the select expression quoted, frame times printed on fd 3 with the colon escaped for the filter', () => {
    const args = scenesArgs(FILE, { threshold: 0.3, minGap: 2, frames: 60, size: 224, ...LIMIT });
    expect(after(args, '-vf')).toBe(
      "select='eq(n,0)+gt(scene,0.3)*gte(t-if(isnan(prev_selected_t),0,prev_selected_t),2)'," +
        'metadata=mode=print:file=pipe\\\\:3:direct=1,scale=224:224:flags=area',
    );
    expect(after(args, '-frames:v')).toBe('60');
  });

  it('scenes resumed: no first frame, only cuts after the resume point, the gap counted from it', () => {
    expect(sceneSelectExpr({ threshold: 0.25, minGap: 1.5, after: 0 })).toBe('gt(t,0)*gt(scene,0.25)*gte(t-if(isnan(prev_selected_t),0,prev_selected_t),1.5)');
    // MPEG-TS: 20 s decoded before the resume point prime the scene score, none of them kept
    expect(sceneSelectExpr({ threshold: 0.3, minGap: 2, after: 20 })).toBe('gt(t,20)*gt(scene,0.3)*gte(t-if(isnan(prev_selected_t),20,prev_selected_t),2)');
    expect(after(scenesArgs(FILE, { seek: 12.5, threshold: 0.3, minGap: 2, frames: 40, size: 224, after: 0, ...LIMIT }), '-ss')).toBe('12.5');
  });

  it('evidence: one PPM frame, the longest side capped and never enlarged', () => {
    const args = evidenceArgs(FILE, { seek: 3.2, maxSide: 1280, ...LIMIT });
    expect(after(args, '-vf')).toBe("scale=w='min(iw,1280)':h='min(ih,1280)':force_original_aspect_ratio=decrease");
    expect(args.slice(args.indexOf('-frames:v'))).toEqual(['-frames:v', '1', '-pix_fmt', 'rgb24', '-c:v', 'ppm', '-f', 'image2pipe', 'pipe:1']);
  });

  it('writes seconds and rates as plain numbers ffmpeg parses', () => {
    expect(seconds(0.0000001)).toBe('0');
    expect(seconds(1e-3)).toBe('0.001');
    expect(seconds(3.3333333333)).toBe('3.333333');
    expect(seconds(-1)).toBe('0');
    expect(rateOf(10 / 3)).toBe('1000000/3333333');
    expect(rateOf(0)).toBe('1000000/1');
  });
});
