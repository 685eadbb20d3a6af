/**
 * Writes the drawn images the image safety model's preprocessing is checked on
 * (libs/providers/src/image-safety/fixtures/): text, colours and shapes drawn by sharp,
 * one image per thing that preprocessing must get right (aspect, alpha, grey, 16 bits,
 * EXIF orientation, enlargement, each accepted format), and a video frame. Nothing
 * explicit or gory is drawn.
 * The files are committed: the reference scores (image-safety-reference.sh) are of these
 * very bytes. Run: node -r ./scripts/train-text/register.js scripts/models/image-safety-fixtures.ts
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';

const OUT = path.resolve(__dirname, '../../libs/providers/src/image-safety/fixtures');

const svg = (width: number, height: number, body: string) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);
const text = (x: number, y: number, size: number, words: string, fill = 'black') =>
  `<text x="${x}" y="${y}" font-size="${size}" font-family="DejaVu Sans" fill="${fill}">${words}</text>`;

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const files: Record<string, Buffer> = {};

  // A threat written on a card, as a meme caption: the text model's business, not the pixels'.
  files['threat-card.png'] = await sharp(svg(640, 160, `<rect width="100%" height="100%" fill="white"/>${text(20, 95, 44, 'I will kill you tonight')}`))
    .png()
    .toBuffer();
  // Wide (6:1) JPEG: a gradient banner with words; the padding bands are most of the frame.
  files['wide-banner.jpg'] = await sharp(
    svg(
      1200,
      200,
      `<defs><linearGradient id="g"><stop offset="0" stop-color="#1e3c72"/><stop offset="1" stop-color="#f0a030"/></linearGradient></defs>` +
        `<rect width="100%" height="100%" fill="url(#g)"/>${text(40, 120, 72, 'Summer sale: everything must go', 'white')}`,
    ),
  )
    .jpeg({ quality: 90 })
    .toBuffer();
  // Tall (1:3) WebP poster: shapes and a title.
  files['tall-poster.webp'] = await sharp(
    svg(
      300,
      900,
      `<rect width="100%" height="100%" fill="#fdf6e3"/><circle cx="150" cy="250" r="110" fill="#268bd2"/>` +
        `<rect x="40" y="450" width="220" height="160" fill="#859900"/>${text(30, 780, 40, 'Garden fair')}`,
    ),
  )
    .webp({ quality: 90 })
    .toBuffer();
  // A sticker: a shape on a transparent background (alpha flattened onto white).
  files['sticker-alpha.png'] = await sharp(
    svg(256, 256, `<circle cx="128" cy="128" r="100" fill="#d33682" fill-opacity="0.8"/><rect x="70" y="110" width="116" height="36" fill="#002b36"/>`),
  )
    .png()
    .toBuffer();
  // One grey channel.
  files['grey-ramp.png'] = await sharp(svg(320, 240, `<rect width="100%" height="100%" fill="#808080"/>${text(20, 130, 40, 'grey ramp', '#202020')}`))
    .greyscale()
    .toColourspace('b-w')
    .png()
    .toBuffer();
  // 16 bits a channel.
  files['deep-colour.png'] = await sharp(svg(128, 96, `<rect width="64" height="96" fill="#c04020"/><rect x="64" width="64" height="96" fill="#2040c0"/>`))
    .toColourspace('rgb16')
    .png()
    .toBuffer();
  // Stored 200×100 (red left, blue right) with EXIF orientation 6: displayed 100×200.
  files['turned-exif6.jpg'] = await sharp(svg(200, 100, `<rect width="100" height="100" fill="red"/><rect x="100" width="100" height="100" fill="blue"/>`))
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  // Tiny: enlarged 14× to fit the square.
  files['tiny.png'] = await sharp(svg(16, 12, `<rect width="8" height="12" fill="#b58900"/><rect x="8" width="8" height="12" fill="#6c71c4"/>`))
    .png()
    .toBuffer();
  // Palette GIF and TIFF, one frame each.
  files['shapes.gif'] = await sharp(svg(160, 120, `<rect width="100%" height="100%" fill="white"/><polygon points="80,10 150,110 10,110" fill="#2aa198"/>`))
    .gif()
    .toBuffer();
  files['page.tiff'] = await sharp(svg(200, 150, `<rect width="100%" height="100%" fill="#eee8d5"/>${text(10, 80, 28, 'Minutes of the meeting')}`))
    .tiff()
    .toBuffer();

  // A frame of a video (ffmpeg's testsrc2 at 2 s, 1280×720): the video path pads the
  // 224² frame ffmpeg stretched, and is compared with the package padding this full frame.
  files['video-frame.png'] = execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=3'],
    ...['-vf', 'select=eq(n\\,60)', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-'],
  ]);

  for (const [name, bytes] of Object.entries(files)) {
    fs.writeFileSync(path.join(OUT, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
