import * as fs from 'node:fs';
import sharp from 'sharp';
import { OcrEngine, openOcrEngine } from './ocr-engine';
import { OcrTimeoutError, OcrUnavailableError } from './ocr.errors';
import { REQUIRED_TESSERACT_PACKS } from './tesseract.args';

// tesseract.js and its @tesseract.js-data packs are optional dependencies, installed by
// `npm install`; the binary cases need tesseract (as .ci/run installs it). Fonts: DejaVu.
jest.setTimeout(60_000);

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function textImage(text: string, width = 700, height = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="white"/>
    <text x="20" y="${height / 2 + 16}" font-size="40" font-family="DejaVu Sans, sans-serif" fill="black">${escapeXml(text)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const words = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

describe('the tesseract.js engine (WebAssembly, from npm)', () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await openOcrEngine({ choice: 'tesseract.js', concurrency: 1 });
  });
  afterAll(() => engine?.close());

  it('has the packs of the npm registry: every language but Russian', () => {
    expect(engine.name).toBe('tesseract.js');
    expect(engine.version).toMatch(/^tesseract\.js \d+\.\d+\.\d+ \(core \d+\.\d+\.\d+\)$/);
    expect([...engine.packs].sort()).toEqual(REQUIRED_TESSERACT_PACKS.filter((p) => p !== 'rus').sort());
  });

  it('reads an English sentence, then a German one with de (its worker re-initialised)', async () => {
    const en = await engine.read(await textImage('I will kill you tonight'), { language: 'en', timeoutMs: 20_000 });
    expect(words(en.text)).toContain('i will kill you tonight');
    expect(en.plan).toEqual({ languages: 'eng', missing: [] });
    const de = await engine.read(await textImage('Ich werde dich heute töten'), { language: 'de', timeoutMs: 20_000 });
    expect(words(de.text)).toContain('ich werde dich heute töten');
    expect(de.plan).toEqual({ languages: 'deu+eng', missing: [] });
  });

  it('reads Russian with English and says rus was missing, rather than failing', async () => {
    const ru = await engine.read(await textImage('STOP 2026'), { language: 'ru', timeoutMs: 20_000 });
    expect(ru.plan).toEqual({ languages: 'eng', missing: ['rus'] });
    expect(words(ru.text)).toContain('stop 2026');
  });

  it('keeps only the first maxOutputBytes of the text', async () => {
    const r = await engine.read(await textImage('I will kill you tonight'), { language: 'en', timeoutMs: 20_000, maxOutputBytes: 6 });
    expect(r).toMatchObject({ truncated: true, text: 'I will' });
  });

  it('stops a read at its deadline (its worker terminated), and the next read gets a new worker', async () => {
    const png = await textImage('I will kill you tonight');
    await expect(engine.read(png, { language: 'en', timeoutMs: 1 })).rejects.toBeInstanceOf(OcrTimeoutError);
    const again = await engine.read(png, { language: 'en', timeoutMs: 20_000 });
    expect(words(again.text)).toContain('i will kill you tonight');
  });

  it('refuses what is not a PNG before any worker sees it', async () => {
    await expect(engine.read(Buffer.from('not a png'), { language: 'en', timeoutMs: 20_000 })).rejects.toMatchObject({ code: 'OCR_INPUT_REJECTED' });
  });

  it('writes no traineddata into the working directory (its cache is off)', () => {
    expect(fs.readdirSync(process.cwd()).filter((f) => f.endsWith('.traineddata'))).toEqual([]);
  });
});

describe('openOcrEngine', () => {
  it('prefers the tesseract binary when it runs (auto)', async () => {
    const engine = await openOcrEngine({ choice: 'auto', concurrency: 1 });
    try {
      expect(engine.name).toBe('tesseract');
      expect(engine.packs.size).toBe(REQUIRED_TESSERACT_PACKS.length);
      expect(engine.plan('ru')).toEqual({ languages: 'rus+eng', missing: [] });
    } finally {
      await engine.close();
    }
  });

  it('falls back to tesseract.js when the binary does not run (auto)', async () => {
    const engine = await openOcrEngine({ choice: 'auto', concurrency: 1, binary: '/nonexistent/tesseract' });
    try {
      expect(engine.name).toBe('tesseract.js');
    } finally {
      await engine.close();
    }
  });

  it('is unavailable, naming what it tried, when the binary alone is asked for and does not run', async () => {
    const err = await openOcrEngine({ choice: 'tesseract', concurrency: 1, binary: '/nonexistent/tesseract' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OcrUnavailableError);
    expect((err as Error).message).toContain('the tesseract binary (not found or does not run)');
  });
});
