/**
 * ffmpeg argument lists, built as data before anything runs (as Immich's media service
 * does). Every list reads one local file and writes to pipes only:
 *  - `-nostdin -hide_banner -loglevel error`: no prompt, stderr holds errors only;
 *  - `-protocol_whitelist file,pipe`, and the input given as `file:<absolute path>`: a
 *    name is never read as a URL or an option, and nothing the file points to can reach
 *    the network;
 *  - `-format_whitelist` / `-codec_whitelist`: only the accepted demuxers and decoders;
 *  - `-max_pixels`: the decoder refuses a frame past the limit, even one whose size
 *    changes mid-stream after a small first frame passed the probe;
 *  - `-map 0:V:0 -an -sn -dn`: the first real video stream (not cover art); nothing else is decoded.
 */
import * as path from 'node:path';
import { DECODER_WHITELIST, DEMUXER_WHITELIST } from './video-formats';

/** Least change between two frames counted as a cut (select's `scene`, 0..1). Measured with
 * ffmpeg 5.1: red to blue or red to white 0.4-1, testsrc2's moving pattern below it. The score
 * weighs brightness: a cut between shots of equal brightness and layout can score low (red
 * to HTML green, the same luma: under 0.01), which is why interval mode is the default. */
export const DEFAULT_SCENE_THRESHOLD = 0.3;

/** Decoded before each seek target in an MPEG-TS (see InputOptions.preroll): twice x264's
 * longest default GOP (250 frames, 10 s at 25 fps), and still far less than a whole pass. */
export const TS_PREROLL_SECONDS = 20;

export interface InputOptions {
  /** Input seek (-ss before -i): starts at the keyframe before, frames before `seek` are dropped. */
  seek?: number;
  /**
   * Seconds decoded before `seek` (input seek to seek - preroll, then -ss after -i drops the
   * frames before `seek`); Infinity decodes from the start. Slower, but right where an input
   * seek alone is not: MPEG-TS has no index, and ffmpeg's input seek there can land past the
   * keyframe before `seek`, giving a frame up to a GOP late, or none when no keyframe follows.
   */
  preroll?: number;
  maxPixels: number;
  /** Decode only reference frames (-skip_frame noref): about half the work on H.264 with B-frames. */
  referenceFramesOnly?: boolean;
}

/** The input as ffmpeg must see it: the file protocol, an absolute path. */
export function inputUrl(file: string): string {
  return `file:${path.resolve(file)}`;
}

/** Seconds for -ss: fixed-point (never "1e-7"), microsecond precision. */
export function seconds(t: number): string {
  return String(Number(Math.max(0, t).toFixed(6)));
}

/** Where the input seek goes and what is left to drop after it, for `seek` and `preroll`. */
export function seekSplit(seek: number, preroll?: number): { input: number; output: number } {
  if (!(seek > 0)) return { input: 0, output: 0 };
  const input = preroll === undefined ? seek : Math.max(0, seek - preroll);
  return { input, output: seek - input };
}

export function inputArgs(file: string, o: InputOptions): string[] {
  const split = seekSplit(o.seek ?? 0, o.preroll);
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'file,pipe',
    '-format_whitelist',
    DEMUXER_WHITELIST,
    '-codec_whitelist',
    DECODER_WHITELIST,
    '-max_pixels',
    String(Math.floor(o.maxPixels)),
    ...(o.referenceFramesOnly ? ['-skip_frame', 'noref'] : []),
    ...(split.input > 0 ? ['-ss', seconds(split.input)] : []),
    '-i',
    inputUrl(file),
    '-map',
    '0:V:0',
    '-an',
    '-sn',
    '-dn',
    // After -i: frames are decoded and dropped up to this point (times count from the input seek).
    ...(split.output > 0 ? ['-ss', seconds(split.output)] : []),
  ];
}

/** Raw RGB frames on stdout, `frames` at most. */
function rgbOutput(frames: number): string[] {
  // -vsync passthrough: one output frame per filtered frame (rawvideo would otherwise be
  // padded to a constant rate). Spelled -vsync, not 5.1's -fps_mode, so ffmpeg 4.x runs it too.
  return ['-frames:v', String(frames), '-vsync', 'passthrough', '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'];
}

/** Frames out of ffmpeg: a side (a square, the picture stretched to it: fit fill, like the
 * image path), or a width and height (the caller keeps the aspect). */
export type FrameSize = number | { width: number; height: number };

/** The frame's width and height. */
export function frameDims(size: FrameSize): { width: number; height: number } {
  return typeof size === 'number' ? { width: size, height: size } : size;
}

/** Scaled to the frame size; area averaging when shrinking, as a 720p frame to 224² is. */
const scaleTo = (size: FrameSize) => {
  const { width, height } = frameDims(size);
  return `scale=${width}:${height}:flags=area`;
};

/** A frame rate of 1/interval as an exact ratio ffmpeg 4 and 5 both parse. */
export function rateOf(interval: number): string {
  return `1000000/${Math.max(1, Math.round(interval * 1_000_000))}`;
}

export interface SampleArgs extends Omit<InputOptions, 'preroll'> {
  interval: number;
  frames: number;
  size: FrameSize;
}

/**
 * One run decoding through the file, keeping the frame shown at 0, interval, 2·interval...
 * from the start (or from `seek`). fps round=up gives slot k the last frame whose time is
 * at or before k·interval (the default, near, would give one up to half an interval late);
 * start_time=0 pads the first slot when the first frame comes a little after the start.
 */
export function sampleArgs(file: string, o: SampleArgs): string[] {
  return [
    ...inputArgs(file, { ...o, referenceFramesOnly: o.referenceFramesOnly ?? true }),
    '-vf',
    `fps=fps=${rateOf(o.interval)}:start_time=0:round=up,${scaleTo(o.size)}`,
    ...rgbOutput(o.frames),
  ];
}

/** One frame at `seek` (the first at or after it) for the seek method. */
export function frameAtArgs(file: string, o: InputOptions & { size: FrameSize }): string[] {
  return [...inputArgs(file, o), '-vf', scaleTo(o.size), ...rgbOutput(1)];
}

export interface SceneArgs extends Omit<InputOptions, 'preroll'> {
  threshold: number;
  /** Least seconds between two selected frames. */
  minGap: number;
  frames: number;
  size: FrameSize;
  /** Resuming: only frames after this many seconds from the input seek point, and no first frame. */
  after?: number;
}

/**
 * The select expression: the first frame, then cuts at least minGap after the last frame
 * kept. Resuming (`after` set): cuts later than `after`, the gap counted from `after` (the
 * last frame scored); the frames decoded before it only prime the scene score.
 */
export function sceneSelectExpr(o: Pick<SceneArgs, 'threshold' | 'minGap' | 'after'>): string {
  const threshold = Number(o.threshold.toFixed(4));
  const gap = Number(Math.max(0, o.minGap).toFixed(6));
  if (o.after === undefined) return `eq(n,0)+gt(scene,${threshold})*gte(t-if(isnan(prev_selected_t),0,prev_selected_t),${gap})`;
  const after = seconds(o.after);
  return `gt(t,${after})*gt(scene,${threshold})*gte(t-if(isnan(prev_selected_t),${after},prev_selected_t),${gap})`;
}

/**
 * One run keeping the first frame and the scene cuts. Each kept frame's time is printed by
 * the metadata filter on fd 3 ("frame:N pts:P pts_time:T" then lavfi.scene_score=S),
 * written before the frame reaches stdout; direct=1 flushes every line.
 */
export function scenesArgs(file: string, o: SceneArgs): string[] {
  return [
    ...inputArgs(file, { ...o, referenceFramesOnly: o.referenceFramesOnly ?? true }),
    // Quotes protect the commas of the expression from the graph parser; `\\:` reaches the
    // metadata filter as `\:`, an escaped colon in its option value.
    '-vf',
    `select='${sceneSelectExpr(o)}',metadata=mode=print:file=pipe\\\\:3:direct=1,${scaleTo(o.size)}`,
    ...rgbOutput(o.frames),
  ];
}

/**
 * One frame at `seek`, longest side at most maxSide (never enlarged), as a binary PPM
 * (a tiny header with the size, then RGB): the size is read back and sharp writes the JPEG.
 */
export function evidenceArgs(file: string, o: InputOptions & { maxSide: number }): string[] {
  const side = Math.max(1, Math.floor(o.maxSide));
  return [
    ...inputArgs(file, o),
    '-vf',
    `scale=w='min(iw,${side})':h='min(ih,${side})':force_original_aspect_ratio=decrease`,
    '-frames:v',
    '1',
    '-pix_fmt',
    'rgb24',
    '-c:v',
    'ppm',
    '-f',
    'image2pipe',
    'pipe:1',
  ];
}
