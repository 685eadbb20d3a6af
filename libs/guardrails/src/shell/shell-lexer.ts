/**
 * A small POSIX-shell lexer: enough of the language to see through quoting, escapes,
 * `$IFS`, ANSI-C strings, variables and substitutions. It never executes anything;
 * command substitutions are handed back to the parser (which analyses them as nested
 * scripts) and replaced by the text of a trivial `echo`, else by an opaque marker.
 */
import { PLACEHOLDER_HOME, PLACEHOLDER_WORKSPACE } from '../paths/path-normalizer';

export interface LexWord {
  t: 'word';
  text: string;
  /** Contains an expansion whose value is unknown ($1, $(whoami), ${x:-y}...). */
  dynamic: boolean;
  /** Some part was quoted or escaped (so brace expansion does not apply). */
  quoted: boolean;
  /** Scripts of the substitutions inside this word, already parsed by the host. */
  substitutions: number[];
}
export interface LexOp {
  t: 'op';
  op: string;
}
export interface LexRedirect {
  t: 'redir';
  op: string;
  /** File descriptor written before the operator (`2>`), '' when none. */
  fd?: string;
}
export type LexToken = LexWord | LexOp | LexRedirect;

/** What the lexer needs from its parser: variables and nested analysis of substitutions. */
export interface LexHost {
  variable(name: string): string | undefined;
  /** Parses a substitution's script; returns its id and, when trivially known, its output. */
  substitute(script: string, via: string): { id: number; output: string | null };
  /** `$1`, `$@`...: known when a function defined in the script is called with literal arguments. */
  positional?(name: string): string | undefined;
  /** The substitutions that computed a variable of unknown value (`x=$(curl ...)`), so a word using it carries them. */
  origins?(name: string): readonly number[] | undefined;
}

/** Stands for text only known at run time; chosen to collide with nothing shells or URLs use. */
export const UNKNOWN_EXPANSION = '\u27e8\u2026\u27e9';
const MAX_WORD = 8192;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
/** `x=`, `x+=`, `a[k]=`: an assignment whose value may be an array literal `(...)`. */
export const ASSIGNMENT_HEAD = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]{0,256}\])?\+?=/;

export class ShellLexer {
  private i = 0;
  private peeked: LexToken | null = null;
  /** Words produced by splitting an unquoted expansion, handed out before lexing on. */
  private readonly pending: LexWord[] = [];
  /** The previous token was an unquoted `=~` (inside `[[ ]]`): the next word is a regex. */
  private regexNext = false;

  constructor(
    private readonly src: string,
    private readonly host: LexHost,
  ) {}

  peek(): LexToken | null {
    if (this.peeked === null) this.peeked = this.read();
    return this.peeked;
  }

  next(): LexToken | null {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  get source(): string {
    return this.src;
  }

  /** Where the lexer stands in the source (after the last token handed out). */
  get position(): number {
    return this.peeked === null ? this.i : -1;
  }

  private read(): LexToken | null {
    const queued = this.pending.shift();
    if (queued) return queued;
    const t = this.readToken();
    this.regexNext = t?.t === 'word' && t.text === '=~' && !t.quoted;
    return t;
  }

  private readToken(): LexToken | null {
    if (this.regexNext) {
      const regex = this.regexWord();
      if (regex) return regex;
    }
    const s = this.src;
    let text = '';
    let started = false;
    let dynamic = false;
    let quoted = false;
    const substitutions: number[] = [];
    const word = (): LexWord => ({ t: 'word', text: text.slice(0, MAX_WORD), dynamic, quoted, substitutions });

    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
        this.i++;
        if (started) return word();
        continue;
      }
      if (c === '(' && started && !quoted && ASSIGNMENT_HEAD.test(text) && text.endsWith('=')) {
        // `a=(x y)`, `m=([k]=v)`, `a+=("$f")`: an array literal is the assignment's value, not a subshell.
        text += this.arrayLiteral(substitutions);
        quoted = true;
        continue;
      }
      if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        if (started) return word();
        return this.operator();
      }
      if (c === '<' || c === '>') {
        if (s[this.i + 1] === '(') {
          const { id } = this.substitution(this.i + 1, '<(...)');
          text += '/dev/fd/63';
          started = true;
          substitutions.push(id);
          continue;
        }
        let fd = '';
        if (started && !quoted && /^\d{1,2}$/.test(text)) {
          fd = text;
          text = '';
          started = false;
        }
        if (started) return word();
        const r = this.redirect();
        return r.t === 'redir' ? { ...r, fd } : r;
      }
      if (c === '#' && !started) {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
        continue;
      }
      if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        continue;
      }
      started = true;
      if (c === '\\') {
        quoted = true;
        text += s[this.i + 1] ?? '';
        this.i += 2;
        continue;
      }
      if (c === "'") {
        quoted = true;
        const end = s.indexOf("'", this.i + 1);
        const stop = end < 0 ? s.length : end;
        text += s.slice(this.i + 1, stop);
        this.i = stop + 1;
        continue;
      }
      if (c === '"') {
        quoted = true;
        this.i++;
        const part = this.doubleQuoted(substitutions);
        text += part.text;
        dynamic ||= part.dynamic;
        continue;
      }
      if (c === '`') {
        const r = this.backtick();
        substitutions.push(r.id);
        if (r.output === null) dynamic = true;
        text += this.split(r.output ?? UNKNOWN_EXPANSION, text);
        if (this.pending.length > 0) return this.flush(word());
        continue;
      }
      if (c === '$') {
        if (s[this.i + 1] === "'") {
          quoted = true;
          text += this.ansiC();
          continue;
        }
        if (s[this.i + 1] === '"') {
          this.i++;
          continue;
        }
        const e = this.dollar(false, substitutions);
        if (e.split) {
          if (text !== '' || quoted) return word();
          started = false;
          continue;
        }
        text += this.split(e.text, text);
        dynamic ||= e.dynamic;
        if (this.pending.length > 0) return this.flush(word());
        continue;
      }
      text += c;
      this.i++;
    }
    return started ? word() : null;
  }

  /** Unquoted expansions are word-split: the first field joins the current word, the rest queue. */
  private split(value: string, current = ''): string {
    // Assignment values are not word-split (x=$(cmd) keeps the whole output).
    if (!/[ \t\n]/.test(value) || ASSIGNMENT_HEAD.test(current)) return value;
    const fields = value.split(/[ \t\n]+/);
    for (const f of fields.slice(1)) {
      if (f !== '') this.pending.push({ t: 'word', text: f, dynamic: false, quoted: true, substitutions: [] });
    }
    if (this.pending.length === 0) this.pending.push({ t: 'word', text: '', dynamic: false, quoted: false, substitutions: [] });
    return fields[0];
  }

  private flush(current: LexWord): LexToken | null {
    const words = current.text !== '' || current.quoted ? [current, ...this.pending] : [...this.pending];
    this.pending.length = 0;
    this.pending.push(...words.filter((w) => w.text !== '' || w.quoted));
    return this.pending.shift() ?? this.read();
  }

  private operator(): LexToken {
    const s = this.src;
    const three = s.slice(this.i, this.i + 3);
    const two = s.slice(this.i, this.i + 2);
    if (three === '&>>') return this.take(3, 'redir', '&>>');
    if (two === '&>') return this.take(2, 'redir', '&>');
    if (two === '&&' || two === '||' || two === '|&') return this.take(2, 'op', two);
    if (two === ';;') return this.take(s[this.i + 2] === '&' ? 3 : 2, 'op', ';');
    if (two === ';&') return this.take(2, 'op', ';');
    const c = s[this.i];
    return this.take(1, 'op', c === '\n' ? ';' : c);
  }

  private redirect(): LexToken {
    const s = this.src;
    for (const op of ['<<<', '<<-', '&>>', '>>', '>&', '>|', '<<', '<&', '<>', '>', '<']) {
      if (s.startsWith(op, this.i)) return this.take(op.length, 'redir', op);
    }
    return this.take(1, 'redir', s[this.i]);
  }

  private take(n: number, t: 'op' | 'redir', op: string): LexToken {
    this.i += n;
    return { t, op };
  }

  private doubleQuoted(substitutions: number[]): { text: string; dynamic: boolean } {
    const s = this.src;
    let text = '';
    let dynamic = false;
    while (this.i < s.length && s[this.i] !== '"') {
      const c = s[this.i];
      if (c === '\\' && '$`"\\\n'.includes(s[this.i + 1] ?? '')) {
        if (s[this.i + 1] !== '\n') text += s[this.i + 1];
        this.i += 2;
      } else if (c === '`') {
        const r = this.backtick();
        substitutions.push(r.id);
        dynamic ||= r.output === null;
        text += r.output ?? UNKNOWN_EXPANSION;
      } else if (c === '$') {
        const e = this.dollar(true, substitutions);
        text += e.text;
        dynamic ||= e.dynamic;
      } else {
        text += c;
        this.i++;
      }
    }
    this.i++;
    return { text, dynamic };
  }

  /** `$...` at this.i. `split` means an unquoted $IFS: a word boundary. */
  private dollar(inQuotes: boolean, substitutions: number[]): { text: string; dynamic: boolean; split?: boolean } {
    const s = this.src;
    const next = s[this.i + 1];
    if (next === '(' && s[this.i + 2] === '(') {
      const end = this.matchParen(this.i + 1);
      this.i = end + 1;
      return { text: UNKNOWN_EXPANSION, dynamic: true };
    }
    if (next === '(') {
      const r = this.substitution(this.i + 1, '$(...)');
      substitutions.push(r.id);
      return r.output === null ? { text: UNKNOWN_EXPANSION, dynamic: true } : { text: r.output, dynamic: false };
    }
    if (next === '{') {
      let depth = 0;
      let j = this.i + 1;
      for (; j < s.length; j++) {
        if (s[j] === '{') depth++;
        else if (s[j] === '}' && --depth === 0) break;
      }
      const body = s.slice(this.i + 2, j);
      this.i = Math.min(j + 1, s.length);
      return this.expandParameter(body, inQuotes, substitutions);
    }
    const m = NAME.exec(s.slice(this.i + 1, this.i + 65));
    if (m) {
      this.i += 1 + m[0].length;
      return this.expandParameter(m[0], inQuotes, substitutions);
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.i += 2;
      const value = /[1-9@*#]/.test(next) ? this.host.positional?.(next) : undefined;
      return value === undefined ? { text: UNKNOWN_EXPANSION, dynamic: true } : { text: value, dynamic: value.includes(UNKNOWN_EXPANSION) };
    }
    this.i++;
    return { text: '$', dynamic: false };
  }

  private expandParameter(body: string, inQuotes: boolean, substitutions: number[]): { text: string; dynamic: boolean; split?: boolean } {
    if (/^(?:[1-9]|[@*#])$/.test(body)) {
      const value = this.host.positional?.(body);
      return value === undefined ? { text: UNKNOWN_EXPANSION, dynamic: true } : { text: value, dynamic: value.includes(UNKNOWN_EXPANSION) };
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=+?])(.*))?$/s.exec(body);
    if (!m) return { text: UNKNOWN_EXPANSION, dynamic: true };
    const [, name, op, alt] = m;
    if (name === 'IFS' && op === undefined) return inQuotes ? { text: ' ', dynamic: false } : { text: '', dynamic: false, split: true };
    const value = this.builtinVariable(name) ?? this.host.variable(name);
    const origins = value === undefined || value.includes(UNKNOWN_EXPANSION) ? this.host.origins?.(name) : undefined;
    if (origins) substitutions.push(...origins);
    if (op === undefined) {
      if (value === undefined) return { text: `$${name}`, dynamic: true };
      return { text: value, dynamic: value.includes(UNKNOWN_EXPANSION) };
    }
    if (op.endsWith('-') || op.endsWith('=')) {
      return value !== undefined && value !== '' ? { text: value, dynamic: false } : { text: alt ?? '', dynamic: false };
    }
    return { text: UNKNOWN_EXPANSION, dynamic: true };
  }

  private builtinVariable(name: string): string | undefined {
    if (name === 'HOME') return PLACEHOLDER_HOME;
    if (name === 'PWD') return PLACEHOLDER_WORKSPACE;
    return undefined;
  }

  /** The array literal at `(`: its text (words joined by spaces), substitutions inside it analysed. */
  private arrayLiteral(substitutions: number[]): string {
    const s = this.src;
    let out = '(';
    let depth = 0;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '(') depth++;
      if (c === ')' && --depth === 0) {
        this.i++;
        return `${out})`;
      }
      if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        const stop = end < 0 ? s.length : end;
        out += s.slice(this.i + 1, stop);
        this.i = stop + 1;
      } else if (c === '"') {
        this.i++;
        out += this.doubleQuoted(substitutions).text;
      } else if (c === '$' && s[this.i + 1] !== "'") {
        out += this.dollar(true, substitutions).text;
      } else if (c === '`') {
        const r = this.backtick();
        substitutions.push(r.id);
        out += r.output ?? UNKNOWN_EXPANSION;
      } else if (c === '\\') {
        out += s[this.i + 1] ?? '';
        this.i += 2;
      } else {
        if (c !== '(') out += /\s/.test(c) ? ' ' : c;
        this.i++;
      }
    }
    return out;
  }

  /** The word after `=~` in `[[ ]]`: a regex, where `(`, `)`, `|`, `<`, `>` are characters, not operators. */
  private regexWord(): LexWord | null {
    const s = this.src;
    while (this.i < s.length && /[ \t]/.test(s[this.i])) this.i++;
    const start = this.i;
    let depth = 0;
    let text = '';
    while (this.i < s.length) {
      const c = s[this.i];
      if ((c === ' ' || c === '\t' || c === '\n') && depth <= 0) break;
      if (c === ';' && depth <= 0) break;
      if (c === '(') depth++;
      else if (c === ')') depth--;
      if (c === '\\' && this.i + 1 < s.length) {
        text += s.slice(this.i, this.i + 2);
        this.i += 2;
        continue;
      }
      text += c;
      this.i++;
    }
    if (this.i === start) return null;
    return { t: 'word', text: text.slice(0, MAX_WORD), dynamic: false, quoted: true, substitutions: [] };
  }

  /** `(` at `open`; returns the index of its matching `)`, skipping quotes. */
  private matchParen(open: number): number {
    const s = this.src;
    let depth = 0;
    for (let j = open; j < s.length; j++) {
      const c = s[j];
      if (c === '\\') j++;
      else if (c === "'") {
        const e = s.indexOf("'", j + 1);
        j = e < 0 ? s.length : e;
      } else if (c === '"') {
        for (j++; j < s.length && s[j] !== '"'; j++) if (s[j] === '\\') j++;
      } else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return j;
    }
    return s.length;
  }

  private substitution(open: number, via: string): { id: number; output: string | null } {
    const end = this.matchParen(open);
    const script = this.src.slice(open + 1, end);
    this.i = Math.min(end + 1, this.src.length);
    return this.host.substitute(script, via);
  }

  private backtick(): { id: number; output: string | null } {
    const s = this.src;
    let j = this.i + 1;
    let script = '';
    for (; j < s.length && s[j] !== '`'; j++) {
      if (s[j] === '\\' && '`$\\'.includes(s[j + 1] ?? '')) j++;
      script += s[j] ?? '';
    }
    this.i = Math.min(j + 1, s.length);
    return this.host.substitute(script, '`...`');
  }

  /** `$'...'` with the escapes bash understands; \x72\x6d is "rm". */
  private ansiC(): string {
    const s = this.src;
    let j = this.i + 2;
    let out = '';
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      e: '\x1b',
      E: '\x1b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      "'": "'",
      '"': '"',
      '?': '?',
    };
    while (j < s.length && s[j] !== "'") {
      if (s[j] !== '\\') {
        out += s[j++];
        continue;
      }
      const e = s[j + 1] ?? '';
      let m: RegExpExecArray | null;
      const rest = s.slice(j + 1, j + 11);
      if (simple[e] !== undefined) {
        out += simple[e];
        j += 2;
      } else if ((m = /^x([0-9a-fA-F]{1,2})/.exec(rest))) {
        out += String.fromCharCode(parseInt(m[1], 16));
        j += 1 + m[0].length;
      } else if ((m = /^u([0-9a-fA-F]{1,4})/.exec(rest)) || (m = /^U([0-9a-fA-F]{1,8})/.exec(rest))) {
        const cp = parseInt(m[1], 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
        j += 1 + m[0].length;
      } else if ((m = /^([0-7]{1,3})/.exec(rest))) {
        out += String.fromCharCode(parseInt(m[1], 8) & 0xff);
        j += 1 + m[0].length;
      } else if (e === 'c' && j + 2 < s.length) {
        out += String.fromCharCode(s.charCodeAt(j + 2) & 0x1f);
        j += 3;
      } else {
        out += '\\' + e;
        j += 2;
      }
    }
    this.i = Math.min(j + 1, s.length);
    return out;
  }
}
