/** Small videos made by ffmpeg from its own sources, for the integration suites. */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const FF = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'];
const H264 = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'];

export function clipDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cds-video-'));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

function ffmpeg(out: string, args: string[]): string {
  execFileSync('ffmpeg', [...FF, ...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}

/** 6 s of testsrc2 (moving, no cuts), 320×240 at 25 fps, H.264 in MP4 (moov at the end). */
export const testsrcMp4 = (dir: string, seconds = 6) =>
  ffmpeg(path.join(dir, 'testsrc.mp4'), ['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${seconds}`, ...H264]);

/** The same in WebM, VP9 at its fastest. */
export const testsrcWebm = (dir: string) =>
  ffmpeg(path.join(dir, 'testsrc.webm'), [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x240:rate=25:duration=6',
    '-c:v',
    'libvpx-vp9',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
  ]);

/** H.264 and a Vorbis sine in Matroska. */
export const testsrcMkv = (dir: string) =>
  ffmpeg(path.join(dir, 'testsrc.mkv'), [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x240:rate=25:duration=6',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=6',
    ...H264,
    '-c:a',
    'libvorbis',
  ]);

/** 2 s of red then 2 s of blue: one hard cut at 2 s. */
export const redThenBlue = (dir: string, size = '320x240') =>
  ffmpeg(path.join(dir, `red-blue-${size}.mp4`), [
    '-f',
    'lavfi',
    '-i',
    `color=c=red:s=${size}:r=25:d=2`,
    '-f',
    'lavfi',
    '-i',
    `color=c=blue:s=${size}:r=25:d=2`,
    '-filter_complex',
    '[0:v][1:v]concat=n=2:v=1:a=0',
    ...H264,
  ]);

/** A grey ramp: the level is 30 per second (0 at 0 s, 180 at 6 s), so a frame's brightness tells its time. */
export const greyRamp = (dir: string) =>
  ffmpeg(path.join(dir, 'ramp.mp4'), ['-f', 'lavfi', '-i', "color=c=black:s=64x64:r=25:d=6,format=gray,geq=lum='T*30'", ...H264]);

/**
 * 30 s of MPEG-TS, 64×64: red until 12 s, white until 24 s, then blue. One keyframe every
 * `gop` seconds (none at the cuts), no index: ffmpeg's input seeks there land late.
 */
export const colourBlocksTs = (dir: string, gop: number) =>
  ffmpeg(path.join(dir, `blocks-gop${gop}.ts`), [
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=64x64:r=25:d=12',
    '-f',
    'lavfi',
    '-i',
    'color=c=white:s=64x64:r=25:d=12',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=64x64:r=25:d=6',
    '-filter_complex',
    '[0:v][1:v][2:v]concat=n=3:v=1:a=0',
    ...H264,
    '-g',
    String(gop * 25),
    '-sc_threshold',
    '0',
    '-f',
    'mpegts',
  ]);

/** VP8 WebM written to a pipe, as a browser's MediaRecorder writes it: no duration, no cues. */
export function liveWebm(dir: string): string {
  const bytes = execFileSync(
    'ffmpeg',
    [...FF, '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=4', '-c:v', 'libvpx', '-deadline', 'realtime', '-f', 'webm', 'pipe:1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return write(dir, 'live.webm', bytes);
}

/** testsrc2 recorded "upright": 320×240 pixels, shown turned 90° (a display matrix; ffmpeg 5.1
 * writes one from the rotate tag only when copying the stream). */
export const rotatedMp4 = (dir: string) => {
  const plain = ffmpeg(path.join(dir, 'unrotated.mp4'), ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=1', ...H264]);
  return ffmpeg(path.join(dir, 'rotated.mp4'), ['-i', plain, '-c', 'copy', '-metadata:s:v:0', 'rotate=90']);
};

/** One 8000×8000 frame of grey: 64 megapixels in a few hundred kB. */
export const hugeFrame = (dir: string) =>
  ffmpeg(path.join(dir, 'huge.mp4'), [
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:s=8000x8000:d=0.04',
    '-frames:v',
    '1',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
  ]);

/** The first half of a file's bytes. */
export function firstHalf(file: string, name: string): string {
  const bytes = fs.readFileSync(file);
  const out = path.join(path.dirname(file), name);
  fs.writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length / 2)));
  return out;
}

/** An MP4 with its index first (-movflags +faststart), as streamed files are: half of it still probes. */
export const faststart = (file: string) => {
  const out = file.replace(/\.mp4$/, '-faststart.mp4');
  return ffmpeg(out, ['-i', file, '-c', 'copy', '-movflags', '+faststart']);
};

/** A PNG named like a video. */
export const pngAsMp4 = (dir: string) => {
  const png = ffmpeg(path.join(dir, 'red.png'), ['-f', 'lavfi', '-i', 'color=c=red:s=64x64', '-frames:v', '1']);
  const out = path.join(dir, 'png.mp4');
  fs.copyFileSync(png, out);
  return out;
};

export function write(dir: string, name: string, bytes: Buffer | string): string {
  const out = path.join(dir, name);
  fs.writeFileSync(out, bytes);
  return out;
}

export const randomFile = (dir: string) => write(dir, 'random.mp4', randomBytes(64 * 1024));

/** Mean of each channel of an RGB buffer. */
export function meanRgb(rgb: Buffer): [number, number, number] {
  const sum = [0, 0, 0];
  for (let i = 0; i < rgb.length; i += 3) for (let c = 0; c < 3; c++) sum[c] += rgb[i + c];
  const n = rgb.length / 3;
  return [sum[0] / n, sum[1] / n, sum[2] / n];
}

/** ffmpeg and ffprobe children of this process, running or zombie ("Z ... [ffmpeg] <defunct>"). */
export function ffmpegChildren(): string[] {
  const ps = execFileSync('ps', ['-eo', 'ppid=,stat=,args='], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(`${process.pid} `) && /ffmpeg|ffprobe/.test(line));
}
