import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiClient, RunningService, startService, tempDataDir } from '@cds/testing';
// The adapter itself, not @cds/blob-store's index (whose Nest module jest cannot load).
import { FsBlobStore } from '../../libs/blob-store/src/fs-blob-store.adapter';
import { solid, textImage } from './support/image-fixtures';
import { eventually } from './webhook-test-receiver';

const THREAT = 'I will kill you tonight';
const DAY_MS = 86_400_000;
const b64 = (b: Buffer) => b.toString('base64');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * One service with IMAGE_OCR=off and MEDIA_RETENTION_DAYS=7, started on a DATA_DIR whose
 * media a previous run left behind (the admin key's tenant is `default`).
 */
describe('images with IMAGE_OCR=off; media retention at start', () => {
  let svc: RunningService;
  let api: ApiClient;
  const dataDir = tempDataDir('e2e-ocr-off');
  const old: { bytes: Buffer; file: string } = { bytes: Buffer.alloc(0), file: '' };
  const fresh: { bytes: Buffer; file: string } = { bytes: Buffer.alloc(0), file: '' };

  beforeAll(async () => {
    const store = new FsBlobStore(path.join(dataDir, 'media'));
    for (const [blob, grey, days] of [
      [old, 8, 8],
      [fresh, 6, 6],
    ] as const) {
      blob.bytes = await solid(grey, grey, grey);
      await store.put('default', blob.bytes);
      blob.file = (await store.pathOf('default', sha256(blob.bytes)))!;
      const then = new Date(Date.now() - days * DAY_MS);
      fs.utimesSync(blob.file, then, then);
    }
    svc = await startService({ dataDir, env: { IMAGE_OCR: 'off', MEDIA_RETENTION_DAYS: '7' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
  });
  afterAll(() => svc?.stop());

  it('scores the pixels only: an image of a drawn threat is allow, and no read text is kept', async () => {
    const asText = await api.post('/v1/check', { content: THREAT, policyId: 'default' });
    expect(asText.body.action).not.toBe('allow');
    const r = await api.post('/v1/check', { content: b64(await textImage(THREAT)), contentType: 'image', policyId: 'default' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ action: 'allow', safe: true, flagged: false });
    expect(r.body.categories.find((c: any) => c.category === 'violence')).toMatchObject({ triggered: false });

    const stored = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body;
    expect(stored.parts).toHaveLength(1);
    expect(stored.parts[0].ocrText ?? null).toBeNull();
    // The image models' signals only (nsfwjs, and the image safety model): no text was scored.
    expect(Object.keys(stored.parts[0].signals.local).sort()).toEqual([
      'drawing',
      'neutral',
      'sexual',
      'sexual_drawn',
      'sexual_nsfw',
      'sexual_suggestive',
      'violence_graphic',
    ]);
  });

  it('deletes at start the media last stored more than MEDIA_RETENTION_DAYS ago, and keeps the newer', async () => {
    await eventually(async () => (fs.existsSync(old.file) ? undefined : true), 'the 8-day-old blob swept');
    expect(fs.existsSync(fresh.file)).toBe(true);
    expect((await api.get(`/v1/media/sha256/${sha256(old.bytes)}`)).body.code).toBe('MEDIA_NOT_FOUND');
    const back = await fetch(`${svc.baseUrl}/v1/media/sha256/${sha256(fresh.bytes)}`, { headers: { authorization: `Bearer ${svc.adminKey}` } });
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer())).toEqual(fresh.bytes);
  });
});
