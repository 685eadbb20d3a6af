import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { decodeImage, readTextInImage, renderForOcr } from '@cds/media';
import { loadNsfwjsOnTfjs, LOCAL_IMAGE_INPUT_SIZE, LocalImageModel, NsfwPool, SafetyPool } from '@cds/providers';
import { BENCH_ADMIN_KEY, load, machine, ROOT, startNode, stopProcess, waitHealthy, writeResult } from './bench-support';

/**
 * npm run bench:image — the image path on this machine:
 *   1. the models alone, one thread each, a 224² frame classified, one at a time: nsfwjs
 *      as its authors run it, on tfjs WebAssembly in this thread (the baseline), the same
 *      model converted to ONNX in the service's worker, and the image safety model;
 *   2. decode + classify of a 1-megapixel JPEG (sharp makes both models' frames, then the
 *      two models score them side by side, one thread each), one at a time;
 *   3. the pools (IMAGE_WORKERS threads each) under concurrent load, models only;
 *   4. POST /v1/check with contentType image through the service (embedded, OCR off, so
 *      the figure is the pixel path), images/s against the baseline;
 *   5. OCR on its own (Tesseract), on a text image and on the 1-megapixel photo.
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 4), BENCH_IMAGES (default 60).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const N = Number(process.env.BENCH_IMAGES ?? 60);
const WORKERS = Math.max(1, os.availableParallelism());

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(1);
};

async function timeEach(n: number, f: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; perSecond: number }> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f(i);
    times.push(performance.now() - t);
  }
  return { p50: pct(times, 50), p99: pct(times, 99), perSecond: +((n * 1000) / (performance.now() - start)).toFixed(1) };
}

async function main() {
  const photo = await sharp(path.join(ROOT, '../shared/data/images/rocket.jpg')).resize(1155, 866, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer();
  const textPng = await sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="160"><rect width="100%" height="100%" fill="white"/>' +
        '<text x="20" y="95" font-size="44" font-family="DejaVu Sans">I will kill you tonight</text></svg>',
    ),
  )
    .png()
    .toBuffer();
  const decodeOptions = {
    maxPixels: 40_000_000,
    maxFrames: 8,
    modelSize: LOCAL_IMAGE_INPUT_SIZE,
    ocrMaxSide: 2000,
    withOcrImage: false,
    paddedSize: LOCAL_IMAGE_INPUT_SIZE,
  };
  const [frame] = (await decodeImage(photo, decodeOptions)).frames;
  const inputs = { rgb: frame.rgb, padded: frame.padded! };

  const tfjs = await loadNsfwjsOnTfjs();
  const modelAlone = await timeEach(N, () => tfjs.classify(frame.rgb));
  tfjs.dispose();
  const one = NsfwPool.start({ workers: 1 });
  const oneSafety = SafetyPool.start({ workers: 1 });
  await Promise.all([one.ready(), oneSafety.ready()]);
  const onnxAlone = await timeEach(N, () => one.classify(frame.rgb));
  const safetyAlone = await timeEach(N, () => oneSafety.classify(frame.padded!));
  await Promise.all([one.close(), oneSafety.close()]);
  const both = new LocalImageModel({ workers: 1, log: () => undefined });
  await both.classify(inputs); // loads both models
  const decodeAndClassify = await timeEach(N, async () => {
    const [f] = (await decodeImage(photo, decodeOptions)).frames;
    return both.classify({ rgb: f.rgb, padded: f.padded! });
  });
  const decodeOnly = await timeEach(N, () => decodeImage(photo, decodeOptions));
  await both.close();

  const pool = new LocalImageModel({ workers: WORKERS, log: () => undefined });
  await pool.classify(inputs);
  const started = performance.now();
  await Promise.all(Array.from({ length: N * 2 }, () => pool.classify(inputs)));
  const poolPerSecond = +((N * 2 * 1000) / (performance.now() - started)).toFixed(1);
  await pool.close();

  const ocrText = await timeEach(10, () => readTextInImage(textPng, { language: 'en', timeoutMs: 30_000 }));
  const ocrPhoto = await timeEach(5, async () => readTextInImage(await renderForOcr(photo, decodeOptions), { language: 'en', timeoutMs: 60_000 }));

  const port = 4400;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-bench-img-'));
  const svc = startNode(path.join(ROOT, 'dist/apps/api/src/main.js'), {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_API_KEY: BENCH_ADMIN_KEY,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
    IMAGE_OCR: 'off',
    IMAGE_WORKERS: String(WORKERS),
    IMAGE_MODEL_PRELOAD: 'true',
  });
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${BENCH_ADMIN_KEY}` };
  const body = () => JSON.stringify({ content: photo.toString('base64'), contentType: 'image', policyId: 'default' });
  let service;
  try {
    await waitHealthy(`${base}/health`);
    const warm = await fetch(`${base}/v1/check`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: body() });
    if (!warm.ok) throw new Error(`warm-up answered ${warm.status}: ${await warm.text()}`);
    await load('warmup', `${base}/v1/check`, auth, body, 3, CONNECTIONS);
    service = await load('POST /v1/check image', `${base}/v1/check`, auth, body, SECONDS, CONNECTIONS);
  } finally {
    await stopProcess(svc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    workers: WORKERS,
    photo: { width: 1155, height: 866, bytes: photo.length },
    modelAlone,
    onnxAlone,
    safetyAlone,
    decodeOnly,
    decodeAndClassify,
    poolPerSecond,
    service,
    ocrText,
    ocrPhoto,
    ratio: +(service.rps / modelAlone.perSecond).toFixed(2),
  };
  console.log(`machine: ${report.machine}; ${WORKERS} image worker threads; 1155×866 JPEG (${photo.length} bytes)`);
  console.log('| what | images/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  console.log(`| nsfwjs on tfjs wasm, 1 thread (baseline) | ${modelAlone.perSecond} | ${modelAlone.p50} | ${modelAlone.p99} |`);
  console.log(`| nsfwjs converted to ONNX, 1 worker thread | ${onnxAlone.perSecond} | ${onnxAlone.p50} | ${onnxAlone.p99} |`);
  console.log(`| image safety model alone, 1 thread | ${safetyAlone.perSecond} | ${safetyAlone.p50} | ${safetyAlone.p99} |`);
  console.log(`| decode (sharp) of the 1 MP JPEG, both models' frames | ${decodeOnly.perSecond} | ${decodeOnly.p50} | ${decodeOnly.p99} |`);
  console.log(
    `| decode + classify, both models side by side, 1 thread each | ${decodeAndClassify.perSecond} | ${decodeAndClassify.p50} | ${decodeAndClassify.p99} |`,
  );
  console.log(`| both models, ${WORKERS} threads each, concurrent | ${poolPerSecond} | | |`);
  console.log(`| POST /v1/check image, OCR off, -c ${CONNECTIONS} | ${service.rps} | ${service.p50} | ${service.p99} |`);
  console.log(`| OCR of a 640×160 text image | ${ocrText.perSecond} | ${ocrText.p50} | ${ocrText.p99} |`);
  console.log(`| OCR of the 1 MP photo (grey PNG made, then read) | ${ocrPhoto.perSecond} | ${ocrPhoto.p50} | ${ocrPhoto.p99} |`);
  console.log(`service ÷ nsfwjs on tfjs in one thread: ${report.ratio}`);
  console.log(`written to ${writeResult('image', report)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
