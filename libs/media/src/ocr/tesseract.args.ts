/**
 * Tesseract's command line as data: which traineddata packs to read with and the argument
 * list, built before anything runs (and tested without running anything).
 */

/** The service's 17 languages (ISO 639-1) -> tesseract traineddata pack. */
export const TESSERACT_PACKS: Readonly<Record<string, string>> = Object.freeze({
  en: 'eng',
  es: 'spa',
  fr: 'fra',
  de: 'deu',
  pt: 'por',
  it: 'ita',
  ru: 'rus',
  tr: 'tur',
  ar: 'ara',
  hi: 'hin',
  id: 'ind',
  ja: 'jpn',
  ko: 'kor',
  pl: 'pol',
  nl: 'nld',
  sv: 'swe',
  cs: 'ces',
});

/** Every pack the service may ask for: what `apt install tesseract-ocr-<pack>` must provide. */
export const REQUIRED_TESSERACT_PACKS: readonly string[] = Object.freeze(Object.values(TESSERACT_PACKS));

/**
 * The `-l` value for a check's language: `de` -> `deu+eng` (memes mix English into every
 * language), `en` -> `eng`. `pt-BR` reads as `pt`. A language outside the 17 (or none)
 * reads as English: the value always comes from this table, never from the caller, so it
 * cannot smuggle an option onto the command line.
 */
export function tesseractLanguage(language: string): string {
  const primary =
    /^[a-z]{2,3}/.exec(
      String(language ?? '')
        .trim()
        .toLowerCase(),
    )?.[0] ?? '';
  const pack = Object.prototype.hasOwnProperty.call(TESSERACT_PACKS, primary) ? TESSERACT_PACKS[primary] : 'eng';
  return pack === 'eng' ? 'eng' : `${pack}+eng`;
}

/** Tesseract's default, fully automatic page segmentation: finds blocks of text anywhere. */
export const DEFAULT_TESSERACT_PSM = 3;

/** Page segmentation modes that produce text (0 finds orientation only; Tesseract itself does not offer 2). */
const TEXT_PSMS = new Set([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);

/** The page segmentation mode asked for, checked (a RangeError for one that reads no text). */
export function tesseractPsm(psm: number = DEFAULT_TESSERACT_PSM): number {
  if (!TEXT_PSMS.has(psm)) throw new RangeError(`psm must be one of ${[...TEXT_PSMS].join(', ')}, got ${psm}`);
  return psm;
}

/** Arguments for one OCR run: the image (PNG) on stdin, plain text on stdout. `available`:
 * the packs installed (default: all), see ocrLanguagePlan. */
export function tesseractArgs(o: { language: string; psm?: number; available?: ReadonlySet<string> }): string[] {
  const psm = tesseractPsm(o.psm);
  const languages = o.available ? ocrLanguagePlan(o.language, o.available).languages : tesseractLanguage(o.language);
  return ['stdin', 'stdout', '-l', languages, '--psm', String(psm)];
}

/**
 * Tesseract's text as one line: runs of whitespace (newlines, the trailing form feed)
 * become one space, control characters go. A lone `|` before a lowercase word is the
 * capital I of a sans-serif font ("| will kill you" -> "I will kill you"): tesseract's
 * English model reads it as a bar, and the first person matters to the text model.
 */
export function normalizeOcrText(raw: string): string {
  return raw
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/(^| )\|(?=['’](?:m|ll|ve|d)\b| [a-z])/g, '$1I');
}

/** How a check's language is read by an engine that has only some packs. */
export interface OcrLanguagePlan {
  /** The `-l` value to read with: `deu+eng`, or `eng` when the language has no pack here. */
  languages: string;
  /** The packs the language needed that the engine lacks (read with English instead). */
  missing: string[];
}

/**
 * tesseractLanguage, restricted to the packs an engine has: a language whose pack is
 * missing is read with English alone (never a failed check), and the plan names what was
 * missing so the decision can say so. English itself must be there.
 */
export function ocrLanguagePlan(language: string, available: ReadonlySet<string>): OcrLanguagePlan {
  const wanted = tesseractLanguage(language).split('+');
  const missing = wanted.filter((p) => !available.has(p));
  const kept = wanted.filter((p) => available.has(p));
  return { languages: kept.length > 0 ? kept.join('+') : 'eng', missing };
}
