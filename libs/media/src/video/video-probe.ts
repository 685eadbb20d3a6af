/**
 * ffprobe on a local file: what it is, or why it is refused. A file whose header gives no
 * duration (WebM recorded by a browser) is measured by a second ffprobe run that demuxes its
 * packets without decoding them, within the same deadline. Failures of the probe are the
 * file's (INVALID_VIDEO, UNSUPPORTED_VIDEO_FORMAT, VIDEO_TOO_LARGE); a probe killed at its
 * deadline or by a signal is VIDEO_PROCESSING_FAILED.
 */
import { findFfmpeg, FfmpegBinaries } from './ffmpeg-binaries';
import { processFailure, runCollect, succeeded } from './ffmpeg-process';
import { firstStderrLine, refusedDemuxer } from './ffmpeg-stderr';
import { ffprobeArgs, packetTimesArgs } from './ffprobe.args';
import { lacksDuration, packetSpan, parseProbe, VideoProbe } from './ffprobe.parser';
import { localVideoFile } from './local-file';
import { invalidVideo, unsupportedVideoFormat, videoProcessingFailed } from './video-errors';
import { ACCEPTED_CONTAINERS_TEXT } from './video-formats';

/** 4K UHD, either way up: the default of every maxPixels of the video path. */
export const DEFAULT_VIDEO_MAX_PIXELS = 3840 * 2160;

/** ffprobe's JSON for a file with a few streams is a few KiB; thousands of streams are not a video. */
const MAX_PROBE_OUTPUT_BYTES = 4 * 1024 * 1024;

export interface ProbeVideoOptions {
  /** Wall-clock limit of the ffprobe run. */
  timeoutMs: number;
  /** Largest width × height (default DEFAULT_VIDEO_MAX_PIXELS): past it VIDEO_TOO_LARGE, nothing decoded. */
  maxPixels?: number;
  /** Default: findFfmpeg(). */
  binaries?: FfmpegBinaries;
}

export async function probeVideo(file: string, o: ProbeVideoOptions): Promise<VideoProbe> {
  checkTimeout(o.timeoutMs);
  const abs = await localVideoFile(file);
  const binaries = o.binaries ?? findFfmpeg();
  const maxPixels = o.maxPixels ?? DEFAULT_VIDEO_MAX_PIXELS;
  const deadline = Date.now() + o.timeoutMs;
  const { stdout, overflow, end } = await runCollect(binaries.ffprobe, ffprobeArgs(abs, { maxPixels }), {
    timeoutMs: o.timeoutMs,
    maxOutputBytes: MAX_PROBE_OUTPUT_BYTES,
  });
  const context = { tool: 'ffprobe' as const, binary: binaries.ffprobe, file: abs, timeoutMs: o.timeoutMs, maxPixels };
  if (overflow) throw invalidVideo(`ffprobe's description of the file passed ${MAX_PROBE_OUTPUT_BYTES} bytes (thousands of streams?)`);
  if (end.spawnError || end.timedOut || end.signal) throw processFailure(end, context);
  if (!succeeded(end)) {
    const demuxer = refusedDemuxer(end.stderr);
    if (demuxer) throw unsupportedVideoFormat(`the file is ${describeDemuxer(demuxer)}, not a video in an accepted container (${ACCEPTED_CONTAINERS_TEXT})`);
    const failure = processFailure(end, context);
    if (failure.code === 'VIDEO_TOO_LARGE') throw failure;
    throw invalidVideo(firstStderrLine(end.stderr, abs) || `ffprobe exited with code ${end.code}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(stdout.toString('utf8'));
  } catch {
    throw videoProcessingFailed('ffprobe wrote something that is not JSON');
  }
  if (!lacksDuration(json)) return parseProbe(json, { maxPixels });
  // No duration in the header: demux the packets (no decoding) to measure it.
  const scan = await runCollect(binaries.ffprobe, packetTimesArgs(abs), {
    timeoutMs: Math.max(1, deadline - Date.now()),
    maxOutputBytes: MAX_PROBE_OUTPUT_BYTES * 4,
  });
  if (scan.end.spawnError || scan.end.timedOut || scan.end.signal) throw processFailure(scan.end, context);
  const measured = succeeded(scan.end) && !scan.overflow ? packetSpan(scan.stdout.toString('utf8')) : undefined;
  return parseProbe(json, { maxPixels, measuredDurationSeconds: measured });
}

export function checkTimeout(timeoutMs: number): void {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError(`timeoutMs must be > 0, got ${timeoutMs}`);
}

/** "png_pipe" → "a PNG image (png_pipe)". */
function describeDemuxer(name: string): string {
  const image = /^(\w+)_pipe$/.exec(name);
  if (image) return `a ${image[1].toUpperCase()} image (${name})`;
  if (name === 'image2') return 'an image (image2)';
  return name === 'unknown' ? 'in a format ffmpeg recognises but does not accept here' : `in the ${name} format`;
}
