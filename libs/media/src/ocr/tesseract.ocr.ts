import { StringDecoder } from 'string_decoder';
import { runBounded } from './bounded-process';
import { OcrError } from './ocr.errors';
import { pngDimensions } from './png-header';
import { REQUIRED_TESSERACT_PACKS, normalizeOcrText, tesseractArgs } from './tesseract.args';

export interface OcrResult {
  /** The text read, whitespace collapsed; '' when there is none. */
  text: string;
  /** Wall-clock time of the tesseract run. */
  ms: number;
  /** The output passed maxOutputBytes: `text` is its beginning. */
  truncated: boolean;
}

export interface ReadTextOptions {
  /** ISO 639-1 language of the check (see tesseractLanguage). */
  language: string;
  /** Wall-clock limit: tesseract is SIGKILLed at the deadline. */
  timeoutMs: number;
  /** Text bytes kept (default 64 KiB: 20,000 characters of any script). */
  maxOutputBytes?: number;
  /** PNG bytes accepted (default 20 MiB). */
  maxInputBytes?: number;
  /** Pixels accepted, from the PNG header (default 25 M): a small PNG can decode to gigabytes. */
  maxPixels?: number;
  /** Page segmentation mode (default 3, automatic). */
  psm?: number;
  /** Default: TESSERACT_PATH, else `tesseract` on the PATH. */
  binary?: string;
  /** The packs installed (from probeTesseract): a language without its pack is read with
   * English (ocrLanguagePlan). Default: all of them. */
  available?: ReadonlySet<string>;
}

export const DEFAULT_OCR_MAX_OUTPUT_BYTES = 64 * 1024;
export const DEFAULT_OCR_MAX_INPUT_BYTES = 20 * 1024 * 1024;
export const DEFAULT_OCR_MAX_PIXELS = 25_000_000;

const PROBE_TIMEOUT_MS = 10_000;

function tesseractBinary(binary?: string): string {
  return binary ?? (process.env.TESSERACT_PATH || 'tesseract');
}

/** OpenMP in tesseract otherwise starts a thread per core for every image: on a small
 * machine concurrent OCR runs would fight each other and the event loop. */
function tesseractEnv(): NodeJS.ProcessEnv {
  return { ...process.env, OMP_THREAD_LIMIT: '1' };
}

/** The PNG is one OCR may read (size, pixels from its header): else OCR_INPUT_REJECTED. */
export function checkOcrInput(png: Buffer, o: { maxInputBytes?: number; maxPixels?: number }): void {
  const maxInputBytes = o.maxInputBytes ?? DEFAULT_OCR_MAX_INPUT_BYTES;
  const maxPixels = o.maxPixels ?? DEFAULT_OCR_MAX_PIXELS;
  if (png.length > maxInputBytes) {
    throw new OcrError('OCR_INPUT_REJECTED', `the image for OCR is ${png.length} bytes, more than ${maxInputBytes}`);
  }
  const size = pngDimensions(png);
  if (!size) throw new OcrError('OCR_INPUT_REJECTED', 'the image for OCR is not a PNG');
  if (size.width * size.height > maxPixels) {
    throw new OcrError('OCR_INPUT_REJECTED', `the image for OCR is ${size.width}×${size.height}, more than ${maxPixels} pixels`);
  }
}

/** Reads the text in a PNG with the tesseract binary, in a child process. */
export async function readTextInImage(png: Buffer, o: ReadTextOptions): Promise<OcrResult> {
  checkOcrInput(png, o);
  const run = await runBounded(tesseractBinary(o.binary), tesseractArgs({ language: o.language, psm: o.psm, available: o.available }), {
    input: png,
    timeoutMs: o.timeoutMs,
    maxOutputBytes: o.maxOutputBytes ?? DEFAULT_OCR_MAX_OUTPUT_BYTES,
    env: tesseractEnv(),
  });
  // StringDecoder.write keeps back a character cut in half by the output cap.
  const raw = run.truncated ? new StringDecoder('utf8').write(run.stdout) : run.stdout.toString('utf8');
  return { text: normalizeOcrText(raw), ms: run.ms, truncated: run.truncated };
}

export interface TesseractProbe {
  /** The binary was found and answered `--version`. */
  available: boolean;
  version: string | null;
  /** Packs of REQUIRED_TESSERACT_PACKS that are installed. */
  languages: string[];
  /** Packs of REQUIRED_TESSERACT_PACKS that are not (OCR in those languages fails). */
  missing: string[];
}

/** What the tesseract install can do, for a check at start. Never rejects. */
export async function probeTesseract(binary?: string): Promise<TesseractProbe> {
  const bin = tesseractBinary(binary);
  const options = { timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024, env: tesseractEnv() };
  let version: string | null;
  try {
    const run = await runBounded(bin, ['--version'], options);
    // tesseract 4 printed its version on stderr, 5 on stdout
    version = /tesseract\s+v?(\S+)/i.exec(`${run.stdout.toString('utf8')}\n${run.stderr}`)?.[1] ?? null;
  } catch {
    return { available: false, version: null, languages: [], missing: [...REQUIRED_TESSERACT_PACKS] };
  }
  let installed = new Set<string>();
  try {
    const run = await runBounded(bin, ['--list-langs'], options);
    installed = new Set(`${run.stdout.toString('utf8')}\n${run.stderr}`.split(/\r?\n/).map((l) => l.trim()));
  } catch {
    // no tessdata at all: every pack is missing
  }
  return {
    available: true,
    version,
    languages: REQUIRED_TESSERACT_PACKS.filter((p) => installed.has(p)),
    missing: REQUIRED_TESSERACT_PACKS.filter((p) => !installed.has(p)),
  };
}
