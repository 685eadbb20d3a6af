/**
 * Reading ffmpeg's stderr (-loglevel error) for error details. Pure. Details reach API
 * clients, so the server's path to the file and heap addresses are taken out.
 */

/** Lines that carry no message of their own. */
const NOISE = /^\s*(Last message repeated \d+ times?|Conversion failed!?)\s*$/i;

export function cleanStderrLine(line: string, file?: string): string {
  let out = line;
  if (file) out = out.split(`file:${file}`).join('input').split(file).join('input');
  return out
    .replace(/ @ 0x[0-9a-f]+\]/gi, ']')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** The first line worth showing, cleaned; '' when stderr says nothing. */
export function firstStderrLine(stderr: string, file?: string): string {
  for (const line of stderr.split(/\r?\n/)) {
    if (!line.trim() || NOISE.test(line)) continue;
    return cleanStderrLine(line, file);
  }
  return '';
}

/** The frame size a decoder refused under -max_pixels ("Picture size 8000x8000 exceeds specified max pixel count"). */
export function pixelLimitHit(stderr: string): { width: number; height: number } | null {
  const m = /Picture size (\d+)x(\d+) exceeds specified max pixel count/.exec(stderr);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
}

/** The demuxer ffmpeg recognised but -format_whitelist refused ("[png_pipe @ 0x..] Format not on whitelist"). */
export function refusedDemuxer(stderr: string): string | null {
  const m = /^\[([^\s\]]+) @ 0x[0-9a-f]+\] Format not on whitelist/im.exec(stderr);
  if (m) return m[1];
  return /Format not on whitelist/i.test(stderr) ? 'unknown' : null;
}

const DAMAGE = /partial file|corrupt input packet|Invalid data found when processing input|moov atom not found|End of file/i;

/**
 * The line saying the file ends before its data does or its packets are damaged (the
 * file's fault, not ffmpeg's), cleaned; null when stderr says no such thing.
 */
export function damagedInputLine(stderr: string, file?: string): string | null {
  const line = stderr.split(/\r?\n/).find((l) => DAMAGE.test(l));
  return line === undefined ? null : cleanStderrLine(line, file);
}
