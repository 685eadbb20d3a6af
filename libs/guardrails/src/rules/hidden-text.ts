/**
 * Text a reader cannot see but a model reads: Unicode tag characters (U+E0000–E007F, each
 * an invisible copy of an ASCII character: "ASCII smuggling"), long runs of zero-width
 * characters (a message encoded in them), and the zero-width and bidi controls that break
 * up words or reorder what is shown. Emoji and scripts that need some of these characters
 * keep them: a subdivision flag (🏴 + tags + cancel tag), a zero-width joiner inside an
 * emoji sequence or a non-Latin word, a non-joiner between letters of Indic or Arabic
 * scripts, a direction mark beside right-to-left text.
 */

/** A tag-character run that spells a subdivision flag: black flag, 2–7 tag letters/digits, cancel tag. */
const FLAG_TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{2,7}\u{E007F}/gu;
const TAG_RUN = /[\u{E0000}-\u{E007F}]+/gu;
const ZERO_WIDTH_RUN = /[\u200B-\u200D\u2060\uFEFF]{16,}/g;
/** Zero-width, bidi and invisible formatting characters a prompt has no need for. */
const CONTROLS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]/gu;
const JOINER_OK = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]|[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;

export interface HiddenText {
  /** ASCII text spelled by tag characters (flags excluded), or '' */
  tagText: string;
  /** tag characters outside flags */
  tagCount: number;
  /** length of the longest zero-width run of 16 or more, or 0 */
  zeroWidthRun: number;
  /** other invisible controls (zero-width, bidi, soft hyphen) a prompt has no need for */
  controls: number;
  /** the text with every invisible character a prompt has no need for removed (a subdivision
   * flag is left as its black-flag emoji) */
  visible: string;
}

function legitimateControl(ch: string, before: string, after: string): boolean {
  if (ch === '\u200D') return JOINER_OK.test(before) || JOINER_OK.test(after);
  if (ch === '\u200C') return /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(before + after);
  if (ch === '\u200E' || ch === '\u200F') return RTL.test(before) || RTL.test(after);
  return false;
}

/** The invisible content of `text` (already capped by the caller). */
export function findHiddenText(text: string): HiddenText {
  const withoutFlags = text.replace(FLAG_TAGS, (m) => m.slice(0, 2));
  let tagText = '';
  let tagCount = 0;
  for (const m of withoutFlags.matchAll(TAG_RUN)) {
    for (const ch of m[0]) {
      const cp = ch.codePointAt(0)! - 0xe0000;
      tagCount++;
      if (cp >= 0x20 && cp <= 0x7e) tagText += String.fromCharCode(cp);
    }
    tagText += '\n';
  }
  let zeroWidthRun = 0;
  for (const m of text.matchAll(ZERO_WIDTH_RUN)) zeroWidthRun = Math.max(zeroWidthRun, m[0].length);
  let controls = 0;
  const visible = withoutFlags.replace(TAG_RUN, '').replace(CONTROLS, (ch, offset: number, whole: string) => {
    const before = whole.slice(Math.max(0, offset - 2), offset);
    const after = whole.slice(offset + 1, offset + 3);
    if (legitimateControl(ch, before, after)) return ch;
    controls++;
    return '';
  });
  return { tagText: tagText.trim(), tagCount, zeroWidthRun, controls, visible };
}
