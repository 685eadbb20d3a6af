import sharp from 'sharp';
import { cutEvidenceFrame } from './evidence-cut';
import { clipDir, redThenBlue, removeDir, rotatedMp4 } from './test/clips';

// Needs Debian's ffmpeg (or FFMPEG_PATH). Per-test timeouts are hang guards.
const FAST = 10_000;
let dir: string;
let clips: { small: string; wide: string; rotated: string };

beforeAll(() => {
  dir = clipDir();
  clips = { small: redThenBlue(dir, '320x240'), wide: redThenBlue(dir, '640x360'), rotated: rotatedMp4(dir) };
}, 30_000);
afterAll(() => removeDir(dir));

async function look(jpeg: Buffer) {
  const meta = await sharp(jpeg).metadata();
  const { channels } = await sharp(jpeg).stats();
  return { format: meta.format, width: meta.width, height: meta.height, rgb: channels.slice(0, 3).map((c) => Math.round(c.mean)) };
}

describe('cutEvidenceFrame', () => {
  it(
    'gives a JPEG of the frame at the time asked, at full size when it fits maxSide',
    async () => {
      const red = await look(await cutEvidenceFrame(clips.small, 1, { maxSide: 1280, timeoutMs: 5_000 }));
      expect(red).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
      expect(red.rgb[0]).toBeGreaterThan(200);
      const blue = await look(await cutEvidenceFrame(clips.small, 3, { maxSide: 1280, timeoutMs: 5_000 }));
      expect(blue.rgb[2]).toBeGreaterThan(200);
      expect(blue.rgb[0]).toBeLessThan(40);
    },
    FAST,
  );

  it(
    'shrinks the longest side to maxSide, keeping the aspect ratio',
    async () => {
      expect(await look(await cutEvidenceFrame(clips.wide, 1, { maxSide: 320, timeoutMs: 5_000 }))).toMatchObject({ width: 320, height: 180 });
    },
    FAST,
  );

  it(
    'turns a video shot upright as players do',
    async () => {
      expect(await look(await cutEvidenceFrame(clips.rotated, 0.5, { maxSide: 1280, timeoutMs: 5_000 }))).toMatchObject({ width: 240, height: 320 });
    },
    FAST,
  );

  it(
    'writes a smaller file at a lower quality',
    async () => {
      const high = await cutEvidenceFrame(clips.rotated, 0.5, { maxSide: 1280, timeoutMs: 5_000, quality: 95 });
      const low = await cutEvidenceFrame(clips.rotated, 0.5, { maxSide: 1280, timeoutMs: 5_000, quality: 30 });
      expect(low.length).toBeLessThan(high.length);
    },
    FAST,
  );

  it(
    'says there is no frame past the end',
    async () => {
      await expect(cutEvidenceFrame(clips.small, 60, { maxSide: 1280, timeoutMs: 5_000 })).rejects.toMatchObject({
        code: 'VIDEO_PROCESSING_FAILED',
        details: 'no frame at 60 s (the video ends before)',
      });
    },
    FAST,
  );

  it(
    'stops at the deadline with VIDEO_PROCESSING_FAILED, timed out',
    async () => {
      await expect(cutEvidenceFrame(clips.small, 1, { maxSide: 1280, timeoutMs: 1 })).rejects.toMatchObject({
        code: 'VIDEO_PROCESSING_FAILED',
        details: 'timed out after 1 ms',
      });
    },
    FAST,
  );
});
