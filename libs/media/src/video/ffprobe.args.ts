/** ffprobe's argument list: the same input safety as ffmpeg.args.ts, JSON on stdout. */
import { inputUrl } from './ffmpeg.args';
import { DEMUXER_WHITELIST } from './video-formats';

export interface ProbeArgsOptions {
  /** Passed as -max_pixels: ffprobe decodes a frame or two to describe the streams, and
   * refuses one past the limit instead of allocating it. */
  maxPixels?: number;
}

export function ffprobeArgs(file: string, o: ProbeArgsOptions = {}): string[] {
  return [
    '-v', 'error',
    '-protocol_whitelist', 'file,pipe',
    // Other demuxers are refused by name ("[png_pipe @ ...] Format not on whitelist"):
    // playlists (HLS, DASH, concat) would otherwise open further files while probing.
    '-format_whitelist', DEMUXER_WHITELIST,
    ...(o.maxPixels ? ['-max_pixels', String(Math.floor(o.maxPixels))] : []),
    '-print_format', 'json',
    '-show_format', '-show_streams',
    inputUrl(file),
  ];
}
