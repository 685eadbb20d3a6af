/**
 * Text normalisation shared by the trainer and the runtime classifier: both must see
 * exactly the same tokens, or the committed weights mean nothing.
 *
 * NFKC + lowercase, Latin diacritics stripped (Devanagari, Hangul and Arabic marks are
 * kept, except Arabic harakat), Arabic letter variants unified, zero-width characters
 * dropped, runs of 3+ identical characters cut to 2, leetspeak inside words undone
 * ("f4gg0t", "sh!t", "$hit"), URLs and @mentions replaced by placeholders, emoji kept as
 * tokens of their own, and spaced-out words ("k i l l") joined back.
 */
export const MAX_TEXT_CHARS = 20_000;

const URL_TOKEN = '_url_';
const USER_TOKEN = '_user_';

const enum CharClass {
  Unknown = 0,
  Word = 1,
  Emoji = 2,
  Separator = 3,
  Drop = 4,
}

const classCache = new Uint8Array(0x110000);
const mapCache = new Map<number, string>();

const WORD_RE = /[\p{L}\p{M}\p{N}]/u;
const EMOJI_RE = /[\p{Extended_Pictographic}\p{So}]/u;
const FORMAT_RE = /[\p{Cf}\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u;

function classify(cp: number): CharClass {
  const cached = classCache[cp];
  if (cached !== CharClass.Unknown) return cached as CharClass;
  let cls: CharClass;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x1f3fb && cp <= 0x1f3ff) || cp === 0x00ad) cls = CharClass.Drop;
  else if (cp >= 0x064b && cp <= 0x065f)
    cls = CharClass.Drop; // Arabic harakat
  else if (cp === 0x0670 || cp === 0x0640)
    cls = CharClass.Drop; // superscript alef, tatweel
  else if (cp >= 0x0300 && cp <= 0x036f)
    cls = CharClass.Drop; // combining Latin diacritics (e.g. after "İ".toLowerCase())
  else {
    const ch = String.fromCodePoint(cp);
    if (WORD_RE.test(ch)) cls = CharClass.Word;
    else if (EMOJI_RE.test(ch)) cls = CharClass.Emoji;
    else if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0xfeff || cp === 0x2060) cls = CharClass.Drop;
    else if (FORMAT_RE.test(ch) && cp > 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp <= 0x9f)) cls = CharClass.Drop;
    else cls = CharClass.Separator;
  }
  classCache[cp] = cls;
  return cls;
}

const SPECIAL_MAP: Record<number, string> = {
  0x00df: 'ss',
  0x00e6: 'ae',
  0x0153: 'oe',
  0x00f8: 'o',
  0x0142: 'l',
  0x0111: 'd',
  0x0131: 'i',
  0x00fe: 'th',
  0x0451: '\u0435', // ё -> е
  0x0623: '\u0627',
  0x0625: '\u0627',
  0x0622: '\u0627',
  0x0671: '\u0627', // alef variants -> ا
  0x0649: '\u064a',
  0x0626: '\u064a', // ى ئ -> ي
  0x0629: '\u0647', // ة -> ه
  0x0624: '\u0648', // ؤ -> و
};

/** Maps one lowercase code point to its folded form (mostly itself). */
function foldChar(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  const cached = mapCache.get(cp);
  if (cached !== undefined) return cached;
  let out = SPECIAL_MAP[cp];
  if (out === undefined) {
    out = String.fromCodePoint(cp);
    if ((cp >= 0xc0 && cp <= 0x24f) || (cp >= 0x1e00 && cp <= 0x1eff)) {
      const stripped = out.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      if (/^[a-z]+$/.test(stripped)) out = stripped;
    }
  }
  mapCache.set(cp, out);
  return out;
}

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '!': 'i',
};

function isLetterCp(cp: number): boolean {
  if (cp >= 0x61 && cp <= 0x7a) return true;
  if (cp < 0x80) return false;
  return classify(cp) === CharClass.Word && !(cp >= 0x30 && cp <= 0x39);
}

/** Undoes leetspeak in one whitespace-delimited chunk when it is clearly a word. */
function unleet(chars: string[]): void {
  let letters = 0;
  for (const c of chars) if (isLetterCp(c.codePointAt(0) ?? 0)) letters++;
  if (letters < 2) return;
  const isL = (i: number) => i >= 0 && i < chars.length && isLetterCp(chars[i].codePointAt(0) ?? 0);
  for (let i = 0; i < chars.length; i++) {
    const sub = LEET[chars[i]];
    if (sub === undefined) continue;
    const c = chars[i];
    // a run of leet characters counts as inside a word when letters sit on both sides ("a$$hole")
    let next = i + 1;
    while (next < chars.length && LEET[chars[next]] !== undefined) next++;
    const between = isL(i - 1) && isL(next);
    const atEnd = i === chars.length - 1 && isL(i - 1) && isL(i - 2) && c !== '!';
    const atStart = i === 0 && (c === '$' || c === '@') && isL(i + 1) && isL(i + 2);
    if (between || atEnd || atStart) chars[i] = sub;
  }
}

const SPACE_RE = /\s+/u;
const URL_RE = /^(https?:\/\/|www\.)/;
const MENTION_RE = /^@[\p{L}\p{N}_]+/u;

/** Splits a chunk into word/emoji tokens, applying folding and repeat collapsing. */
function tokenizeChunk(chunk: string, tokens: string[]): void {
  const chars: string[] = [];
  for (const ch of chunk) chars.push(ch);
  unleet(chars);
  let cur = '';
  let last = -1;
  let repeat = 0;
  const flush = () => {
    if (cur.length > 0) tokens.push(cur);
    cur = '';
    last = -1;
    repeat = 0;
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const cp = ch.codePointAt(0) ?? 0;
    let cls: CharClass;
    if (cp < 0x80) {
      if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39)) cls = CharClass.Word;
      else if ((cp === 0x27 || cp === 0x2a) && cur.length > 0 && i + 1 < chars.length && isLetterCp(chars[i + 1].codePointAt(0) ?? 0)) {
        // apostrophe inside a word is dropped ("can't" -> "cant"); an asterisk is kept ("f*ck")
        if (cp === 0x27) continue;
        cls = CharClass.Word;
      } else cls = CharClass.Separator;
    } else if (cp === 0x2019 && cur.length > 0 && i + 1 < chars.length && isLetterCp(chars[i + 1].codePointAt(0) ?? 0)) {
      continue;
    } else cls = classify(cp);
    if (cls === CharClass.Drop) continue;
    if (cls === CharClass.Separator) {
      flush();
      continue;
    }
    if (cls === CharClass.Emoji) {
      flush();
      const n = tokens.length;
      // at most two identical emoji in a row
      if (!(n >= 2 && tokens[n - 1] === ch && tokens[n - 2] === ch)) tokens.push(ch);
      continue;
    }
    const folded = foldChar(cp);
    for (const f of folded) {
      const fcp = f.codePointAt(0) ?? 0;
      if (fcp === last) {
        repeat++;
        if (repeat >= 2) continue;
      } else {
        repeat = 0;
        last = fcp;
      }
      cur += f;
    }
  }
  flush();
}

function isSpaceableLetter(token: string): boolean {
  if (token.length !== 1) return false;
  const cp = token.charCodeAt(0);
  return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x430 && cp <= 0x44f);
}

/** Joins runs of 3+ single Latin/Cyrillic letters: "k i l l" -> "kill". */
function joinSpacedLetters(tokens: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    if (isSpaceableLetter(tokens[i])) {
      let j = i;
      while (j < tokens.length && isSpaceableLetter(tokens[j])) j++;
      if (j - i >= 3) {
        out.push(tokens.slice(i, j).join(''));
        i = j;
        continue;
      }
    }
    out.push(tokens[i]);
    i++;
  }
  return out;
}

/** Normalised tokens of `input`; never throws, whatever the input. */
export function normalizeTokens(input: unknown): string[] {
  if (typeof input !== 'string' || input.length === 0) return [];
  let s = input.length > MAX_TEXT_CHARS ? input.slice(0, MAX_TEXT_CHARS) : input;
  try {
    s = s.normalize('NFKC');
  } catch {
    // lone surrogates or engine limits: keep the raw text
  }
  s = s.toLowerCase();
  const tokens: string[] = [];
  for (const chunk of s.split(SPACE_RE)) {
    if (chunk.length === 0) continue;
    if (URL_RE.test(chunk)) {
      tokens.push(URL_TOKEN);
      continue;
    }
    const mention = MENTION_RE.exec(chunk);
    if (mention) {
      tokens.push(USER_TOKEN);
      const rest = chunk.slice(mention[0].length);
      if (rest.length > 0) tokenizeChunk(rest, tokens);
      continue;
    }
    tokenizeChunk(chunk, tokens);
  }
  return joinSpacedLetters(tokens);
}

/** Normalised text: the tokens joined by single spaces. */
export function normalizeText(input: unknown): string {
  return normalizeTokens(input).join(' ');
}
