import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiClient, Topology } from '@cds/testing';
import { TestReceiver } from '../e2e/webhook-test-receiver';
import { MediaServer } from '../e2e/support/media-server';
import { decisionsInLog, sleep, startTopology, videoCheckpointsInLog, waitUntil } from './distributed-support';

jest.setTimeout(300_000);

/**
 * The worker SIGKILLed in the middle of a video, after a checkpoint: restarted, it
 * resumes after the last recorded frame and finishes. Every frame is counted once, the
 * video makes one decision on the log, and its webhookUrl gets one completion.
 */
describe('distributed: worker SIGKILLed mid-video', () => {
  let topology: Topology | undefined;
  let receiver: TestReceiver | undefined;
  const media = new MediaServer();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-video-crash-'));

  afterAll(async () => {
    await topology?.stop();
    await receiver?.close();
    await media.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes from the last checkpoint: every frame once, one decision, one completion', async () => {
    const clip = path.join(dir, 'long.mp4');
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=10:duration=30',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    await media.start();
    const url = media.serve('/long.mp4', fs.readFileSync(clip), 'video/mp4');
    // OCR on every frame makes each frame cost a few hundred ms: the crash lands mid-video.
    topology = await startTopology('video-kill', { env: { EGRESS_ALLOW_LOOPBACK: 'true', VIDEO_OCR_EVERY: '1', WEBHOOK_RETRY_SCHEDULE: '0,300ms,600ms' } });
    const api = new ApiClient(topology.baseUrl, topology.options.adminKey);
    receiver = await TestReceiver.start('/video-done');

    const r = await api.post('/v1/video/check', {
      videoUrl: url,
      policyId: 'default',
      webhookUrl: receiver.url,
      extractionStrategy: { frameInterval: 0.5, maxFrames: 60 },
    });
    expect(r.status).toBe(202);
    receiver.secret = r.body.webhookSecret;
    const id = r.body.decisionId as string;

    let before = 0;
    await waitUntil(
      'a checkpoint',
      async () => {
        const s = await api.get(`/v1/video/status/${id}`);
        before = s.body?.progress?.framesProcessed ?? 0;
        return before >= 5 && s.body.status === 'processing';
      },
      120_000,
    );
    await topology.worker.stop('SIGKILL');
    const atKill = (await api.get(`/v1/video/status/${id}`)).body;
    expect(atKill.status).toBe('processing');
    // What the dead worker recorded: its last checkpoint holds the frames it scored.
    const beforeKill = await videoCheckpointsInLog(topology.options.prefix, id);
    const recorded = beforeKill[beforeKill.length - 1];
    expect(recorded.framesProcessed).toBeGreaterThanOrEqual(5);
    expect(recorded.framesProcessed).toBeLessThan(60);
    // The restarted worker resumes from the checkpoint the read models hold: let them reach it.
    await waitUntil(
      `the read models at the checkpoint of ${recorded.framesProcessed} frames`,
      async () => (await api.get(`/v1/video/status/${id}`)).body?.progress?.framesProcessed === recorded.framesProcessed,
      30_000,
    );
    await topology.worker.start('/ready', 120_000);

    await waitUntil('the video completed', async () => (await api.get(`/v1/video/status/${id}`)).body?.status === 'completed', 180_000);
    const result = (await api.get(`/v1/video/result/${id}`)).body;
    expect(result.results.length).toBe(60);
    expect(result.results.map((f: any) => f.frameNumber)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(result.results.map((f: any) => f.timestamp)).toEqual(Array.from({ length: 60 }, (_, i) => i * 0.5));
    expect(atKill.progress.framesProcessed).toBeLessThan(60);

    // Resumed, not restarted: every checkpoint of the restarted worker starts with the frames
    // recorded before the kill, unchanged, and counts past them. A worker starting again
    // from frame 0 would record a checkpoint of at most 5 frames (one every 5 frames or 2 s).
    const afterKill = (await videoCheckpointsInLog(topology.options.prefix, id)).slice(beforeKill.length);
    expect(afterKill.length).toBeGreaterThan(0);
    expect(afterKill.map((c) => c.framesProcessed).filter((n) => n <= recorded.framesProcessed)).toEqual([]);
    for (const c of afterKill) expect(c.frames.slice(0, recorded.framesProcessed)).toEqual(recorded.frames);
    expect(afterKill[afterKill.length - 1].framesProcessed).toBe(60);

    const done = await receiver.next(receiver.ofType('moderation.completed', id), 60_000);
    expect(done.verified).toBe(true);
    await sleep(2000);
    expect(receiver.received.filter((x) => x.body?.type === 'moderation.completed' && x.body?.data?.id === id)).toHaveLength(1);
    const { ids, events } = await decisionsInLog(topology.options.prefix);
    expect(ids.has(id)).toBe(true);
    expect(events).toBe(1);
  });
});
