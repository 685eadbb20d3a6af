/** ffprobe's argument list: the same input safety as ffmpeg.args.ts, JSON on stdout. */
import { inputUrl } from './ffmpeg.args';
import { DEMUXER_WHITELIST } from './video-formats';

export interface ProbeArgsOptions {
  /** Passed as -max_pixels: ffprobe decodes a frame or two to describe the streams, and
   * refuses one past the limit instead of allocating it. */
  maxPixels?: number;
}

/** Errors only on stderr; one local file, read through the accepted demuxers only. Other
 * demuxers are refused by name ("[png_pipe @ ...] Format not on whitelist"): playlists
 * (HLS, DASH, concat) would otherwise open further files while probing. */
const SAFE_INPUT = ['-v', 'error', '-protocol_whitelist', 'file,pipe', '-format_whitelist', DEMUXER_WHITELIST];

export function ffprobeArgs(file: string, o: ProbeArgsOptions = {}): string[] {
  return [
    ...SAFE_INPUT,
    ...(o.maxPixels ? ['-max_pixels', String(Math.floor(o.maxPixels))] : []),
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    inputUrl(file),
  ];
}

/**
 * Every packet time of the first video stream, demuxed, not decoded: how long a file
 * lasts when its header does not say (WebM from a browser's MediaRecorder, live captures).
 * One CSV line per packet: "pts_time,duration_time".
 */
export function packetTimesArgs(file: string): string[] {
  return [...SAFE_INPUT, '-select_streams', 'V:0', '-show_entries', 'packet=pts_time,duration_time', '-print_format', 'csv=p=0', inputUrl(file)];
}
