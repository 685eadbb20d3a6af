/** How a text is cut before it is embedded. One embedding of a long text is the mean over
 * all of its tokens, which dilutes one threat in a page of harmless prose; so a long text
 * is cut into chunks, each embedded and scored on its own, and a signal's score is the
 * max over chunks. Tweet-sized texts are one chunk. */
export interface ChunkLimits {
  /** characters per chunk: ~500 model tokens of Latin-script text, one model window */
  chunkChars: number;
  /** chunks read per text: text past chunkChars × maxChunks is not embedded */
  maxChunks: number;
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { chunkChars: 2000, maxChunks: 4 };

/** Where a cut may fall, best first: a paragraph, a sentence end, any whitespace. */
const BREAKS = [/\n\s*\n/g, /[.!?。！？]\s/g, /\s/g];

/**
 * Cuts `text` (trimmed) into at most `maxChunks` chunks of at most `chunkChars` characters,
 * each ending at the last paragraph / sentence / word break in its second half when there
 * is one (else cut hard: CJK text has no spaces). An empty text is one empty chunk.
 */
export function chunkText(text: string, limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): string[] {
  const t = text.trim();
  if (t.length <= limits.chunkChars) return [t];
  const chunks: string[] = [];
  let pos = 0;
  while (pos < t.length && chunks.length < limits.maxChunks) {
    let end = Math.min(t.length, pos + limits.chunkChars);
    if (end < t.length) end = breakBefore(t, pos + Math.floor(limits.chunkChars / 2), end);
    // never split a surrogate pair
    if (end < t.length && isHighSurrogate(t.charCodeAt(end - 1))) end--;
    const chunk = t.slice(pos, end).trim();
    if (chunk) chunks.push(chunk);
    pos = end;
  }
  return chunks.length > 0 ? chunks : [''];
}

function breakBefore(t: string, from: number, to: number): number {
  const window = t.slice(from, to);
  for (const re of BREAKS) {
    let last = -1;
    re.lastIndex = 0;
    for (let m = re.exec(window); m; m = re.exec(window)) last = m.index + m[0].length;
    if (last > 0) return from + last;
  }
  return to;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
