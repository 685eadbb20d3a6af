/**
 * The frames of a plan, decoded by ffmpeg from a local file and handed over one by one as
 * they come (the caller scores a frame while ffmpeg decodes the next). Every run is bounded
 * by one wall-clock deadline, `timeoutMs` from the first next() to the last frame,
 * including the time the caller takes between frames (ffmpeg waits on the pipe meanwhile).
 * Leaving the loop early (break, throw) kills and reaps whatever ffmpeg is still running.
 */
import { DomainError } from '@cds/errors';
import { findFfmpeg, FfmpegBinaries } from './ffmpeg-binaries';
import { DEFAULT_SCENE_THRESHOLD, frameAtArgs, frameDims, FrameSize, sampleArgs, scenesArgs } from './ffmpeg.args';
import { FrameAssembler, MetadataPrintParser } from './ffmpeg-output.parser';
import { FailureContext, FfmpegProcess, ProcessEnd, processFailure, runCollect, succeeded } from './ffmpeg-process';
import { damagedInputLine, pixelLimitHit } from './ffmpeg-stderr';
import { tooLargeDetails } from './ffprobe.parser';
import { FramePlan } from './frame-plan';
import { isTransportStream, localVideoFile } from './local-file';
import { invalidVideo, videoProcessingFailed, videoTooLarge } from './video-errors';
import { checkTimeout, DEFAULT_VIDEO_MAX_PIXELS } from './video-probe';
import { Readable } from 'node:stream';
import { availableParallelism } from 'node:os';

export interface ExtractedFrame {
  /** Position in the plan (interval mode) or among the frames kept (scenes mode), from 0. */
  index: number;
  /** Seconds from the start of the video. */
  timestamp: number;
  /** width × height × 3 bytes, RGB, rows top to bottom (a square `size`: the picture stretched
   * to it, fit fill, as the image path). */
  rgb: Buffer;
  width: number;
  height: number;
  /** The first frame, or (scenes mode) a scene cut. */
  scene: boolean;
}

export interface ExtractFramesOptions {
  /** The frames' size: the side of a square (the picture stretched to it), or a width and
   * height (see frameSizeWithin to keep the aspect). */
  size: FrameSize;
  /** Wall-clock limit of the whole extraction (see above). */
  timeoutMs: number;
  /** Resume after a crash: frames before this index are skipped, not decoded where possible. */
  fromIndex?: number;
  /** Scenes mode, resuming: the timestamp of frame fromIndex-1 (the last one scored). */
  fromTimestamp?: number;
  /** Scenes mode: least scene score counted as a cut (default DEFAULT_SCENE_THRESHOLD). */
  sceneThreshold?: number;
  /** Frame size the decoder accepts (default DEFAULT_VIDEO_MAX_PIXELS); a larger one is VIDEO_TOO_LARGE. */
  maxPixels?: number;
  /** Seek method: ffmpeg runs at once (default: cores, at most 4). */
  concurrency?: number;
  binaries?: FfmpegBinaries;
}

/** Frames in timestamp order, as they are decoded. Errors are DomainErrors (see README.md). */
export function extractFrames(file: string, plan: FramePlan, o: ExtractFramesOptions): AsyncIterable<ExtractedFrame> {
  return extract(file, plan, o);
}

interface Run {
  file: string;
  plan: FramePlan;
  o: ExtractFramesOptions;
  ffmpeg: string;
  from: number;
  frameBytes: number;
  maxPixels: number;
  deadline: number;
  failure: FailureContext;
  /** Input seeks cannot be trusted (MPEG-TS, see InputOptions.preroll): resumes decode from the start. */
  transportStream: boolean;
}

async function* extract(file: string, plan: FramePlan, o: ExtractFramesOptions): AsyncGenerator<ExtractedFrame> {
  checkOptions(plan, o);
  const abs = await localVideoFile(file);
  const binaries = o.binaries ?? findFfmpeg();
  const maxPixels = o.maxPixels ?? DEFAULT_VIDEO_MAX_PIXELS;
  const run: Run = {
    file: abs,
    plan,
    o,
    ffmpeg: binaries.ffmpeg,
    from: o.fromIndex ?? 0,
    frameBytes: frameDims(o.size).width * frameDims(o.size).height * 3,
    maxPixels,
    deadline: Date.now() + o.timeoutMs,
    failure: { tool: 'ffmpeg', binary: binaries.ffmpeg, file: abs, timeoutMs: o.timeoutMs, maxPixels },
    transportStream: await isTransportStream(abs),
  };
  if (plan.mode === 'scenes') yield* scenes(run);
  // In an MPEG-TS every seek decodes a preroll: one pass through the file costs less.
  else if (plan.method === 'seek' && !run.transportStream) yield* seeking(run);
  else yield* sampling(run);
}

/**
 * Interval mode, sequential: one run through the file. Resuming, it starts with an input
 * seek at the first frame wanted, or, should that find nothing, from the start; in an
 * MPEG-TS always from the start, the frames before fromIndex decoded and dropped.
 */
async function* sampling(r: Run): AsyncGenerator<ExtractedFrame> {
  const stamps = r.plan.timestamps;
  if (r.from >= stamps.length) return;
  const first = r.transportStream ? 0 : r.from;
  let given = 0;
  for await (const frame of sampleFrom(r, first)) {
    given += 1;
    yield frame;
  }
  if (given === 0 && first > 0) yield* sampleFrom(r, 0);
}

/** Frames `from`.. of one run whose fps slots start at plan frame `first` (an input seek to its time). */
async function* sampleFrom(r: Run, first: number): AsyncGenerator<ExtractedFrame> {
  const stamps = r.plan.timestamps;
  const count = stamps.length - first;
  const args = sampleArgs(r.file, { seek: stamps[first], interval: r.plan.interval, frames: count, size: r.o.size, maxPixels: r.maxPixels });
  for await (const { rgb, k } of stream(r, args, count)) {
    const index = first + k;
    if (index >= r.from) yield { index, timestamp: stamps[index], rgb, ...frameDims(r.o.size), scene: index === 0 };
  }
}

/**
 * Scenes mode: the first frame and the cuts, with their times printed by ffmpeg on fd 3.
 * Resuming, an input seek to fromTimestamp (in an MPEG-TS, from the start: a seek there
 * could land after the next keyframe, and "no frame" would read as "no more cuts"); only
 * cuts after fromTimestamp are kept.
 */
async function* scenes(r: Run): AsyncGenerator<ExtractedFrame> {
  const remaining = r.plan.maxFrames - r.from;
  if (remaining <= 0) return;
  const resumeAt = r.from > 0 ? r.o.fromTimestamp! : undefined;
  const base = resumeAt === undefined || r.transportStream ? 0 : resumeAt;
  const args = scenesArgs(r.file, {
    seek: base,
    threshold: r.o.sceneThreshold ?? DEFAULT_SCENE_THRESHOLD,
    minGap: r.plan.interval,
    frames: remaining,
    size: r.o.size,
    maxPixels: r.maxPixels,
    after: resumeAt === undefined ? undefined : resumeAt - base,
  });
  for await (const { rgb, k, pts } of stream(r, args, undefined, true)) {
    if (pts === undefined || !Number.isFinite(pts)) throw videoProcessingFailed(`ffmpeg gave scene frame ${r.from + k} without a timestamp`);
    yield { index: r.from + k, timestamp: Math.round((base + pts) * 1e6) / 1e6, rgb, ...frameDims(r.o.size), scene: true };
  }
}

/**
 * One ffmpeg run writing raw frames on stdout (and frame times on fd 3 when `withTimes`).
 * Ends by checking how ffmpeg ended; `expected` frames, when known, tell a truncated file
 * from one that simply ended.
 */
async function* stream(r: Run, args: string[], expected: number | undefined, withTimes = false): AsyncGenerator<{ rgb: Buffer; k: number; pts?: number }> {
  const timeLeft = r.deadline - Date.now();
  if (timeLeft <= 0) throw processFailure(timedOutEnd(), r.failure);
  const proc = FfmpegProcess.start(r.ffmpeg, args, { timeoutMs: timeLeft, sideChannel: withTimes });
  const times = withTimes ? new FrameTimes(proc.side!) : null;
  const frames = new FrameAssembler(r.frameBytes);
  const chunks = (proc.stdout as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let k = 0;
  try {
    for (;;) {
      let step: IteratorResult<Buffer>;
      try {
        step = await chunks.next();
      } catch {
        break; // a read error on the pipe: how ffmpeg ended says why
      }
      if (step.done) break;
      for (const rgb of frames.push(step.value)) {
        const pts = times ? await times.at(k) : undefined;
        yield { rgb, k, pts };
        k += 1;
      }
    }
    const end = await proc.finished;
    const failure = endFailure(end, r, { produced: k, expected, leftover: frames.pendingBytes });
    if (failure) throw failure;
  } finally {
    await proc.stop();
  }
}

/** Interval mode, seek method: one run per frame, `concurrency` at once, handed over in order. */
async function* seeking(r: Run): AsyncGenerator<ExtractedFrame> {
  const stamps = r.plan.timestamps;
  const concurrency = Math.max(1, Math.floor(r.o.concurrency ?? Math.min(4, availableParallelism())));
  const abort = new AbortController();
  const pending: { index: number; job: Promise<SeekResult> }[] = [];
  let next = r.from;
  const launch = () => {
    while (pending.length < concurrency && next < stamps.length) {
      pending.push({ index: next, job: seekFrame(r, stamps[next], abort.signal) });
      next += 1;
    }
  };
  try {
    launch();
    while (pending.length > 0) {
      const { index, job } = pending.shift()!;
      const result = await job;
      if (result.failure) throw result.failure;
      launch(); // the next run decodes while the caller scores this frame
      if (result.rgb) yield { index, timestamp: stamps[index], rgb: result.rgb, ...frameDims(r.o.size), scene: index === 0 };
    }
  } finally {
    abort.abort();
    await Promise.all(pending.map((p) => p.job));
  }
}

interface SeekResult {
  rgb: Buffer | null;
  failure: DomainError | null;
}

/** Never rejects: a failure is returned, so runs still in flight when one fails are reaped, not left unhandled. */
async function seekFrame(r: Run, t: number, signal: AbortSignal): Promise<SeekResult> {
  try {
    const timeLeft = r.deadline - Date.now();
    if (timeLeft <= 0) return { rgb: null, failure: processFailure(timedOutEnd(), r.failure) };
    for (const preroll of [undefined, Infinity]) {
      const args = frameAtArgs(r.file, { seek: t, preroll, size: r.o.size, maxPixels: r.maxPixels });
      const { stdout, overflow, end } = await runCollect(r.ffmpeg, args, {
        timeoutMs: Math.max(1, r.deadline - Date.now()),
        maxOutputBytes: r.frameBytes,
        signal,
      });
      if (signal.aborted) return { rgb: null, failure: null };
      if (overflow) return { rgb: null, failure: videoProcessingFailed(`ffmpeg wrote more than one frame at ${t} s`) };
      const failure = endFailure(end, r, { produced: stdout.length > 0 ? 1 : 0, expected: 1, leftover: stdout.length % r.frameBytes });
      if (failure) return { rgb: null, failure };
      if (stdout.length === r.frameBytes) return { rgb: stdout, failure: null };
      // Nothing at t without an error: the input seek went wrong (see InputOptions.preroll)
      // and decoding from the start finds it, or the video stream ends before the container does.
    }
    return { rgb: null, failure: null };
  } catch (err) {
    return { rgb: null, failure: err instanceof DomainError ? err : videoProcessingFailed(`ffmpeg at ${t} s: ${(err as Error).message}`) };
  }
}

/**
 * How a run that ended is judged. A non-zero exit, a signal, the deadline: VIDEO_PROCESSING_FAILED
 * (or FFMPEG_UNAVAILABLE, VIDEO_TOO_LARGE). A clean exit that came short of the frames expected
 * (any count in scenes mode) while ffmpeg reported damaged input: the file is truncated or
 * corrupt, INVALID_VIDEO, after the frames that did decode were handed over.
 */
function endFailure(end: ProcessEnd, r: Run, got: { produced: number; expected: number | undefined; leftover: number }): DomainError | null {
  if (!succeeded(end)) return processFailure(end, r.failure);
  const refused = pixelLimitHit(end.stderr);
  if (refused) return videoTooLarge(tooLargeDetails(refused.width, refused.height, r.maxPixels));
  const short = got.expected === undefined || got.produced < got.expected;
  const damage = short ? damagedInputLine(end.stderr, r.file) : null;
  if (damage) return invalidVideo(`the video is truncated or damaged: ${damage}`);
  if (got.leftover > 0) return videoProcessingFailed(`ffmpeg's output ended inside a frame (${got.leftover} bytes of ${r.frameBytes})`);
  return null;
}

const timedOutEnd = (): ProcessEnd => ({ code: null, signal: 'SIGKILL', timedOut: true, spawnError: null, stderr: '' });

/** Frame times from fd 3, waited for by frame number (they are written before the frame). */
class FrameTimes {
  private readonly times: number[] = [];
  private readonly parser = new MetadataPrintParser();
  private ended = false;
  private wake: (() => void)[] = [];

  constructor(side: Readable) {
    side.setEncoding('utf8');
    side.on('data', (text: string) => this.add(this.parser.push(text)));
    const finish = () => {
      if (this.ended) return;
      this.add(this.parser.end());
      this.ended = true;
      this.notify();
    };
    side.once('end', finish);
    side.once('close', finish);
  }

  /** The time of frame k, or undefined when fd 3 ended without it. */
  async at(k: number): Promise<number | undefined> {
    while (this.times.length <= k && !this.ended) await new Promise<void>((resolve) => this.wake.push(resolve));
    return this.times[k];
  }

  private add(times: number[]): void {
    if (times.length === 0) return;
    this.times.push(...times);
    this.notify();
  }

  private notify(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }
}

function checkOptions(plan: FramePlan, o: ExtractFramesOptions): void {
  checkTimeout(o.timeoutMs);
  const { width, height } = frameDims(o.size);
  const side = (n: number) => Number.isInteger(n) && n >= 1 && n <= 4096;
  if (!side(width) || !side(height)) throw new RangeError(`size must be an integer in 1..4096 (or a width and height in it), got ${JSON.stringify(o.size)}`);
  const from = o.fromIndex ?? 0;
  if (!(Number.isInteger(from) && from >= 0)) throw new RangeError(`fromIndex must be an integer >= 0, got ${o.fromIndex}`);
  if (plan.mode === 'scenes' && from > 0 && !(Number.isFinite(o.fromTimestamp) && o.fromTimestamp! >= 0)) {
    throw new RangeError('resuming scenes mode (fromIndex > 0) needs fromTimestamp, the time of the last frame scored');
  }
  const threshold = o.sceneThreshold ?? DEFAULT_SCENE_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`sceneThreshold must be in (0, 1], got ${o.sceneThreshold}`);
}
