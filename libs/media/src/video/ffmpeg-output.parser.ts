/** What ffmpeg writes on its pipes, read back. Pure: fed chunks, tested without ffmpeg. */

/** Cuts a raw stream into frames of `frameBytes`, whatever the chunk boundaries. */
export class FrameAssembler {
  private parts: Buffer[] = [];
  private held = 0;

  constructor(readonly frameBytes: number) {
    if (!(Number.isInteger(frameBytes) && frameBytes > 0)) throw new RangeError(`frameBytes must be a positive integer, got ${frameBytes}`);
  }

  /** Bytes received that do not make a whole frame yet. */
  get pendingBytes(): number {
    return this.held;
  }

  /** The frames completed by this chunk (each its own buffer). */
  push(chunk: Buffer): Buffer[] {
    this.parts.push(chunk);
    this.held += chunk.length;
    if (this.held < this.frameBytes) return [];
    const all = Buffer.concat(this.parts, this.held);
    const frames: Buffer[] = [];
    let at = 0;
    for (; at + this.frameBytes <= all.length; at += this.frameBytes) frames.push(all.subarray(at, at + this.frameBytes));
    const rest = all.subarray(at);
    this.parts = rest.length ? [Buffer.from(rest)] : [];
    this.held = rest.length;
    return frames;
  }
}

/**
 * Frame times from the metadata filter's print mode, one record per frame:
 *   frame:1    pts:25600   pts_time:2
 *   lavfi.scene_score=0.400000
 * Lines may arrive cut anywhere. `pts_time` is NaN for a frame without a timestamp (NOPTS).
 */
export class MetadataPrintParser {
  private partial = '';

  /** The pts_time of each frame record completed by this text. */
  push(text: string): number[] {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    return lines.flatMap((line) => {
      const m = /^frame:\d+\s+pts:\S+\s+pts_time:(\S+)/.exec(line.trim());
      return m ? [Number(m[1])] : [];
    });
  }

  /** The last record when the stream ends without a newline. */
  end(): number[] {
    const rest = this.partial;
    this.partial = '';
    return rest ? this.push(`${rest}\n`) : [];
  }
}

export interface PpmImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, RGB. */
  rgb: Buffer;
}

/** A binary PPM (P6, maxval 255) as written by ffmpeg's ppm encoder; null when it is not one. */
export function parsePpm(bytes: Buffer): PpmImage | null {
  // "P6", whitespace, width, whitespace, height, whitespace, maxval, one whitespace byte, pixels.
  const head = bytes.subarray(0, 64).toString('latin1');
  const m = /^P6\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s+(?:#[^\n]*\n\s*)*(\d+)\s/.exec(head);
  if (!m) return null;
  const [width, height, maxval] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!(width > 0 && height > 0) || maxval !== 255) return null;
  const size = width * height * 3;
  const start = m[0].length;
  if (bytes.length < start + size) return null;
  return { width, height, rgb: bytes.subarray(start, start + size) };
}
