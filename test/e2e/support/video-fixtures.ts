/** Videos for the e2e suites, made by ffmpeg from its own sources (and a frame of text
 * drawn by sharp): a few seconds, small, so a suite stays fast. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { SHARED_IMAGES } from './image-fixtures';

const FF = ['-hide_banner', '-loglevel', 'error', '-y'];

export interface Clips {
  dir: string;
  /** 6 s of testsrc2, 320×240, H.264 in MP4. */
  safe: string;
  /** 3 s of plain blue, then 3 s of a white frame with a threat written on it: a scene cut at 3 s. */
  threat: string;
  /** 10 s of a still photo (coffee.png, 640×360, 5 fps: a still needs no more) with the threat
   * as a caption from 3 s to 7 s: no scene cut, and sampled every 2 s only the frames at 4
   * and 6 s show it. */
  caption: string;
  /** The safe clip cut in half. */
  truncated: string;
  /** A PNG renamed .mp4. */
  pngAsMp4: string;
  random: string;
  /** One frame of 4800×4800 (23 Mpixels, past the default VIDEO_MAX_PIXELS of 4K). */
  hugeFrame: string;
}

export async function makeClips(threatText: string): Promise<Clips> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-clips-'));
  const p = (name: string) => path.join(dir, name);
  execFileSync('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=6', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', p('safe.mp4')]);
  const card = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><rect width="100%" height="100%" fill="white"/>` +
        `<text x="30" y="190" font-size="40" font-family="DejaVu Sans" fill="black">${threatText}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();
  fs.writeFileSync(p('card.png'), card);
  execFileSync('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:size=640x360:rate=25:duration=3',
    '-loop',
    '1',
    '-framerate',
    '25',
    '-t',
    '3',
    '-i',
    p('card.png'),
    '-filter_complex',
    '[1:v]format=yuv420p,setsar=1[b];[0:v]format=yuv420p,setsar=1[a];[a][b]concat=n=2:v=1[v]',
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    p('threat.mp4'),
  ]);
  const caption = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="70"><rect width="100%" height="100%" fill="white"/>` +
        `<text x="20" y="50" font-size="40" font-family="DejaVu Sans" fill="black">${threatText}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();
  fs.writeFileSync(p('caption.png'), caption);
  execFileSync('ffmpeg', [
    ...FF,
    ...['-loop', '1', '-framerate', '5', '-t', '10', '-i', path.join(SHARED_IMAGES, 'coffee.png')],
    ...['-loop', '1', '-framerate', '5', '-t', '10', '-i', p('caption.png')],
    '-filter_complex',
    "[0:v]scale=640:360,setsar=1[bg];[bg][1:v]overlay=x=20:y=270:enable='between(t,3,7)',format=yuv420p[v]",
    ...['-map', '[v]', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', p('caption.mp4')],
  ]);
  execFileSync('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:size=4800x4800:rate=1:duration=1',
    '-frames:v',
    '1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    p('huge.mp4'),
  ]);
  const safe = fs.readFileSync(p('safe.mp4'));
  fs.writeFileSync(p('truncated.mp4'), safe.subarray(0, Math.floor(safe.length / 2)));
  fs.writeFileSync(p('png.mp4'), card);
  fs.writeFileSync(p('random.mp4'), Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919 + 13) % 256)));
  return {
    dir,
    safe: p('safe.mp4'),
    threat: p('threat.mp4'),
    caption: p('caption.mp4'),
    truncated: p('truncated.mp4'),
    pngAsMp4: p('png.mp4'),
    random: p('random.mp4'),
    hugeFrame: p('huge.mp4'),
  };
}

/** POST a multipart form (fields, and the video file) to `url`. */
export async function uploadVideo(url: string, key: string, file: Buffer | null, fields: Record<string, string>, filename = 'clip.mp4') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('video', new Blob([file], { type: 'video/mp4' }), filename);
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}
