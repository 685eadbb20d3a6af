import { DomainError } from '@cds/errors';
import { ExtractedFrame, extractFrames, ExtractFramesOptions } from './frame-extractor';
import { FramePlan, planFrames } from './frame-plan';
import { clipDir, ffmpegChildren, greyRamp, liveWebm, meanRgb, redThenBlue, removeDir, testsrcMp4 } from './test/clips';

// Needs Debian's ffmpeg (or FFMPEG_PATH). Per-test timeouts are hang guards.
const FAST = 10_000;
const SIZE = 32;
const OPTIONS: ExtractFramesOptions = { size: SIZE, timeoutMs: 10_000 };
let dir: string;
let clips: { testsrc: string; redBlue: string; ramp: string; live: string };

beforeAll(() => {
  dir = clipDir();
  clips = { testsrc: testsrcMp4(dir), redBlue: redThenBlue(dir), ramp: greyRamp(dir), live: liveWebm(dir) };
}, 30_000);
afterAll(() => removeDir(dir));

async function all(file: string, plan: FramePlan, o: Partial<ExtractFramesOptions> = {}): Promise<ExtractedFrame[]> {
  const frames: ExtractedFrame[] = [];
  for await (const frame of extractFrames(file, plan, { ...OPTIONS, ...o })) frames.push(frame);
  return frames;
}

const interval = (durationSeconds: number, frameInterval: number, method: FramePlan['method'], maxFrames = 100): FramePlan => ({
  ...planFrames({ durationSeconds, frameInterval, maxFrames, mode: 'interval' }),
  method,
});
const scenes = (durationSeconds: number, frameInterval: number, maxFrames = 100) => planFrames({ durationSeconds, frameInterval, maxFrames, mode: 'scenes' });

/** The ramp's grey level is 30 per second: the time a frame was taken from. */
const rampTime = (f: ExtractedFrame) => meanRgb(f.rgb)[0] / 30;
const colour = (f: ExtractedFrame) => {
  const [r, g, b] = meanRgb(f.rgb);
  return r > 200 && g < 40 && b < 40 ? 'red' : b > 200 && r < 40 && g < 40 ? 'blue' : `rgb(${r}, ${g}, ${b})`;
};

describe.each(['sequential', 'seek'] as const)('extractFrames, interval mode, %s', (method) => {
  it(
    'gives the planned frames in order, each size×size×3 bytes of RGB',
    async () => {
      const plan = interval(6, 1, method);
      const frames = await all(clips.testsrc, plan);
      expect(frames.map((f) => [f.index, f.timestamp, f.scene])).toEqual([
        [0, 0, true],
        [1, 1, false],
        [2, 2, false],
        [3, 3, false],
        [4, 4, false],
        [5, 5, false],
      ]);
      for (const f of frames) expect(f.rgb.length).toBe(SIZE * SIZE * 3);
    },
    FAST,
  );

  it(
    'gives frames of a width and height when asked (the aspect kept by the caller), each width×height×3 bytes',
    async () => {
      const frames = await all(clips.testsrc, interval(6, 2, method), { size: { width: 48, height: 36 } });
      expect(frames.map((f) => [f.index, f.width, f.height, f.rgb.length])).toEqual([0, 1, 2].map((i) => [i, 48, 36, 48 * 36 * 3]));
    },
    FAST,
  );

  it(
    'takes the frame shown at each time: red at 1 s, blue at 3 s',
    async () => {
      const frames = await all(clips.redBlue, interval(4, 1, method));
      expect(frames.map((f) => [f.timestamp, colour(f)])).toEqual([
        [0, 'red'],
        [1, 'red'],
        [2, 'blue'],
        [3, 'blue'],
      ]);
    },
    FAST,
  );

  it(
    'takes each frame within a few frames of its time (a grey ramp tells the time)',
    async () => {
      const frames = await all(clips.ramp, interval(6, 0.75, method));
      expect(frames.map((f) => f.timestamp)).toEqual([0, 0.75, 1.5, 2.25, 3, 3.75, 4.5, 5.25]);
      for (const f of frames) expect(Math.abs(rampTime(f) - f.timestamp)).toBeLessThan(0.2);
    },
    FAST,
  );

  it(
    'spreads a widened plan over the whole video',
    async () => {
      const frames = await all(clips.ramp, interval(6, 0.5, method, 4));
      expect(frames.map((f) => f.timestamp)).toEqual([0, 1.5, 3, 4.5]);
      expect(rampTime(frames[3])).toBeCloseTo(4.5, 0);
    },
    FAST,
  );

  it(
    'resumes at fromIndex with exactly the remaining frames, the same as a full run',
    async () => {
      const plan = interval(6, 0.5, method);
      const full = await all(clips.ramp, plan);
      const rest = await all(clips.ramp, plan, { fromIndex: 7 });
      expect(full).toHaveLength(12);
      expect(rest.map((f) => [f.index, f.timestamp, f.scene])).toEqual(full.slice(7).map((f) => [f.index, f.timestamp, f.scene]));
      rest.forEach((f, i) => expect(Math.abs(rampTime(f) - rampTime(full[7 + i]))).toBeLessThan(0.2));
      expect(await all(clips.ramp, plan, { fromIndex: 12 })).toEqual([]);
    },
    FAST,
  );

  it(
    'reads a WebM without cues or duration, as a browser records it',
    async () => {
      const frames = await all(clips.live, interval(4, 1, method), { fromIndex: 1 });
      expect(frames.map((f) => [f.index, f.timestamp])).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
      ]);
    },
    FAST,
  );

  it(
    'kills and reaps ffmpeg when the caller stops early',
    async () => {
      for await (const f of extractFrames(clips.testsrc, interval(6, 0.5, method), OPTIONS)) if (f.index === 1) break;
      expect(ffmpegChildren()).toEqual([]);
    },
    FAST,
  );

  it(
    'stops at the deadline with VIDEO_PROCESSING_FAILED, timed out',
    async () => {
      const err = await all(clips.testsrc, interval(6, 1, method), { timeoutMs: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ kind: 'invalid', code: 'VIDEO_PROCESSING_FAILED', details: 'timed out after 1 ms' });
      expect(ffmpegChildren()).toEqual([]);
    },
    FAST,
  );
});

describe('extractFrames, scenes mode', () => {
  it(
    'finds the first frame and the cut at 2 s, and nothing else',
    async () => {
      const frames = await all(clips.redBlue, scenes(4, 0.5));
      expect(frames.map((f) => [f.index, f.scene, colour(f)])).toEqual([
        [0, true, 'red'],
        [1, true, 'blue'],
      ]);
      expect(frames[0].timestamp).toBe(0);
      expect(frames[1].timestamp).toBeCloseTo(2, 1);
    },
    FAST,
  );

  it(
    'gives only the first frame of a clip without cuts',
    async () => {
      const frames = await all(clips.testsrc, scenes(6, 0.5));
      expect(frames.map((f) => [f.index, f.timestamp])).toEqual([[0, 0]]);
    },
    FAST,
  );

  it(
    'stops at maxFrames',
    async () => {
      const frames = await all(clips.redBlue, scenes(4, 0.5, 1));
      expect(frames.map((f) => colour(f))).toEqual(['red']);
    },
    FAST,
  );

  it(
    'resumes after fromTimestamp: the cut comes back with its index and time',
    async () => {
      const frames = await all(clips.redBlue, scenes(4, 0.5), { fromIndex: 1, fromTimestamp: 0 });
      expect(frames.map((f) => [f.index, f.scene, colour(f)])).toEqual([[1, true, 'blue']]);
      expect(frames[0].timestamp).toBeCloseTo(2, 1);
      expect(await all(clips.redBlue, scenes(4, 0.5), { fromIndex: 2, fromTimestamp: 2 })).toEqual([]);
    },
    FAST,
  );

  it(
    'refuses to resume without fromTimestamp',
    async () => {
      await expect(all(clips.redBlue, scenes(4, 0.5), { fromIndex: 1 })).rejects.toThrow(RangeError);
    },
    FAST,
  );

  it(
    'kills and reaps ffmpeg when the caller stops early',
    async () => {
      for await (const f of extractFrames(clips.redBlue, scenes(4, 0.5), OPTIONS)) if (f.index === 0) break;
      expect(ffmpegChildren()).toEqual([]);
    },
    FAST,
  );
});
