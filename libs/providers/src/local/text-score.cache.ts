import { createHash } from 'crypto';
import { LRUCache } from 'lru-cache';

/** Texts up to this many UTF-16 units are their own key; longer ones are keyed by their
 * sha256, so an entry holds at most ~0.9 KB (measured: keys, answer and its promise) whatever the text's length. */
const RAW_KEY_MAX_CHARS = 128;

/**
 * The text a local model scores: Unicode NFC, without leading and trailing white space.
 * The scorer reads this form (not the raw text), so every text with the same form gets
 * the same scores and a cache keyed by it is exact. Neither model tells the forms apart in
 * practice (the n-gram model applies NFKC and splits on white space; the embedding model's
 * tokenizer maps every code point through NFKC and collapses runs of spaces).
 */
export function scoringForm(text: string): string {
  const trimmed = text.trim();
  // NFC of pure ASCII is itself: skip the call for most texts
  return /^[\x00-\x7f]*$/.test(trimmed) ? trimmed : trimmed.normalize('NFC');
}

/** The cache key of a text in its scoring form, for one model and language. */
export function textScoreKey(model: string, language: string, form: string): string {
  const text = form.length <= RAW_KEY_MAX_CHARS ? `t${form}` : `h${createHash('sha256').update(form).digest('base64')}`;
  return `${model}\0${language}\0${text}`;
}

export interface TextScoreCacheStats {
  entries: number;
  hits: number;
  misses: number;
  /** hits on an answer still being computed (a burst of one text waits for one pass) */
  joined: number;
}

/**
 * Scores of local models by content: at most `maxEntries` answers (least recently used out
 * first), with no expiry (a model's answer to a text never changes; a new model is a new
 * key). A text asked again while its first score is still being computed joins that
 * computation, so a burst of one text costs one pass. A failed score is not kept: the next
 * ask computes again.
 */
export class TextScoreCache<T> {
  private readonly entries: LRUCache<string, Promise<T>> | null;
  private hits = 0;
  private misses = 0;
  private joined = 0;
  /** answers still being computed */
  private readonly pending = new Set<Promise<T>>();

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0) throw new RangeError(`maxEntries must be an integer >= 0, got ${maxEntries}`);
    this.entries = maxEntries > 0 ? new LRUCache({ max: maxEntries }) : null;
  }

  get enabled(): boolean {
    return this.entries !== null;
  }

  /** The cached answer for `key`, or `compute()`'s (kept once it resolves well). */
  get(key: string, compute: () => Promise<T>): Promise<T> {
    const entries = this.entries;
    if (!entries) return compute();
    const hit = entries.get(key); // most recently used from now
    if (hit) {
      if (this.pending.has(hit)) this.joined++;
      else this.hits++;
      return hit;
    }
    this.misses++;
    const answer = compute();
    this.pending.add(answer);
    entries.set(key, answer);
    answer.then(
      () => this.pending.delete(answer),
      () => {
        this.pending.delete(answer);
        if (entries.peek(key) === answer) entries.delete(key);
      },
    );
    return answer;
  }

  stats(): TextScoreCacheStats {
    return { entries: this.entries?.size ?? 0, hits: this.hits, misses: this.misses, joined: this.joined };
  }
}
