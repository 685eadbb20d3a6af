/**
 * MPEG-TS has no index: ffmpeg's input seek there can land past the keyframe before the
 * target (a frame up to a GOP late) or after the last keyframe (no frame at all). In a TS,
 * frames are sampled in one pass, resumes decode from the start, evidence seeks decode a
 * preroll first and fall back to decoding from the start.
 */
import { cutEvidenceFrame } from './evidence-cut';
import { ExtractedFrame, extractFrames, ExtractFramesOptions } from './frame-extractor';
import { FramePlan, planFrames } from './frame-plan';
import { clipDir, colourBlocksTs, meanRgb, removeDir } from './test/clips';
import { probeVideo } from './video-probe';

// Needs Debian's ffmpeg (or FFMPEG_PATH). Per-test timeouts are hang guards.
const FAST = 10_000;
let dir: string;
let clips: { gop2: string; oneKeyframe: string };

beforeAll(() => {
  dir = clipDir();
  clips = { gop2: colourBlocksTs(dir, 2), oneKeyframe: colourBlocksTs(dir, 60) };
}, 30_000);
afterAll(() => removeDir(dir));

async function all(file: string, plan: FramePlan, o: Partial<ExtractFramesOptions> = {}): Promise<ExtractedFrame[]> {
  const frames: ExtractedFrame[] = [];
  for await (const frame of extractFrames(file, plan, { size: 8, timeoutMs: 10_000, ...o })) frames.push(frame);
  return frames;
}

function colour(rgb: number[]): string {
  const [r, g, b] = rgb;
  if (r > 180 && g < 60 && b < 60) return 'red';
  if (r > 200 && g > 200 && b > 200) return 'white';
  if (b > 180 && r < 60 && g < 60) return 'blue';
  return `rgb(${rgb.map(Math.round).join(', ')})`;
}
const colourOf = (f: ExtractedFrame) => colour(meanRgb(f.rgb));

describe.each(['gop2', 'oneKeyframe'] as const)('an MPEG-TS (%s)', (name) => {
  it(
    'probes as mpegts',
    async () => {
      expect(await probeVideo(clips[name], { timeoutMs: 5_000 })).toMatchObject({ container: 'mpegts', codec: 'h264', durationSeconds: 30 });
    },
    FAST,
  );

  it.each(['sequential', 'seek'] as const)(
    'gives the frame shown at each time (%s)',
    async (method) => {
      const plan = { ...planFrames({ durationSeconds: 30, frameInterval: 11.5, maxFrames: 10, mode: 'interval' }), method };
      const frames = await all(clips[name], plan);
      expect(frames.map((f) => [f.timestamp, colourOf(f)])).toEqual([
        [0, 'red'],
        [11.5, 'red'],
        [23, 'white'],
      ]);
    },
    FAST,
  );

  it(
    'resumes just before a cut with the frames on each side of it',
    async () => {
      const plan = planFrames({ durationSeconds: 30, frameInterval: 0.5, maxFrames: 100, mode: 'interval' });
      const frames = await all(clips[name], plan, { fromIndex: 47 });
      expect(frames.slice(0, 3).map((f) => [f.index, f.timestamp, colourOf(f)])).toEqual([
        [47, 23.5, 'white'],
        [48, 24, 'blue'],
        [49, 24.5, 'blue'],
      ]);
      expect(frames).toHaveLength(13);
    },
    FAST,
  );

  it(
    'cuts evidence on either side of a cut',
    async () => {
      const evidence = async (t: number) => {
        const jpeg = await cutEvidenceFrame(clips[name], t, { maxSide: 64, timeoutMs: 5_000 });
        const sharp = (await import('sharp')).default;
        return colour((await sharp(jpeg).stats()).channels.slice(0, 3).map((c) => c.mean));
      };
      expect([await evidence(11.9), await evidence(23.9), await evidence(24.1), await evidence(29.9)]).toEqual(['red', 'white', 'blue', 'blue']);
    },
    FAST,
  );

  it(
    'finds the cuts, and resumes after a late one',
    async () => {
      const plan = planFrames({ durationSeconds: 30, frameInterval: 1, maxFrames: 10, mode: 'scenes' });
      const frames = await all(clips[name], plan);
      expect(frames.map((f) => [f.index, colourOf(f)])).toEqual([
        [0, 'red'],
        [1, 'white'],
        [2, 'blue'],
      ]);
      expect(frames.map((f) => Math.round(f.timestamp))).toEqual([0, 12, 24]);
      // resumed 1 s before the last cut
      const dense = planFrames({ durationSeconds: 30, frameInterval: 0.5, maxFrames: 100, mode: 'scenes' });
      const rest = await all(clips[name], dense, { fromIndex: 2, fromTimestamp: 23 });
      expect(rest.map((f) => [f.index, Math.round(f.timestamp), colourOf(f)])).toEqual([[2, 24, 'blue']]);
    },
    FAST,
  );
});
