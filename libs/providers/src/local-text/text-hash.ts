/** 32-bit hashing over code points (FNV-1a steps + murmur3 finaliser); identical in trainer and runtime. */
export const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export function hashStep(h: number, cp: number): number {
  return Math.imul(h ^ cp, FNV_PRIME);
}

export function fmix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Writes the code points of `text` into `out` (grown when needed) and returns [out, length]. */
export function toCodePoints(text: string, out: Int32Array): [Int32Array, number] {
  let buf = out;
  if (buf.length < text.length + 2) buf = new Int32Array(text.length + 64);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        buf[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    buf[n++] = c;
  }
  return [buf, n];
}

/** Hash of a whole string, as the lexicon matcher computes it while scanning. */
export function hashString(text: string): number {
  let h = FNV_OFFSET;
  for (const ch of text) h = hashStep(h, ch.codePointAt(0) ?? 0);
  return h;
}
