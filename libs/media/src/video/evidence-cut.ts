/**
 * A JPEG of the frame shown at `timestamp`, at full resolution (longest side at most
 * maxSide, never enlarged), kept as evidence for a flagged frame. ffmpeg seeks and writes
 * one PPM frame (same input safety as every run); sharp writes the JPEG, so `quality`
 * means what it means on the image path.
 */
import sharp from 'sharp';
import { findFfmpeg, FfmpegBinaries } from './ffmpeg-binaries';
import { evidenceArgs, TS_PREROLL_SECONDS } from './ffmpeg.args';
import { parsePpm } from './ffmpeg-output.parser';
import { processFailure, runCollect, succeeded } from './ffmpeg-process';
import { damagedInputLine, pixelLimitHit } from './ffmpeg-stderr';
import { tooLargeDetails } from './ffprobe.parser';
import { isTransportStream, localVideoFile } from './local-file';
import { invalidVideo, videoProcessingFailed, videoTooLarge } from './video-errors';
import { checkTimeout, DEFAULT_VIDEO_MAX_PIXELS } from './video-probe';

export interface CutEvidenceOptions {
  /** Longest side of the JPEG; smaller frames keep their size. */
  maxSide: number;
  /** Wall-clock limit of the ffmpeg run. */
  timeoutMs: number;
  /** JPEG quality 1-100 (default 85). */
  quality?: number;
  /** Frame size the decoder accepts (default DEFAULT_VIDEO_MAX_PIXELS). */
  maxPixels?: number;
  binaries?: FfmpegBinaries;
}

export const DEFAULT_EVIDENCE_QUALITY = 85;

export async function cutEvidenceFrame(file: string, timestamp: number, o: CutEvidenceOptions): Promise<Buffer> {
  checkTimeout(o.timeoutMs);
  if (!(Number.isFinite(timestamp) && timestamp >= 0)) throw new RangeError(`timestamp must be >= 0 seconds, got ${timestamp}`);
  if (!(Number.isInteger(o.maxSide) && o.maxSide >= 1 && o.maxSide <= 16384)) throw new RangeError(`maxSide must be an integer in 1..16384, got ${o.maxSide}`);
  const quality = o.quality ?? DEFAULT_EVIDENCE_QUALITY;
  if (!(Number.isInteger(quality) && quality >= 1 && quality <= 100)) throw new RangeError(`quality must be an integer in 1..100, got ${o.quality}`);

  const abs = await localVideoFile(file);
  const binaries = o.binaries ?? findFfmpeg();
  const maxPixels = o.maxPixels ?? DEFAULT_VIDEO_MAX_PIXELS;
  const deadline = Date.now() + o.timeoutMs;
  let stdout: Buffer = Buffer.alloc(0);
  // An input seek (with a preroll in an MPEG-TS); when it finds nothing, decoding from the start.
  const preroll = (await isTransportStream(abs)) ? TS_PREROLL_SECONDS : undefined;
  for (const tryPreroll of [preroll, Infinity]) {
    const args = evidenceArgs(abs, { seek: timestamp, preroll: tryPreroll, maxSide: o.maxSide, maxPixels });
    const run = await runCollect(binaries.ffmpeg, args, {
      timeoutMs: Math.max(1, deadline - Date.now()),
      // One frame within maxSide² pixels, and a PPM header.
      maxOutputBytes: o.maxSide * o.maxSide * 3 + 64,
    });
    if (!succeeded(run.end)) throw processFailure(run.end, { tool: 'ffmpeg', binary: binaries.ffmpeg, file: abs, timeoutMs: o.timeoutMs, maxPixels });
    const refused = pixelLimitHit(run.end.stderr);
    if (refused) throw videoTooLarge(tooLargeDetails(refused.width, refused.height, maxPixels));
    if (run.overflow) throw videoProcessingFailed(`ffmpeg wrote more than one frame of at most ${o.maxSide}×${o.maxSide}`);
    const damage = run.stdout.length === 0 ? damagedInputLine(run.end.stderr, abs) : null;
    if (damage) throw invalidVideo(`the video is truncated or damaged: ${damage}`);
    stdout = run.stdout;
    if (stdout.length > 0 || timestamp === 0) break;
  }
  if (stdout.length === 0) throw videoProcessingFailed(`no frame at ${timestamp} s (the video ends before)`);
  const frame = parsePpm(stdout);
  if (!frame) throw videoProcessingFailed('ffmpeg wrote something that is not a PPM frame');
  return sharp(frame.rgb, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}
