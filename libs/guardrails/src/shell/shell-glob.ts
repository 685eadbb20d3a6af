/**
 * blockShellPatterns are shell globs, not regular expressions: `*` any run of characters
 * (spaces included), `?` one character, `[abc]` / `[a-z]` / `[!x]` a class, `\` escapes.
 * Matching is case-insensitive, whitespace in the pattern is collapsed to single spaces,
 * and a pattern matches a command when it matches the whole canonical text or a prefix
 * of it that ends at a word boundary (`git push --force` matches `git push --force origin`).
 * The matcher is the iterative star-backtracking algorithm: at most O(text x pattern)
 * steps, so no pattern can make it backtrack catastrophically.
 */
type GlobToken = { kind: 'lit'; ch: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negate: boolean; ranges: Array<[string, string]> };

export interface CompiledShellPattern {
  source: string;
  whole: readonly GlobToken[];
  wordPrefix: readonly GlobToken[];
}

export class ShellPatternError extends Error {}

/** Text longer than this is matched on its first MAX_PATTERN_TEXT characters. */
export const MAX_PATTERN_TEXT = 4096;

export function compileShellPattern(source: string): CompiledShellPattern {
  const pattern = source.trim().replace(/\s+/g, ' ').toLowerCase();
  if (pattern === '') throw new ShellPatternError('pattern is empty');
  const tokens: GlobToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (i + 1 >= pattern.length) throw new ShellPatternError('pattern ends with a lone "\\"');
      tokens.push({ kind: 'lit', ch: pattern[++i] });
    } else if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
    } else if (c === '[') {
      const { token, end } = readClass(pattern, i);
      tokens.push(token);
      i = end;
    } else if (c === ']') {
      throw new ShellPatternError(`unbalanced "]" at position ${i + 1}`);
    } else {
      tokens.push({ kind: 'lit', ch: c });
    }
  }
  const wordPrefix: GlobToken[] = [...tokens, { kind: 'lit', ch: ' ' }, { kind: 'star' }];
  return { source, whole: tokens, wordPrefix };
}

function readClass(p: string, start: number): { token: GlobToken; end: number } {
  let i = start + 1;
  const negate = p[i] === '!' || p[i] === '^';
  if (negate) i++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (i < p.length && (p[i] !== ']' || first)) {
    let lo = p[i];
    if (lo === '\\' && i + 1 < p.length) lo = p[++i];
    let hi = lo;
    if (p[i + 1] === '-' && i + 2 < p.length && p[i + 2] !== ']') {
      hi = p[i + 2] === '\\' && i + 3 < p.length ? p[i + 3] : p[i + 2];
      i += p[i + 2] === '\\' ? 3 : 2;
      if (hi < lo) throw new ShellPatternError(`range "${lo}-${hi}" is reversed`);
    }
    ranges.push([lo, hi]);
    first = false;
    i++;
  }
  if (i >= p.length) throw new ShellPatternError(`unbalanced "[" at position ${start + 1}`);
  return { token: { kind: 'class', negate, ranges }, end: i };
}

function matchOne(t: GlobToken, ch: string): boolean {
  switch (t.kind) {
    case 'lit':
      return t.ch === ch;
    case 'any':
      return true;
    case 'class': {
      const inside = t.ranges.some(([lo, hi]) => ch >= lo && ch <= hi);
      return inside !== t.negate;
    }
    case 'star':
      return false;
  }
}

function globMatch(tokens: readonly GlobToken[], text: string): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const tok = tokens[p];
    if (tok !== undefined && tok.kind === 'star') {
      starP = p++;
      starT = t;
    } else if (tok !== undefined && matchOne(tok, text[t])) {
      p++;
      t++;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}

/** The whole of `text` (lowercased here), no word-prefix rule: for one path segment. */
export function matchShellPatternWhole(pattern: CompiledShellPattern, text: string): boolean {
  return globMatch(pattern.whole, text.slice(0, MAX_PATTERN_TEXT).toLowerCase());
}

/** `text` is a canonical command (see canonicalCommand); it is lowercased here. */
export function matchShellPattern(pattern: CompiledShellPattern, text: string): boolean {
  const t = text.slice(0, MAX_PATTERN_TEXT).toLowerCase();
  return globMatch(pattern.whole, t) || globMatch(pattern.wordPrefix, t);
}
