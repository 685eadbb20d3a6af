/**
 * Tesseract compiled to WebAssembly (`tesseract.js`, an optional npm dependency), for the
 * machines without the tesseract binary. Required only when opened, and it never fetches:
 * its traineddata comes from the `@tesseract.js-data/<pack>` packages installed beside it
 * (the LSTM `4.0.0_best_int` models), linked into one private directory that serves as its
 * langPath (tesseract.js takes one directory for every language), with its cache off (it
 * would otherwise write `<pack>.traineddata` files into the working directory).
 *
 * Up to `size` worker threads, each initialised for one language set: a read takes an idle
 * worker already set for its languages, else re-initialises an idle one (~0.2 s), else
 * starts one (~1.5 s) while fewer than `size` run, else waits. WebAssembly cannot be
 * interrupted: a read past its deadline terminates its worker (OcrTimeoutError).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Worker as TesseractWorker } from 'tesseract.js';
import { OcrError, OcrTimeoutError, OcrUnavailableError } from './ocr.errors';
import { REQUIRED_TESSERACT_PACKS } from './tesseract.args';

interface TesseractJs {
  createWorker(langs: string, oem: number, options: Record<string, unknown>): Promise<TesseractWorker>;
}

/** tesseract.js's OEM.LSTM_ONLY: the best_int models hold no legacy engine. */
const OEM_LSTM_ONLY = 1;

export interface WasmReadOptions {
  /** The `-l` value (from ocrLanguagePlan): packs this engine has, joined by `+`. */
  languages: string;
  psm: number;
  timeoutMs: number;
  maxOutputBytes: number;
}

interface Slot {
  worker: TesseractWorker;
  languages: string;
  psm: number | null;
  busy: boolean;
}

/** Where an installed pack's LSTM model is, or null when its package is not installed. */
function packModel(pack: string): string | null {
  try {
    const dir = path.dirname(require.resolve(`@tesseract.js-data/${pack}/package.json`));
    const file = path.join(dir, '4.0.0_best_int', `${pack}.traineddata.gz`);
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

function packageVersion(name: string): string | null {
  try {
    return (require(`${name}/package.json`) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

export class TesseractWasm {
  private readonly slots: Slot[] = [];
  private readonly waiters: (() => void)[] = [];
  private starting = 0;
  private closed = false;

  private constructor(
    private readonly lib: TesseractJs,
    private readonly langPath: string,
    readonly packs: ReadonlySet<string>,
    readonly version: string,
    readonly size: number,
  ) {}

  /** The engine, or OcrUnavailableError saying what is not installed. Starts no worker. */
  static open(o: { size: number }): TesseractWasm {
    let lib: TesseractJs;
    try {
      lib = require('tesseract.js') as TesseractJs;
    } catch (err) {
      throw new OcrUnavailableError(`tesseract.js is not installed (${(err as Error).message.split('\n')[0]})`);
    }
    const models = new Map<string, string>();
    for (const pack of REQUIRED_TESSERACT_PACKS) {
      const file = packModel(pack);
      if (file) models.set(pack, file);
    }
    if (!models.has('eng')) throw new OcrUnavailableError('tesseract.js is installed but @tesseract.js-data/eng is not');
    const langPath = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-tessdata-'));
    for (const [pack, file] of models) fs.symlinkSync(file, path.join(langPath, `${pack}.traineddata.gz`));
    const version = `tesseract.js ${packageVersion('tesseract.js') ?? '?'} (core ${packageVersion('tesseract.js-core') ?? '?'})`;
    return new TesseractWasm(lib, langPath, new Set(models.keys()), version, Math.max(1, o.size));
  }

  async read(png: Buffer, o: WasmReadOptions): Promise<{ text: string; truncated: boolean; ms: number }> {
    if (!(o.timeoutMs > 0) || !Number.isFinite(o.timeoutMs)) throw new RangeError(`timeoutMs must be > 0, got ${o.timeoutMs}`);
    const started = performance.now();
    const deadline = started + o.timeoutMs;
    const slot = await this.acquire(o.languages, deadline, o.timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = (async () => {
        if (slot.languages !== o.languages) {
          await slot.worker.reinitialize(o.languages, OEM_LSTM_ONLY);
          slot.languages = o.languages;
        }
        if (slot.psm !== o.psm) {
          await slot.worker.setParameters({ tessedit_pageseg_mode: String(o.psm) as never });
          slot.psm = o.psm;
        }
        return (await slot.worker.recognize(png)).data.text ?? '';
      })();
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OcrTimeoutError(o.timeoutMs)), Math.max(1, deadline - performance.now()));
      });
      const raw = await Promise.race([work, expired]);
      this.release(slot);
      const bytes = Buffer.from(raw, 'utf8');
      const truncated = bytes.length > o.maxOutputBytes;
      const text = truncated ? new StringDecoder('utf8').write(bytes.subarray(0, o.maxOutputBytes)) : raw;
      return { text, truncated, ms: Math.round(performance.now() - started) };
    } catch (err) {
      // A worker that timed out or failed mid-read is in an unknown state: replaced.
      await this.discard(slot);
      if (err instanceof OcrError) throw err;
      throw new OcrError('OCR_FAILED', `tesseract.js failed: ${String((err as Error)?.message ?? err)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Workers running (started, idle or busy). */
  get workers(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    await Promise.allSettled(slots.map((s) => s.worker.terminate()));
    fs.rmSync(this.langPath, { recursive: true, force: true });
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async acquire(languages: string, deadline: number, timeoutMs: number): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new OcrUnavailableError('the OCR engine is closed');
      const idle = this.slots.filter((s) => !s.busy);
      const slot = idle.find((s) => s.languages === languages) ?? (this.slots.length + this.starting >= this.size ? idle[0] : undefined);
      if (slot) {
        slot.busy = true;
        return slot;
      }
      if (this.slots.length + this.starting < this.size) return this.start(languages);
      const left = deadline - performance.now();
      if (left <= 0) throw new OcrTimeoutError(timeoutMs);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        // Past the deadline the waiter leaves the queue, so no later wake is spent on it.
        const timer = setTimeout(() => {
          const at = this.waiters.indexOf(wake);
          if (at >= 0) this.waiters.splice(at, 1);
          resolve();
        }, left);
        this.waiters.push(wake);
      });
    }
  }

  private async start(languages: string): Promise<Slot> {
    this.starting += 1;
    try {
      const worker = await this.lib.createWorker(languages, OEM_LSTM_ONLY, { langPath: this.langPath, cacheMethod: 'none', gzip: true });
      const slot: Slot = { worker, languages, psm: null, busy: true };
      if (this.closed) {
        await worker.terminate();
        throw new OcrUnavailableError('the OCR engine is closed');
      }
      this.slots.push(slot);
      return slot;
    } catch (err) {
      this.startFailed();
      if (err instanceof OcrError) throw err;
      throw new OcrError('OCR_FAILED', `tesseract.js could not start a worker: ${String((err as Error)?.message ?? err)}`);
    } finally {
      this.starting -= 1;
    }
  }

  /** A start that failed frees its place: one waiter tries again. */
  private startFailed(): void {
    this.waiters.shift()?.();
  }

  private release(slot: Slot): void {
    slot.busy = false;
    this.waiters.shift()?.();
  }

  private async discard(slot: Slot): Promise<void> {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    this.waiters.shift()?.();
    await slot.worker.terminate().catch(() => undefined);
  }
}
