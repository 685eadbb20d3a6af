/**
 * Files built to hurt, each ending in its exact error code without decoding what it claims,
 * and no ffmpeg left behind. Where a failure is found: what ffprobe refuses is the file's
 * fault (INVALID_VIDEO / UNSUPPORTED_VIDEO_FORMAT / VIDEO_TOO_LARGE); a file that probes but
 * ends early while decoding is INVALID_VIDEO too, after the frames that did decode.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DomainError } from '@cds/errors';
import { cutEvidenceFrame } from './evidence-cut';
import { ExtractedFrame, extractFrames, ExtractFramesOptions } from './frame-extractor';
import { FramePlan, planFrames } from './frame-plan';
import { clipDir, faststart, ffmpegChildren, firstHalf, hugeFrame, pngAsMp4, randomFile, removeDir, testsrcMp4, write } from './test/clips';
import { probeVideo } from './video-probe';

// Needs Debian's ffmpeg (or FFMPEG_PATH). Per-test timeouts are hang guards.
const FAST = 10_000;
let dir: string;
let clips: Record<'good' | 'truncated' | 'faststartTruncated' | 'empty' | 'png' | 'random' | 'huge' | 'playlist', string>;

beforeAll(() => {
  dir = clipDir();
  const good = testsrcMp4(dir);
  clips = {
    good,
    truncated: firstHalf(good, 'truncated.mp4'),
    faststartTruncated: firstHalf(faststart(good), 'faststart-truncated.mp4'),
    empty: write(dir, 'empty.mp4', Buffer.alloc(0)),
    png: pngAsMp4(dir),
    random: randomFile(dir),
    huge: hugeFrame(dir),
    // An HLS playlist posing as a video: it would make the demuxer open another local file.
    playlist: write(dir, 'playlist.mp4', `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${good}\n#EXT-X-ENDLIST\n`),
  };
}, 30_000);
afterAll(() => removeDir(dir));
afterEach(() => expect(ffmpegChildren()).toEqual([]));

async function failure(job: Promise<unknown>): Promise<DomainError> {
  const outcome = await job.then(
    () => new Error('expected a DomainError; it succeeded'),
    (err: unknown) => err,
  );
  if (outcome instanceof DomainError) return outcome;
  throw outcome;
}

async function drain(file: string, plan: FramePlan, o: Partial<ExtractFramesOptions> = {}): Promise<ExtractedFrame[]> {
  const frames: ExtractedFrame[] = [];
  for await (const f of extractFrames(file, plan, { size: 16, timeoutMs: 5_000, ...o })) frames.push(f);
  return frames;
}

const everySecond = (method: FramePlan['method']) => ({ ...planFrames({ durationSeconds: 6, frameInterval: 1, maxFrames: 10, mode: 'interval' }), method });
const probe = (file: string) => probeVideo(file, { timeoutMs: 5_000 });

describe('hostile videos', () => {
  it(
    'an MP4 cut in half (index at the end, now missing): INVALID_VIDEO at the probe',
    async () => {
      expect(await failure(probe(clips.truncated))).toMatchObject({
        kind: 'invalid',
        code: 'INVALID_VIDEO',
        details: '[mov,mp4,m4a,3gp,3g2,mj2] moov atom not found',
      });
    },
    FAST,
  );

  it.each(['sequential', 'seek'] as const)(
    'a fast-start MP4 cut in half probes, then gives the frames before the cut and INVALID_VIDEO (%s)',
    async (method) => {
      expect(await probe(clips.faststartTruncated)).toMatchObject({ durationSeconds: 6 });
      const frames: number[] = [];
      const err = await failure(
        (async () => {
          for await (const f of extractFrames(clips.faststartTruncated, everySecond(method), { size: 16, timeoutMs: 5_000 })) frames.push(f.timestamp);
        })(),
      );
      expect(err).toMatchObject({
        code: 'INVALID_VIDEO',
        details: expect.stringMatching(/^the video is truncated or damaged: .*(partial file|corrupt input packet|Invalid data)/),
      });
      expect(err.details).not.toContain(dir);
      expect(frames.length).toBeGreaterThanOrEqual(1);
      expect(frames.length).toBeLessThan(6);
    },
    FAST,
  );

  it(
    'a zero-byte file: INVALID_VIDEO everywhere, ffmpeg never started',
    async () => {
      const empty = { code: 'INVALID_VIDEO', details: 'the file is empty (0 bytes)' };
      expect(await failure(probe(clips.empty))).toMatchObject(empty);
      expect(await failure(drain(clips.empty, everySecond('sequential')))).toMatchObject(empty);
      expect(await failure(cutEvidenceFrame(clips.empty, 0, { maxSide: 100, timeoutMs: 5_000 }))).toMatchObject(empty);
    },
    FAST,
  );

  it(
    'a PNG renamed .mp4: UNSUPPORTED_VIDEO_FORMAT, naming what it is',
    async () => {
      expect(await failure(probe(clips.png))).toMatchObject({
        code: 'UNSUPPORTED_VIDEO_FORMAT',
        details: 'the file is a PNG image (png_pipe), not a video in an accepted container (MP4/MOV/3GP, Matroska/WebM, AVI, MPEG-TS)',
      });
    },
    FAST,
  );

  it(
    'random bytes: INVALID_VIDEO',
    async () => {
      expect(await failure(probe(clips.random))).toMatchObject({ code: 'INVALID_VIDEO' });
    },
    FAST,
  );

  it(
    'an HLS playlist pointing at another file: refused by name, nothing else opened',
    async () => {
      expect(await failure(probe(clips.playlist))).toMatchObject({
        code: 'UNSUPPORTED_VIDEO_FORMAT',
        details: expect.stringMatching(/^the file is in the hls format, not a video/),
      });
      // extraction refuses it too, even when called without a probe
      expect(await failure(drain(clips.playlist, everySecond('sequential')))).toMatchObject({
        code: 'VIDEO_PROCESSING_FAILED',
        details: expect.stringContaining('Format not on whitelist'),
      });
    },
    FAST,
  );

  it(
    'an 8000×8000 frame: VIDEO_TOO_LARGE at the probe, and the decoder refuses it without a probe',
    async () => {
      const tooLarge = { code: 'VIDEO_TOO_LARGE', details: 'the video is 8000×8000 = 64000000 pixels per frame; the limit is 8294400 pixels' };
      expect(await failure(probeVideo(clips.huge, { timeoutMs: 5_000, maxPixels: 3840 * 2160 }))).toMatchObject(tooLarge);
      const plan = planFrames({ durationSeconds: 0.04, frameInterval: 1, maxFrames: 1, mode: 'interval' });
      expect(await failure(drain(clips.huge, plan, { maxPixels: 3840 * 2160 }))).toMatchObject(tooLarge);
      expect(await failure(cutEvidenceFrame(clips.huge, 0, { maxSide: 100, timeoutMs: 5_000, maxPixels: 3840 * 2160 }))).toMatchObject(tooLarge);
    },
    FAST,
  );

  it(
    'a 1 ms deadline: VIDEO_PROCESSING_FAILED, timed out, for the probe too',
    async () => {
      expect(await failure(probeVideo(clips.good, { timeoutMs: 1 }))).toMatchObject({ code: 'VIDEO_PROCESSING_FAILED', details: 'timed out after 1 ms' });
    },
    FAST,
  );

  it(
    'paths that are not a local video file are refused before ffmpeg runs',
    async () => {
      expect(await failure(probe('http://127.0.0.1:1/v.mp4'))).toMatchObject({
        code: 'VIDEO_PROCESSING_FAILED',
        details: 'the video must be a local file, not a URL',
      });
      expect(await failure(probe(dir))).toMatchObject({ code: 'VIDEO_PROCESSING_FAILED', details: 'the video path is not a regular file' });
      expect(await failure(probe(path.join(dir, 'nope.mp4')))).toMatchObject({
        code: 'VIDEO_PROCESSING_FAILED',
        details: 'the video file cannot be read (ENOENT)',
      });
    },
    FAST,
  );

  it(
    'a missing ffmpeg binary is FFMPEG_UNAVAILABLE, not a raw spawn error',
    async () => {
      const binaries = { ffmpeg: '/nonexistent/ffmpeg', ffprobe: '/nonexistent/ffprobe', source: 'FFMPEG_PATH' as const };
      const unavailable = { kind: 'unavailable', code: 'FFMPEG_UNAVAILABLE', details: expect.stringContaining('(ENOENT)') };
      expect(await failure(probeVideo(clips.good, { timeoutMs: 5_000, binaries }))).toMatchObject(unavailable);
      for (const method of ['sequential', 'seek'] as const) {
        expect(await failure(drain(clips.good, everySecond(method), { binaries }))).toMatchObject(unavailable);
      }
      expect(await failure(cutEvidenceFrame(clips.good, 0, { maxSide: 100, timeoutMs: 5_000, binaries }))).toMatchObject(unavailable);
    },
    FAST,
  );

  it('the file is still there and untouched after all of it', () => {
    expect(fs.statSync(clips.good).size).toBeGreaterThan(10_000);
  });
});
