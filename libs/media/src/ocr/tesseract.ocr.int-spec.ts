import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { OcrTimeoutError, OcrUnavailableError } from './ocr.errors';
import { REQUIRED_TESSERACT_PACKS } from './tesseract.args';
import { probeTesseract, readTextInImage } from './tesseract.ocr';

// Needs the tesseract binary with the packs of the 17 languages (Debian: tesseract-ocr and
// tesseract-ocr-<pack> for each line of scripts/ocr-languages.txt, as .ci/run installs
// them) and a font for the SVG text (Debian: fonts-dejavu-core).
jest.setTimeout(30_000);

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function textImage(text: string, width = 600, height = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="white"/>
    <text x="20" y="${height / 2 + 16}" font-size="40" font-family="DejaVu Sans, sans-serif" fill="black">${escapeXml(text)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const words = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

describe('readTextInImage (tesseract)', () => {
  it('reads an English sentence (the sans-serif capital I included)', async () => {
    const { text, ms, truncated } = await readTextInImage(await textImage('I will kill you tonight'), { language: 'en', timeoutMs: 10_000 });
    expect(words(text)).toContain('i will kill you tonight');
    expect(ms).toBeGreaterThan(0);
    expect(truncated).toBe(false);
  });

  it('reads a German sentence, umlauts included, with de', async () => {
    const { text } = await readTextInImage(await textImage('Ich werde dich heute töten'), { language: 'de', timeoutMs: 10_000 });
    expect(words(text)).toContain('ich werde dich heute töten');
  });

  it('gives an empty string for an image without text', async () => {
    const blank = await sharp({ create: { width: 600, height: 200, channels: 3, background: 'white' } })
      .png()
      .toBuffer();
    expect((await readTextInImage(blank, { language: 'en', timeoutMs: 10_000 })).text).toBe('');
  });

  it('kills tesseract at the deadline and says it timed out', async () => {
    const png = await textImage('I will kill you tonight');
    const err = await readTextInImage(png, { language: 'en', timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OcrTimeoutError);
    expect(err).toMatchObject({ code: 'OCR_TIMEOUT', message: 'tesseract timed out after 1 ms and was killed' });
  });

  it('keeps only the first maxOutputBytes of the text', async () => {
    const { text, truncated } = await readTextInImage(await textImage('I will kill you tonight'), { language: 'en', timeoutMs: 10_000, maxOutputBytes: 6 });
    expect(truncated).toBe(true);
    expect(text).toBe('I will'); // "| will kill you tonight\n" cut at 6 bytes
  });

  it("rejects with OCR_FAILED and tesseract's message when it cannot read the image", async () => {
    const cut = (await textImage('hello')).subarray(0, 60); // a PNG header, then nothing
    await expect(readTextInImage(cut, { language: 'en', timeoutMs: 10_000 })).rejects.toMatchObject({
      code: 'OCR_FAILED',
      message: expect.stringMatching(/exited with code 1: .*png/is),
    });
  });

  it('names a missing binary as OcrUnavailableError', async () => {
    const err = await readTextInImage(await textImage('hello'), { language: 'en', timeoutMs: 5_000, binary: '/nonexistent/tesseract' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OcrUnavailableError);
    expect((err as Error).message).toMatch(/cannot run "\/nonexistent\/tesseract" \(ENOENT\)/);
  });

  it('refuses what is not a PNG, too many bytes or too many pixels, before running anything', async () => {
    const png = await textImage('hello');
    const jpeg = await sharp(png).jpeg().toBuffer();
    await expect(readTextInImage(jpeg, { language: 'en', timeoutMs: 5_000 })).rejects.toMatchObject({
      code: 'OCR_INPUT_REJECTED',
      message: 'the image for OCR is not a PNG',
    });
    await expect(readTextInImage(png, { language: 'en', timeoutMs: 5_000, maxInputBytes: 100 })).rejects.toThrow(/more than 100$/);
    await expect(readTextInImage(png, { language: 'en', timeoutMs: 5_000, maxPixels: 1000 })).rejects.toThrow(/600×200, more than 1000 pixels/);
  });
});

/** The packs CI installs (.ci/run: tesseract-ocr-<line>). */
const INSTALLED_BY_CI = fs
  .readFileSync(path.resolve(__dirname, '../../../../scripts/ocr-languages.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter(Boolean);

describe('probeTesseract', () => {
  it('CI installs exactly the 17 packs the service asks for', () => {
    expect(INSTALLED_BY_CI).toHaveLength(17);
    expect([...INSTALLED_BY_CI].sort()).toEqual([...REQUIRED_TESSERACT_PACKS].sort());
  });

  it('finds the binary, its version and every one of the 17 packs installed', async () => {
    const probe = await probeTesseract();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/^\d+\.\d+/);
    expect(probe.missing).toEqual([]);
    expect([...probe.languages].sort()).toEqual([...INSTALLED_BY_CI].sort());
  });

  it('reports a missing binary as unavailable, every pack missing', async () => {
    expect(await probeTesseract('/nonexistent/tesseract')).toEqual({ available: false, version: null, languages: [], missing: REQUIRED_TESSERACT_PACKS });
  });
});
