import { FNV_OFFSET, hashStep, hashString } from './text-hash';

/**
 * Word and phrase lists (built by scripts/train-text from LDNOOBW, surge-ai/profanity and
 * the project's own seed phrases) matched over normalised text. Hits become dense
 * features of the model, shared by all languages, so the learned weight of "a profanity
 * hit" carries over to languages that only have word lists (tr, sv, cs).
 */
export interface LexiconFile {
  version: number;
  categories: string[];
  /** language code (or "*" for every language) -> category -> normalised terms */
  entries: Record<string, Record<string, string[]>>;
}

const enum MatchMode {
  Token = 0,
  Prefix = 1,
  Substring = 2,
}

interface Entry {
  cps: Int32Array;
  mode: MatchMode;
  category: number;
  langMask: number;
}

const SPACE = 32;
/** 2^18 bits (32 KiB): the shipped lexicon sets 1.3 % of them, so about that share of the spans without a term
 * still reach the Map. */
const FILTER_BITS = 18;
const PREFIX_MIN = 5;

/** Scripts written without spaces between words (or with long agglutinated words). */
export function isUnspacedScript(cp: number): boolean {
  return (
    (cp >= 0x3040 && cp <= 0x30ff) || // kana
    (cp >= 0x3400 && cp <= 0x9fff) || // CJK ideographs
    (cp >= 0xac00 && cp <= 0xd7af) || // Hangul syllables
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3130 && cp <= 0x318f) || // Hangul jamo
    (cp >= 0x0e00 && cp <= 0x0e7f) || // Thai
    (cp >= 0xff66 && cp <= 0xff9f)
  );
}

export class LexiconIndex {
  readonly categories: string[];
  private readonly byHash = new Map<number, Entry[]>();
  /** One bit per value of a hash's top FILTER_BITS bits, set for the terms' hashes: most
   * spans of a text hash to no term, and this answers that without a Map lookup. */
  private readonly filter = new Uint8Array(1 << (FILTER_BITS - 3));
  private readonly langBit = new Map<string, number>();
  private readonly universalBit: number;
  private readonly lengths: Uint8Array;
  private readonly maxLen: number;

  private constructor(file: LexiconFile) {
    this.categories = file.categories.slice();
    const langs = Object.keys(file.entries).sort();
    if (langs.length > 30) throw new Error('lexicon: too many languages');
    langs.forEach((l, i) => this.langBit.set(l, 1 << i));
    this.universalBit = this.langBit.get('*') ?? 0;
    let maxLen = 0;
    const lengths = new Uint8Array(256);
    for (const lang of langs) {
      const bit = this.langBit.get(lang) ?? 0;
      const cats = file.entries[lang];
      for (const [catName, terms] of Object.entries(cats)) {
        const category = this.categories.indexOf(catName);
        if (category < 0) continue;
        for (const term of terms) {
          const cpsArr: number[] = [];
          for (const ch of term) cpsArr.push(ch.codePointAt(0) ?? 0);
          if (cpsArr.length === 0 || cpsArr.length > 255) continue;
          const unspaced = cpsArr.every((c) => isUnspacedScript(c) || c === SPACE);
          const mode = unspaced && cpsArr.length >= 2 ? MatchMode.Substring : !unspaced && cpsArr.length >= PREFIX_MIN ? MatchMode.Prefix : MatchMode.Token;
          const h = hashString(term);
          const slot = h >>> (32 - FILTER_BITS);
          this.filter[slot >>> 3] |= 1 << (slot & 7);
          const list = this.byHash.get(h) ?? [];
          const existing = list.find((e) => e.category === category && e.cps.length === cpsArr.length && sameCps(e.cps, cpsArr));
          if (existing) existing.langMask |= bit;
          else list.push({ cps: Int32Array.from(cpsArr), mode, category, langMask: bit });
          this.byHash.set(h, list);
          lengths[cpsArr.length] = 1;
          if (cpsArr.length > maxLen) maxLen = cpsArr.length;
        }
      }
    }
    this.lengths = lengths;
    this.maxLen = maxLen;
  }

  static fromFile(file: LexiconFile): LexiconIndex {
    return new LexiconIndex(file);
  }

  /** Bit mask of the lexicons that apply to `language`: its own, English (common online) and "*"; all when unknown. */
  languageMask(language: string): number {
    const own = this.langBit.get(language);
    if (own === undefined || language === '*') return -1;
    return own | (this.langBit.get('en') ?? 0) | this.universalBit;
  }

  /**
   * Counts hits per category over padded code points (cps[0] and cps[len-1] are spaces,
   * tokens separated by single spaces). Adds into `counts`.
   */
  count(cps: Int32Array, len: number, langMask: number, counts: Float64Array): void {
    if (this.maxLen === 0) return;
    const filter = this.filter;
    for (let s = 1; s < len - 1; s++) {
      const c0 = cps[s];
      if (c0 === SPACE) continue;
      const tokenStart = cps[s - 1] === SPACE;
      if (!tokenStart && !isUnspacedScript(c0)) continue;
      let h = FNV_OFFSET;
      const end = Math.min(len - 1, s + this.maxLen);
      for (let e = s; e < end; e++) {
        h = hashStep(h, cps[e]);
        const l = e - s + 1;
        if (this.lengths[l] === 0) continue;
        const slot = h >>> (32 - FILTER_BITS);
        if ((filter[slot >>> 3] & (1 << (slot & 7))) === 0) continue;
        const list = this.byHash.get(h);
        if (list === undefined) continue;
        const atTokenEnd = cps[e + 1] === SPACE;
        for (const entry of list) {
          if (entry.cps.length !== l || (entry.langMask & langMask) === 0) continue;
          if (entry.mode === MatchMode.Token && !(tokenStart && atTokenEnd)) continue;
          if (entry.mode === MatchMode.Prefix && !tokenStart) continue;
          if (!matchesAt(entry.cps, cps, s)) continue;
          counts[entry.category] += 1;
        }
      }
    }
  }
}

function sameCps(a: Int32Array, b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function matchesAt(entry: Int32Array, cps: Int32Array, start: number): boolean {
  for (let i = 0; i < entry.length; i++) if (entry[i] !== cps[start + i]) return false;
  return true;
}
