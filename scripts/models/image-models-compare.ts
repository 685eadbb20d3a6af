/**
 * The two local image models side by side on everything that can be tested here without
 * unsafe imagery: the 13 public-domain photos, the drawn fixtures of the image safety
 * model's preprocessing test, and safe hard cases drawn here (skin-coloured and red
 * fills, a cartoon face, threats and violent words written as text, video test frames).
 * For each image: nsfwjs's sexual score (porn + hentai) and sexy, the safety model's NSFW
 * and NSFL, and how many images each would push past the default policy's thresholds
 * (sexual 0.8, violence 0.7) and past low ones (0.3). Also each model's time per frame.
 * Run: node -r ./scripts/train-text/register.js scripts/models/image-models-compare.ts
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { decodeImage } from '@cds/media';
import { NsfwPool } from '../../libs/providers/src/local-image/nsfw-pool';
import { SafetyPool } from '../../libs/providers/src/image-safety/image-safety-pool';

const SHARED = path.resolve(__dirname, '../../../shared/data/images');
const DRAWN = path.resolve(__dirname, '../../libs/providers/src/image-safety/fixtures');
const svg = (w: number, h: number, body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}</svg>`);
const card = (words: string, fill = 'white', ink = 'black') =>
  sharp(
    svg(
      800,
      200,
      `<rect width="100%" height="100%" fill="${fill}"/><text x="20" y="120" font-size="48" font-family="DejaVu Sans" fill="${ink}">${words}</text>`,
    ),
  )
    .png()
    .toBuffer();
const flat = (r: number, g: number, b: number) =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

async function hardCases(): Promise<Record<string, Buffer>> {
  const testsrc = (size: string, at: number) =>
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=30:duration=${at + 1}`,
      '-vf',
      `select=eq(n\\,${at * 30})`,
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-c:v',
      'png',
      '-',
    ]);
  return {
    'skin-light (flat)': await flat(241, 194, 167),
    'skin-mid (flat)': await flat(198, 134, 66),
    'skin-dark (flat)': await flat(141, 85, 36),
    'skin gradient': await sharp(
      svg(
        400,
        300,
        `<defs><radialGradient id="g"><stop offset="0" stop-color="#f1c2a7"/><stop offset="1" stop-color="#8d5524"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`,
      ),
    )
      .png()
      .toBuffer(),
    'red (flat)': await flat(180, 10, 10),
    'dark red gradient': await sharp(
      svg(
        400,
        300,
        `<defs><linearGradient id="g"><stop offset="0" stop-color="#300"/><stop offset="1" stop-color="#c00"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`,
      ),
    )
      .png()
      .toBuffer(),
    'cartoon face': await sharp(
      svg(
        300,
        300,
        `<rect width="100%" height="100%" fill="#9cf"/><circle cx="150" cy="150" r="110" fill="#f1c27d"/><circle cx="110" cy="120" r="12"/><circle cx="190" cy="120" r="12"/><path d="M95 190 Q150 240 205 190" stroke="black" stroke-width="8" fill="none"/>`,
      ),
    )
      .png()
      .toBuffer(),
    'threat on white': await card('I will kill you tonight'),
    'threat, red on black': await card('I will kill you tonight', 'black', '#c00'),
    'violent words': await card('blood, gore, murder, knife', 'white', '#900'),
    'sexual words': await card('nude, naked, explicit, xxx'),
    'testsrc2 720p, 2 s': testsrc('1280x720', 2),
    'testsrc2 320x240, 4 s': testsrc('320x240', 4),
  };
}

async function main() {
  const images: [string, string, Buffer][] = [];
  for (const f of fs.readdirSync(SHARED).filter((f) => /\.(png|jpg)$/.test(f))) images.push(['photos', f, fs.readFileSync(path.join(SHARED, f))]);
  for (const f of fs.readdirSync(DRAWN)) images.push(['drawn', f, fs.readFileSync(path.join(DRAWN, f))]);
  for (const [name, bytes] of Object.entries(await hardCases())) images.push(['hard', name, bytes]);

  const nsfw = NsfwPool.start({ workers: 1 });
  const safety = SafetyPool.start({ workers: 1 });
  await Promise.all([nsfw.ready(), safety.ready()]);
  const rows: { set: string; name: string; sexualN: number; sexyN: number; nsfw: number; nsfl: number }[] = [];
  const timeN: number[] = [];
  const timeS: number[] = [];
  for (const [set, name, bytes] of images) {
    const [frame] = (await decodeImage(bytes, { maxPixels: 40_000_000, maxFrames: 1, modelSize: 224, ocrMaxSide: 2000, withOcrImage: false, paddedSize: 224 }))
      .frames;
    let t = performance.now();
    const n = await nsfw.classify(frame.rgb);
    timeN.push(performance.now() - t);
    t = performance.now();
    const s = await safety.classify(frame.padded!);
    timeS.push(performance.now() - t);
    rows.push({ set, name, sexualN: n.porn + n.hentai, sexyN: n.sexy, nsfw: s.nsfw, nsfl: s.nsfl });
  }
  await Promise.all([nsfw.close(), safety.close()]);

  const f3 = (x: number) => x.toFixed(3);
  console.log('| set | image | nsfwjs sexual (porn+hentai) | nsfwjs sexy | safety NSFW | safety NSFL |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.set} | ${r.name} | ${f3(r.sexualN)} | ${f3(r.sexyN)} | ${f3(r.nsfw)} | ${f3(r.nsfl)} |`);
  const over = (k: 'sexualN' | 'nsfw' | 'nsfl', t: number) => rows.filter((r) => r[k] >= t).length;
  const max = (k: 'sexualN' | 'nsfw' | 'nsfl' | 'sexyN') => f3(Math.max(...rows.map((r) => r[k])));
  console.log(`\n${rows.length} safe images. Highest: nsfwjs sexual ${max('sexualN')}, sexy ${max('sexyN')}; safety NSFW ${max('nsfw')}, NSFL ${max('nsfl')}.`);
  console.log(
    `Past the default policy (sexual 0.8, violence 0.7): nsfwjs sexual ${over('sexualN', 0.8)}, safety NSFW ${over('nsfw', 0.8)}, safety NSFL ${over('nsfl', 0.7)}.`,
  );
  console.log(`Past 0.3: nsfwjs sexual ${over('sexualN', 0.3)}, safety NSFW ${over('nsfw', 0.3)}, safety NSFL ${over('nsfl', 0.3)}.`);
  const p50 = (xs: number[]) => f3([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
  console.log(`Model time per frame, one thread, p50 ms: nsfwjs ${p50(timeN)}, safety ${p50(timeS)}.`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
