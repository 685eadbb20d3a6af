import * as fs from 'node:fs';
import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';
import { MediaServer } from './support/media-server';
import { Clips, makeClips, uploadVideo } from './support/video-fixtures';
import { eventually, TestReceiver } from './webhook-test-receiver';

const THREAT = 'I will kill you tonight';
/** Blocks any frame at all: every frame triggers. */
const ALWAYS = 'name: Always\ncategories:\n  sexual: { threshold: 0, action: block }\n';

describe('video: POST /v1/video/check and /upload, status, result, evidence', () => {
  let svc: RunningService;
  let api: ApiClient;
  let clips: Clips;
  const media = new MediaServer();

  beforeAll(async () => {
    clips = await makeClips(THREAT);
    await media.start();
    svc = await startService({ env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0,200ms,400ms', VIDEO_FETCH_TIMEOUT_MS: '3000' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    expect((await api.post('/v1/policies', { policyId: 'always', yamlContent: ALWAYS })).status).toBe(201);
  });
  afterAll(async () => {
    await svc?.stop();
    await media.stop();
    if (clips) fs.rmSync(clips.dir, { recursive: true, force: true });
  });

  const finished = (id: string) =>
    eventually(
      async () => {
        const s = await api.get(`/v1/video/status/${id}`);
        return s.body?.status !== 'processing' ? s.body : undefined;
      },
      `video ${id} finished`,
      60_000,
    );

  it('checks a video by URL: 202 with estimates, then status, result, the stored decision and the signed webhook', async () => {
    const receiver = await TestReceiver.start('/video');
    try {
      const url = media.serve('/safe.mp4', fs.readFileSync(clips.safe), 'video/mp4');
      const r = await api.post('/v1/video/check', {
        videoUrl: url,
        policyId: 'default',
        webhookUrl: receiver.url,
        extractionStrategy: { frameInterval: 2, maxFrames: 10 },
      });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({
        decisionId: expect.any(String),
        status: 'processing',
        estimatedTime: expect.any(Number),
        estimatedFrames: 10,
        estimatedCost: 0,
      });
      receiver.secret = r.body.webhookSecret;

      const status = await finished(r.body.decisionId);
      expect(status).toMatchObject({
        decisionId: r.body.decisionId,
        status: 'completed',
        progress: { framesProcessed: 3, framesTotal: 3, percentComplete: 100 },
      });
      expect(Date.parse(status.estimatedCompletion)).not.toBeNaN();

      const result = await api.get(`/v1/video/result/${r.body.decisionId}`);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({
        decisionId: r.body.decisionId,
        status: 'completed',
        safe: true,
        flagged: false,
        action: 'allow',
        totalCost: 0,
        segments: [],
      });
      expect(typeof result.body.totalLatency).toBe('number');
      expect(result.body.results.map((f: any) => [f.frameNumber, f.timestamp])).toEqual([
        [0, 0],
        [1, 2],
        [2, 4],
      ]);
      for (const f of result.body.results) expect(f).toMatchObject({ safe: true, flagged: false, categories: expect.any(Array) });

      const d = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body;
      expect(d).toMatchObject({ contentType: 'video', content: url, action: 'allow' });
      expect(d.parts).toHaveLength(3);
      const listed = (await api.get('/v1/decisions?policyId=default&limit=1000')).body.decisions;
      expect(listed.filter((x: any) => x.decisionId === r.body.decisionId)).toEqual([
        expect.objectContaining({ contentType: 'video', content: url, action: 'allow', policyId: 'default' }),
      ]);
      const replay = await api.post(`/v1/decisions/${r.body.decisionId}/replay`, { policyId: 'always' });
      expect(replay.body).toMatchObject({ action: 'block', replayed: true });

      const got = await receiver.next(receiver.ofType('moderation.completed', r.body.decisionId));
      expect(got.verified).toBe(true);
      expect(got.body.data).toMatchObject({ id: r.body.decisionId, contentType: 'video', status: 'completed', action: 'allow', framesProcessed: 3 });
    } finally {
      await receiver.close();
    }
  });

  it('answers the result with 202 and the progress while the video is processing, then 200 with the result', async () => {
    const held = media.hold('/held.mp4', fs.readFileSync(clips.safe), 'video/mp4');
    const r = await api.post('/v1/video/check', { videoUrl: held.url, policyId: 'default', extractionStrategy: { frameInterval: 2, maxFrames: 10 } });
    expect(r.status).toBe(202);
    const id = r.body.decisionId;
    let processing: { status: number; body: any };
    try {
      // The worker is downloading the video and gets its second half only once released:
      // the job cannot finish before.
      await held.requested;
      processing = await api.get(`/v1/video/result/${id}`);
    } finally {
      held.release();
    }
    expect(processing.status).toBe(202);
    expect(processing.body).toEqual({
      decisionId: id,
      status: 'processing',
      progress: { framesProcessed: 0, framesTotal: 10, percentComplete: 0 },
      estimatedCompletion: expect.any(String),
    });
    expect(Date.parse(processing.body.estimatedCompletion)).not.toBeNaN();

    expect((await finished(id)).status).toBe('completed');
    const done = await api.get(`/v1/video/result/${id}`);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ decisionId: id, status: 'completed', action: 'allow', framesProcessed: 3 });
  });

  it('a video URL that fails sends a signed moderation.failed for the video to its webhookUrl', async () => {
    const receiver = await TestReceiver.start('/video-failed');
    try {
      const url = media.serve('/random.mp4', fs.readFileSync(clips.random), 'video/mp4');
      const r = await api.post('/v1/video/check', { videoUrl: url, policyId: 'default', webhookUrl: receiver.url });
      expect(r.status).toBe(202);
      receiver.secret = r.body.webhookSecret;
      const id = r.body.decisionId;
      expect(await finished(id)).toMatchObject({ status: 'failed', error: { code: 'INVALID_VIDEO' } });

      const got = await receiver.next(receiver.ofType('moderation.failed', id));
      expect(got.verified).toBe(true);
      expect(got.body.data).toEqual({
        id,
        decisionId: id,
        contentType: 'video',
        status: 'failed',
        policyId: 'default',
        error: { code: 'INVALID_VIDEO', message: expect.any(String), details: expect.any(String) },
      });
      expect(receiver.received.filter(receiver.ofType('moderation.completed', id))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('uploads a video (multipart), reads text in its frames, flags the threat with signed, expiring evidence and segments', async () => {
    const r = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, fs.readFileSync(clips.threat), {
      policyId: 'default',
      extractionStrategy: JSON.stringify({ mode: 'scenes', maxFrames: 10 }),
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'processing', estimatedFrames: expect.any(Number) });
    expect((await finished(r.body.decisionId)).status).toBe('completed');
    const result = (await api.get(`/v1/video/result/${r.body.decisionId}`)).body;
    expect(result.flagged).toBe(true);
    const flagged = result.results.filter((f: any) => f.flagged);
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged[0].timestamp).toBeGreaterThanOrEqual(2.5);
    expect(flagged[0].categories.find((c: any) => c.category === 'violence').triggered).toBe(true);
    expect(result.results[0]).toMatchObject({ frameNumber: 0, flagged: false });
    expect(result.results[0].evidence).toBeUndefined();
    expect(result.segments).toEqual([expect.objectContaining({ start: flagged[0].timestamp, categories: expect.arrayContaining(['violence']) })]);

    const { url, expiresAt } = flagged[0].evidence;
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const evidence = await fetch(`${svc.baseUrl}${url}`);
    expect(evidence.status).toBe(200);
    expect(evidence.headers.get('content-type')).toBe('image/jpeg');
    expect((await evidence.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const tampered = await fetch(`${svc.baseUrl}${url.replace(/sig=[^&]+/, 'sig=00')}`);
    expect(tampered.status).toBe(403);
    expectErrorBody(await tampered.json());
    const otherFrame = await fetch(`${svc.baseUrl}${url.replace(/\/evidence\/([^/]+)\/\d+/, '/evidence/$1/9')}`);
    expect(otherFrame.status).toBe(403);
  });

  it('flags a threat captioned on screen from 3 s to 7 s of a 10 s clip under the default policy: the frame where the picture changed is read', async () => {
    // Sampled every 2 s (the default): frames at 0, 2, 4, 6, 8 s. VIDEO_OCR_EVERY (10)
    // alone reads the first only; the caption appears at 4 s, where the picture changed.
    const r = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, fs.readFileSync(clips.caption), { policyId: 'default' });
    expect(r.status).toBe(202);
    expect((await finished(r.body.decisionId)).status).toBe('completed');
    const result = (await api.get(`/v1/video/result/${r.body.decisionId}`)).body;
    expect(result.results.map((f: any) => f.timestamp)).toEqual([0, 2, 4, 6, 8]);
    expect(result).toMatchObject({ flagged: true, action: 'flag' });
    const flagged = result.results.filter((f: any) => f.flagged);
    expect(flagged.map((f: any) => f.timestamp)).toEqual([4]);
    expect(flagged[0].categories.find((c: any) => c.category === 'violence').triggered).toBe(true);
    expect(result.segments).toEqual([expect.objectContaining({ start: 4, end: 4, categories: ['violence'] })]);
    const d = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body;
    // read: the first frame, the caption appearing (4 s) and leaving (8 s); not 2 s or 6 s, unchanged since the last read
    expect(d.parts.map((p: any) => typeof p.ocrText === 'string')).toEqual([true, false, true, false, true]);
    expect(d.parts[2].ocrText.toLowerCase()).toContain('kill you');
  });

  it('stops at the first blocked frame when asked', async () => {
    const r = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, fs.readFileSync(clips.safe), {
      policyId: 'always',
      stopOnBlock: 'true',
      frameInterval: '1',
    });
    expect(r.status).toBe(202);
    await finished(r.body.decisionId);
    const result = (await api.get(`/v1/video/result/${r.body.decisionId}`)).body;
    expect(result).toMatchObject({ action: 'block', stoppedOnBlock: true });
    expect(result.results).toHaveLength(1);
  });

  it('refuses bad videos with a clear 4xx at submission or a failed result, and the next video completes', async () => {
    const up = (file: Buffer | null, fields: Record<string, string> = {}) =>
      uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, file, { policyId: 'default', ...fields });
    const cases: [string, Promise<{ status: number; body: any }>, number, string][] = [
      ['zero bytes', up(Buffer.alloc(0)), 422, 'INVALID_VIDEO'],
      ['png renamed', up(fs.readFileSync(clips.pngAsMp4)), 422, 'UNSUPPORTED_VIDEO_FORMAT'],
      ['random bytes', up(fs.readFileSync(clips.random)), 422, 'INVALID_VIDEO'],
      ['too long', up(fs.readFileSync(clips.safe), { maxDurationSeconds: '2' }), 422, 'VIDEO_TOO_LONG'],
      ['no file', up(null), 422, 'VALIDATION_ERROR'],
      ['unknown policy', up(fs.readFileSync(clips.safe), { policyId: 'nope' }), 404, 'POLICY_NOT_FOUND'],
      ['bad strategy', up(fs.readFileSync(clips.safe), { maxFrames: '100000' }), 422, 'VALIDATION_ERROR'],
      ['huge frame', up(fs.readFileSync(clips.hugeFrame)), 422, 'VIDEO_TOO_LARGE'],
    ];
    for (const [name, pending, status, code] of cases) {
      const r = await pending;
      expect({ name, status: r.status, code: r.body?.code }).toEqual({ name, status, code });
      expectErrorBody(r.body);
    }
    const truncated = await up(fs.readFileSync(clips.truncated));
    expect(truncated.status).toBe(422);
    expect(['INVALID_VIDEO', 'VIDEO_PROCESSING_FAILED']).toContain(truncated.body.code);

    const big = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, Buffer.alloc(101 * 1024 * 1024, 1), { policyId: 'default' });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('VIDEO_TOO_LARGE');

    const privateUrl = await api.post('/v1/video/check', { videoUrl: 'http://10.0.0.8/v.mp4', policyId: 'default' });
    expect(privateUrl.status).toBe(422);
    expect(privateUrl.body.code).toBe('EGRESS_REFUSED');
    const notJson = await api.post('/v1/video/upload', { policyId: 'default' });
    expect(notJson.status).toBe(400);

    const missing = await api.post('/v1/video/check', { videoUrl: `${media.baseUrl}/gone.mp4`, policyId: 'default' });
    expect(missing.status).toBe(202);
    expect(await finished(missing.body.decisionId)).toMatchObject({ status: 'failed', error: { code: 'MEDIA_FETCH_FAILED' } });
    const failedResult = await api.get(`/v1/video/result/${missing.body.decisionId}`);
    expect(failedResult.body).toMatchObject({ status: 'failed', error: { code: 'MEDIA_FETCH_FAILED', details: expect.stringContaining('404') } });

    const trickle = await api.post('/v1/video/check', { videoUrl: `${media.baseUrl}/trickle`, policyId: 'default' });
    expect(trickle.status).toBe(202);
    expect(await finished(trickle.body.decisionId)).toMatchObject({
      status: 'failed',
      error: { code: 'MEDIA_FETCH_FAILED', details: expect.stringMatching(/timed out/) },
    });

    const longUrl = media.serve('/long.mp4', fs.readFileSync(clips.safe), 'video/mp4');
    const tooLong = await api.post('/v1/video/check', { videoUrl: longUrl, policyId: 'default', maxDurationSeconds: 2 });
    expect(tooLong.status).toBe(202);
    expect(await finished(tooLong.body.decisionId)).toMatchObject({ status: 'failed', error: { code: 'VIDEO_TOO_LONG' } });
    const tooLongResult = await api.get(`/v1/video/result/${tooLong.body.decisionId}`);
    expect(tooLongResult.status).toBe(200);
    expect(tooLongResult.body).toMatchObject({
      status: 'failed',
      error: { code: 'VIDEO_TOO_LONG', details: expect.stringContaining('past maxDurationSeconds 2') },
    });

    const next = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, fs.readFileSync(clips.safe), { policyId: 'default' });
    expect((await finished(next.body.decisionId)).status).toBe('completed');
    expect((await api.get(`/v1/video/status/not-a-video`)).status).toBe(404);
  });
});
