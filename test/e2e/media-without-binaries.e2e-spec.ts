import * as fs from 'node:fs';
import { ApiClient, e2eMode, RunningService, startService } from '@cds/testing';
import { textImage } from './support/image-fixtures';
import { Clips, makeClips, uploadVideo } from './support/video-fixtures';
import { eventually } from './webhook-test-receiver';

const THREAT = 'I will kill you tonight';
const HIDDEN = ['tesseract', 'ffmpeg', 'ffprobe'];

/**
 * A fresh machine: the service runs where tesseract, ffmpeg and ffprobe are not to be
 * found (a private mount namespace covers them), with nothing but what `npm install`
 * brought: Tesseract in WebAssembly (tesseract.js and its @tesseract.js-data packs) and
 * the ffmpeg and ffprobe binaries shipped in @ffmpeg-installer and @ffprobe-installer.
 * Embedded mode only: the harness hides binaries from one process.
 */
(e2eMode() === 'embedded' ? describe : describe.skip)('media with no tesseract, ffmpeg or ffprobe on the machine', () => {
  let svc: RunningService;
  let api: ApiClient;
  let clips: Clips;

  beforeAll(async () => {
    clips = await makeClips(THREAT); // made here, by the test's own (system) ffmpeg
    svc = await startService({ hideBinaries: HIDDEN, env: { LOG_LEVEL: 'log', LOG_FORMAT: 'json', VIDEO_OCR_EVERY: '1' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    if (clips) fs.rmSync(clips.dir, { recursive: true, force: true });
  });

  it('says at start that it reads with tesseract.js and runs the npm ffmpeg', async () => {
    const lines = await eventually(async () => {
      const out = svc.output();
      return out.includes('OCR engine:') && out.includes('ffprobe') ? out : undefined;
    }, 'the start lines');
    expect(lines).toMatch(
      /OCR engine: tesseract\.js \S+ \(core \S+\) \(WebAssembly, no tesseract binary found\), 16 language packs; no rus: read with English/,
    );
    expect(lines).toMatch(
      /ffmpeg \S*node_modules\/@ffmpeg-installer\/linux-x64\/ffmpeg, ffprobe \S*node_modules\/@ffprobe-installer\/linux-x64\/ffprobe \(from @ffmpeg-installer\/ffmpeg\)/,
    );
    // @ffmpeg-installer's build (2018) predates the option scenes mode streams frame times with.
    expect(await eventually(async () => (/too old for scenes mode/.test(svc.output()) ? true : undefined), 'the ffmpeg features line')).toBe(true);
  });

  it('reads an image of a sentence and scores its text', async () => {
    const r = await api.post('/v1/check', { content: (await textImage(THREAT)).toString('base64'), contentType: 'image', policyId: 'default' });
    expect(r.status).toBe(200);
    expect(r.body.action).not.toBe('allow');
    expect(r.body.categories.find((c: any) => c.category === 'violence')).toMatchObject({ triggered: true });
    const part = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body.parts[0];
    expect(part.ocrText.toLowerCase()).toContain('will kill you tonight');
    expect(part.ocr).toEqual({ engine: 'tesseract.js', languages: 'eng' });
  });

  it('reads a language without a pack with English, and the decision says so (no 503)', async () => {
    const r = await api.post('/v1/check', { content: (await textImage(THREAT)).toString('base64'), contentType: 'image', policyId: 'default', language: 'ru' });
    expect(r.status).toBe(200);
    const part = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body.parts[0];
    expect(part.ocr).toEqual({ engine: 'tesseract.js', languages: 'eng', missing: ['rus'] });
    expect(part.ocrText.toLowerCase()).toContain('will kill you tonight');
  });

  it('checks a video to completion (interval mode, the default), reading the text in its frames', async () => {
    const r = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, fs.readFileSync(clips.threat), {
      policyId: 'default',
      extractionStrategy: JSON.stringify({ frameInterval: 1, maxFrames: 10 }),
    });
    expect(r.status).toBe(202);
    const status = await eventually(
      async () => {
        const s = await api.get(`/v1/video/status/${r.body.decisionId}`);
        return s.body?.status !== 'processing' ? s.body : undefined;
      },
      'the video finished',
      90_000,
    );
    expect(status.status).toBe('completed');
    const result = (await api.get(`/v1/video/result/${r.body.decisionId}`)).body;
    expect(result.flagged).toBe(true);
    expect(result.results.some((f: any) => f.flagged && /kill you/i.test(f.ocrText ?? ''))).toBe(true);
    const stored = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body;
    expect(stored.parts.find((p: any) => p.ocrText)?.ocr).toEqual({ engine: 'tesseract.js', languages: 'eng' });
  });
});
