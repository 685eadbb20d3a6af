/**
 * A JPEG of the frame shown at `timestamp`, at full resolution (longest side at most
 * maxSide, never enlarged), kept as evidence for a flagged frame. ffmpeg seeks and writes
 * one PPM frame (same input safety as every run); sharp writes the JPEG, so `quality`
 * means what it means on the image path.
 */
import sharp from 'sharp';
import { findFfmpeg, FfmpegBinaries } from './ffmpeg-binaries';
import { evidenceArgs } from './ffmpeg.args';
import { parsePpm } from './ffmpeg-output.parser';
import { processFailure, runCollect, succeeded } from './ffmpeg-process';
import { damagedInputLine, pixelLimitHit } from './ffmpeg-stderr';
import { tooLargeDetails } from './ffprobe.parser';
import { localVideoFile } from './local-file';
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
  const args = evidenceArgs(abs, { seek: timestamp, maxSide: o.maxSide, maxPixels });
  const { stdout, overflow, end } = await runCollect(binaries.ffmpeg, args, {
    timeoutMs: o.timeoutMs,
    // One frame within maxSide² pixels, and a PPM header.
    maxOutputBytes: o.maxSide * o.maxSide * 3 + 64,
  });
  if (!succeeded(end)) throw processFailure(end, { tool: 'ffmpeg', binary: binaries.ffmpeg, file: abs, timeoutMs: o.timeoutMs, maxPixels });
  const refused = pixelLimitHit(end.stderr);
  if (refused) throw videoTooLarge(tooLargeDetails(refused.width, refused.height, maxPixels));
  if (overflow) throw videoProcessingFailed(`ffmpeg wrote more than one frame of at most ${o.maxSide}×${o.maxSide}`);
  if (stdout.length === 0) {
    const damage = damagedInputLine(end.stderr, abs);
    if (damage) throw invalidVideo(`the video is truncated or damaged: ${damage}`);
    throw videoProcessingFailed(`no frame at ${timestamp} s (the video ends before)`);
  }
  const frame = parsePpm(stdout);
  if (!frame) throw videoProcessingFailed('ffmpeg wrote something that is not a PPM frame');
  return sharp(frame.rgb, { raw: { width: frame.width, height: frame.height, channels: 3 } }).jpeg({ quality }).toBuffer();
}
