import { findFfmpeg } from './ffmpeg-binaries';
import { clipDir, liveWebm, removeDir, rotatedMp4, testsrcMkv, testsrcMp4, testsrcWebm } from './test/clips';
import { probeVideo } from './video-probe';

// Needs Debian's ffmpeg and ffprobe (or FFMPEG_PATH). Per-test timeouts are hang guards.
const FAST = 10_000;
let dir: string;
let clips: { mp4: string; webm: string; mkv: string; rotated: string; live: string };

beforeAll(() => {
  dir = clipDir();
  clips = { mp4: testsrcMp4(dir), webm: testsrcWebm(dir), mkv: testsrcMkv(dir), rotated: rotatedMp4(dir), live: liveWebm(dir) };
}, 30_000);
afterAll(() => removeDir(dir));

describe('findFfmpeg', () => {
  it('finds the ffmpeg and ffprobe on the PATH, and gives the same answer again', () => {
    const found = findFfmpeg({ PATH: process.env.PATH });
    expect(found).toEqual({ ffmpeg: expect.stringMatching(/\/ffmpeg$/), ffprobe: expect.stringMatching(/\/ffprobe$/), source: 'PATH' });
    expect(findFfmpeg({ PATH: process.env.PATH })).toBe(found);
  });
});

describe('probeVideo', () => {
  it(
    'describes an H.264 MP4',
    async () => {
      expect(await probeVideo(clips.mp4, { timeoutMs: 5_000 })).toEqual({
        container: 'mp4',
        codec: 'h264',
        width: 320,
        height: 240,
        durationSeconds: 6,
        fps: 25,
        frameCount: 150,
        hasAudio: false,
      });
    },
    FAST,
  );

  it(
    'describes a VP9 WebM',
    async () => {
      expect(await probeVideo(clips.webm, { timeoutMs: 5_000 })).toMatchObject({
        container: 'matroska',
        codec: 'vp9',
        width: 320,
        height: 240,
        fps: 25,
        hasAudio: false,
        durationSeconds: expect.closeTo(6, 1),
      });
    },
    FAST,
  );

  it(
    'describes a Matroska file with an audio track',
    async () => {
      expect(await probeVideo(clips.mkv, { timeoutMs: 5_000 })).toMatchObject({
        container: 'matroska',
        codec: 'h264',
        width: 320,
        height: 240,
        fps: 25,
        frameCount: null,
        hasAudio: true,
        durationSeconds: expect.closeTo(6, 1),
      });
    },
    FAST,
  );

  it(
    'measures a WebM whose header gives no duration (as a browser records it) from its packets',
    async () => {
      expect(await probeVideo(clips.live, { timeoutMs: 5_000 })).toMatchObject({ container: 'matroska', codec: 'vp8', durationSeconds: 4, fps: 25 });
    },
    FAST,
  );

  it(
    'gives the size as displayed for a video shot upright',
    async () => {
      expect(await probeVideo(clips.rotated, { timeoutMs: 5_000 })).toMatchObject({ width: 240, height: 320 });
    },
    FAST,
  );

  it(
    'refuses a frame size over maxPixels',
    async () => {
      await expect(probeVideo(clips.mp4, { timeoutMs: 5_000, maxPixels: 320 * 239 })).rejects.toMatchObject({
        code: 'VIDEO_TOO_LARGE',
        details: 'the video is 320×240 = 76800 pixels per frame; the limit is 76480 pixels',
      });
    },
    FAST,
  );
});
