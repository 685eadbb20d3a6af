/**
 * `for NAME in WORDS; do BODY; done` runs BODY once per word with NAME set to it. The parser
 * reads the body in place with the first word, then again for each other word (up to
 * MAX_LOOP_VALUES), so `for d in /usr /etc; do rm -rf $d; done` is judged for both. A list
 * only known at run time (`$(ls)`, `"$@"`) leaves NAME unknown in the body.
 */
import { LexWord } from './shell-lexer';

export const MAX_LOOP_VALUES = 16;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Reserved words a loop may follow in the same simple command (`do for ...`, `then for ...`). */
const LEADING = new Set(['do', 'then', 'else', '{', '!']);

export interface LoopHeader {
  name: string;
  /** The words NAME takes, or null when the list is only known at run time. */
  values: string[] | null;
  /** How reasons name the loop: `a for loop` unless said. */
  kind?: string;
  /** A `while read` loop whose input is not piped in: the variables it reads, for `done < <(cmd)`. */
  reads?: readonly string[];
}

/** `read` options that take a value (`-d DELIM`, `-p PROMPT`, `-u FD`...); `-a NAME` names an array. */
const READ_VALUE_OPTIONS = /^-[dinNptu]$/;

/**
 * The variables a `while read A B` (or `until read`) loop sets from its input, one line at a
 * time, else null. `while IFS= read -r line`, `while read -r a b; do`: the values are only known
 * at run time, so the body sees them as unknown (and where the input came from).
 */
export function readLoopHeader(all: readonly LexWord[]): string[] | null {
  let k = 0;
  while (k < all.length && !all[k].quoted && LEADING.has(all[k].text)) k++;
  if (k >= all.length || all[k].quoted || (all[k].text !== 'while' && all[k].text !== 'until')) return null;
  k++;
  while (k < all.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(all[k].text)) k++;
  if (k >= all.length || all[k].quoted || all[k].text !== 'read') return null;
  return readVariables(all.slice(k + 1).map((w) => w.text));
}

/** The variable names `read ARGS` assigns (`REPLY` when none is named). */
export function readVariables(args: readonly string[]): string[] {
  const names: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '-a') names.push(args[++k] ?? '');
    else if (READ_VALUE_OPTIONS.test(a)) k++;
    else if (a.startsWith('-')) continue;
    else names.push(a);
  }
  const valid = names.filter((n) => NAME.test(n));
  return valid.length > 0 ? valid.slice(0, MAX_LOOP_VALUES) : ['REPLY'];
}

/** `for NAME in WORDS` / `select NAME in WORDS` / `for NAME` (the positional arguments), else null. */
export function loopHeader(all: readonly LexWord[]): LoopHeader | null {
  let k = 0;
  while (k < all.length && !all[k].quoted && LEADING.has(all[k].text)) k++;
  const words = all.slice(k);
  const [keyword, name, inWord] = words;
  if (keyword === undefined || keyword.quoted || (keyword.text !== 'for' && keyword.text !== 'select')) return null;
  if (name === undefined || name.quoted || !NAME.test(name.text)) return null;
  if (inWord === undefined) return { name: name.text, values: null };
  if (inWord.quoted || inWord.text !== 'in') return null;
  const list = words.slice(3);
  if (list.length === 0 || list.some((w) => w.dynamic)) return { name: name.text, values: null };
  return { name: name.text, values: list.slice(0, MAX_LOOP_VALUES).map((w) => w.text) };
}

interface OpenLoop extends LoopHeader {
  start: number;
  level: number;
}

/** Pairs each loop header with the `do ... done` that follows it, counting `while`/`until` bodies too. */
export class LoopTracker {
  private pending: LoopHeader | null = null;
  private level = 0;
  private readonly open: OpenLoop[] = [];

  header(h: LoopHeader): void {
    this.pending = h;
  }

  /** A leading `do` or `done` at `position` (just after it); returns a loop and its body when `done` closes one. */
  reserved(word: 'do' | 'done', position: number, source: string): { header: LoopHeader; body: string } | null {
    if (word === 'do') {
      this.level++;
      if (this.pending !== null && position >= 0) this.open.push({ ...this.pending, start: position, level: this.level });
      this.pending = null;
      return null;
    }
    const level = this.level;
    this.level = Math.max(0, level - 1);
    const top = this.open[this.open.length - 1];
    if (top === undefined || top.level !== level) return null;
    this.open.pop();
    const end = position < 0 ? -1 : source.lastIndexOf('done', position);
    return end < top.start ? null : { header: top, body: source.slice(top.start, end) };
  }
}
