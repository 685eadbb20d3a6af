/**
 * Which OCR engine reads text in images here: the tesseract binary when it runs (a native
 * process per image, the faster), else Tesseract compiled to WebAssembly from npm
 * (tesseract.js, in worker threads), so a machine with nothing but `npm install` still
 * reads images. Both read the same LSTM models of the same 17 packs, those installed;
 * a language without its pack is read with English and the read says so (`plan.missing`).
 */
import { OcrUnavailableError } from './ocr.errors';
import { DEFAULT_OCR_MAX_OUTPUT_BYTES, OcrResult, ReadTextOptions, checkOcrInput, probeTesseract, readTextInImage } from './tesseract.ocr';
import { OcrLanguagePlan, normalizeOcrText, ocrLanguagePlan, tesseractPsm } from './tesseract.args';
import { TesseractWasm } from './tesseract-wasm.ocr';

export type OcrEngineName = 'tesseract' | 'tesseract.js';
/** `auto`: the binary when it runs, else tesseract.js. */
export type OcrEngineChoice = 'auto' | OcrEngineName;

/** What a read is asked for, whichever engine reads: the binary's options but its path and packs. */
export type OcrReadOptions = Omit<ReadTextOptions, 'binary' | 'available'>;

export interface OcrRead extends OcrResult {
  /** The packs it was read with, and those the language needed but this engine lacks. */
  plan: OcrLanguagePlan;
}

export interface OcrEngine {
  readonly name: OcrEngineName;
  /** `tesseract 5.3.0`, `tesseract.js 7.0.0 (core 7.0.0)`. */
  readonly version: string;
  /** Packs of the 17 this engine has. */
  readonly packs: ReadonlySet<string>;
  /** Reads at once that make sense: one per core for the binary, the worker threads for tesseract.js. */
  readonly concurrency: number;
  /** How a check's language would be read: the start line and the decision name it. */
  plan(language: string): OcrLanguagePlan;
  read(png: Buffer, o: OcrReadOptions): Promise<OcrRead>;
  close(): Promise<void>;
}

export interface OpenOcrOptions {
  choice: OcrEngineChoice;
  /** Reads at once (tesseract.js: its worker threads). */
  concurrency: number;
  /** The tesseract binary (default TESSERACT_PATH, else `tesseract` on the PATH). */
  binary?: string;
}

/** The engine to use, or OcrUnavailableError naming what was tried. */
export async function openOcrEngine(o: OpenOcrOptions): Promise<OcrEngine> {
  const tried: string[] = [];
  if (o.choice !== 'tesseract.js') {
    const probe = await probeTesseract(o.binary);
    if (probe.available && probe.languages.includes('eng')) return binaryEngine(probe.version, new Set(probe.languages), o);
    tried.push(probe.available ? 'the tesseract binary (it has no English pack)' : 'the tesseract binary (not found or does not run)');
  }
  if (o.choice !== 'tesseract') {
    try {
      return wasmEngine(TesseractWasm.open({ size: o.concurrency }));
    } catch (err) {
      tried.push(`tesseract.js (${(err as Error).message})`);
    }
  }
  throw new OcrUnavailableError(`no OCR engine: tried ${tried.join('; ')}. Install tesseract-ocr, or npm install without --omit=optional`);
}

function binaryEngine(version: string | null, packs: ReadonlySet<string>, o: OpenOcrOptions): OcrEngine {
  return {
    name: 'tesseract',
    version: `tesseract ${version ?? '(version unknown)'}`,
    packs,
    concurrency: o.concurrency,
    plan: (language) => ocrLanguagePlan(language, packs),
    async read(png, r) {
      const result = await readTextInImage(png, { ...r, binary: o.binary, available: packs });
      return { ...result, plan: ocrLanguagePlan(r.language, packs) };
    },
    close: async () => undefined,
  };
}

function wasmEngine(wasm: TesseractWasm): OcrEngine {
  return {
    name: 'tesseract.js',
    version: wasm.version,
    packs: wasm.packs,
    concurrency: wasm.size,
    plan: (language) => ocrLanguagePlan(language, wasm.packs),
    async read(png, r) {
      checkOcrInput(png, r);
      const plan = ocrLanguagePlan(r.language, wasm.packs);
      const run = await wasm.read(png, {
        languages: plan.languages,
        psm: tesseractPsm(r.psm),
        timeoutMs: r.timeoutMs,
        maxOutputBytes: r.maxOutputBytes ?? DEFAULT_OCR_MAX_OUTPUT_BYTES,
      });
      return { text: normalizeOcrText(run.text), ms: run.ms, truncated: run.truncated, plan };
    },
    close: () => wasm.close(),
  };
}
