import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { OcrEngine, OcrEngineName, openOcrEngine, renderForOcr } from '@cds/media';
import { machine, ROOT, writeResult } from './bench-support';

/**
 * npm run bench:ocr — the two OCR engines side by side on this machine: the tesseract
 * binary (the baseline) and tesseract.js (Tesseract in WebAssembly, the fallback where the
 * binary is missing). For each: the first read (the binary's process start; a tesseract.js
 * worker's start and model load), then reads one at a time of an English caption, a German
 * caption (another model: tesseract.js re-initialises its worker when the languages change)
 * and a 1-megapixel photo, and the throughput of two reads at a time. Env: BENCH_READS (20).
 */
const READS = Number(process.env.BENCH_READS ?? 20);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
};

function caption(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="160"><rect width="100%" height="100%" fill="white"/><text x="20" y="95" font-size="44" font-family="DejaVu Sans">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function timeReads(n: number, read: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await read();
    times.push(performance.now() - t);
  }
  return { p50: pct(times, 50), p99: pct(times, 99) };
}

async function measure(name: OcrEngineName, images: { en: Buffer; de: Buffer; photo: Buffer }) {
  const rssBefore = process.memoryUsage().rss;
  const engine: OcrEngine = await openOcrEngine({ choice: name, concurrency: 2 });
  try {
    const read = (png: Buffer, language: string) => engine.read(png, { language, timeoutMs: 60_000 });
    let t = performance.now();
    const first = await read(images.en, 'en');
    const firstMs = +(performance.now() - t).toFixed(1);
    const en = await timeReads(READS, () => read(images.en, 'en'));
    const de = await timeReads(READS, () => read(images.de, 'de'));
    const alternating = await timeReads(READS, () => read(images.en, 'en').then(() => read(images.de, 'de')));
    const photo = await timeReads(Math.max(3, READS / 4), () => read(images.photo, 'en'));
    t = performance.now();
    await Promise.all(Array.from({ length: 2 }, () => Promise.all(Array.from({ length: READS / 2 }, () => read(images.en, 'en')))));
    const twoAtATime = +((READS * 1000) / (performance.now() - t)).toFixed(1);
    const rssMb = Math.round((process.memoryUsage().rss - rssBefore) / 1e6);
    return { engine: engine.version, text: first.text, firstMs, en, de, alternatingPair: alternating, photo, twoAtATime, rssMb };
  } finally {
    await engine.close();
  }
}

async function main() {
  const photoJpeg = await sharp(path.join(ROOT, '../shared/data/images/rocket.jpg')).resize(1155, 866, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer();
  const images = {
    en: await caption('I will kill you tonight'),
    de: await caption('Ich werde dich heute töten'),
    photo: await renderForOcr(photoJpeg, { maxPixels: 40_000_000, ocrMaxSide: 2000 }),
  };
  const binary = await measure('tesseract', images);
  const wasm = await measure('tesseract.js', images);
  const report = { date: new Date().toISOString(), machine: machine(), reads: READS, binary, wasm };
  console.log(`machine: ${report.machine}; ${READS} reads each`);
  console.log('| engine | first read ms | en p50 / p99 ms | de p50 ms | en then de, p50 ms | 1 MP photo p50 ms | 2 at a time, reads/s | RSS added MB |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of [binary, wasm]) {
    console.log(
      `| ${r.engine} | ${r.firstMs} | ${r.en.p50} / ${r.en.p99} | ${r.de.p50} | ${r.alternatingPair.p50} | ${r.photo.p50} | ${r.twoAtATime} | ${r.rssMb} |`,
    );
  }
  console.log(
    `ratios tesseract.js / binary: en p50 ${(wasm.en.p50 / binary.en.p50).toFixed(2)}, photo p50 ${(wasm.photo.p50 / binary.photo.p50).toFixed(2)}, reads/s two at a time ${(wasm.twoAtATime / binary.twoAtATime).toFixed(2)}`,
  );
  console.log(`written ${writeResult('ocr', report)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
