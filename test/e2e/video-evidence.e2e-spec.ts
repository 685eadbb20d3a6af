import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deriveEvidenceKey, evidencePath } from '@cds/auth';
import { ApiClient, expectErrorBody, RunningService, startService } from '@cds/testing';
import { Clips, makeClips, uploadVideo } from './support/video-fixtures';
import { eventually } from './webhook-test-receiver';

/** Blocks any frame at all: every frame is flagged and gets evidence. */
const ALWAYS = 'name: Always\ncategories:\n  sexual: { threshold: 0, action: block }\n';
const EVIDENCE_SECRET = 'e2e-evidence-url-secret-0123456789abcdef';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The evidence URLs of a video result: expiry, and deletion with the media retention. */
describe('video evidence: expiry and retention', () => {
  let svc: RunningService;
  let api: ApiClient;
  let clips: Clips;
  const env = { EVIDENCE_URL_SECRET: EVIDENCE_SECRET, MEDIA_RETENTION_DAYS: '30' };

  beforeAll(async () => {
    clips = await makeClips('hello');
    svc = await startService({ env });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    expect((await api.post('/v1/policies', { policyId: 'always', yamlContent: ALWAYS })).status).toBe(201);
  });
  afterAll(async () => {
    await svc?.stop();
    if (clips) fs.rmSync(clips.dir, { recursive: true, force: true });
  });

  /** Uploads the safe clip (frames at 0, 2 and 4 s, all flagged) and answers the evidence URLs. */
  async function flaggedVideo(): Promise<{ url: string; expiresAt: string }[]> {
    const r = await uploadVideo(`${svc.baseUrl}/v1/video/upload`, svc.adminKey, fs.readFileSync(clips.safe), { policyId: 'always', frameInterval: '2' });
    expect(r.status).toBe(202);
    const id = r.body.decisionId;
    await eventually(async () => ((await api.get(`/v1/video/status/${id}`)).body?.status === 'completed' ? true : undefined), `video ${id} completed`, 60_000);
    const result = (await api.get(`/v1/video/result/${id}`)).body;
    expect(result.results.map((f: any) => f.flagged)).toEqual([true, true, true]);
    return result.results.map((f: any) => f.evidence);
  }

  const claimOf = (url: string) => {
    const u = new URL(url, 'http://x');
    const [, decisionId, frame] = /\/evidence\/([^/]+)\/(\d+)$/.exec(u.pathname)!;
    return { tenantId: u.searchParams.get('tenant')!, decisionId, frame: Number(frame) };
  };

  it('refuses an expired evidence URL with 403 EVIDENCE_URL_EXPIRED and the error body', async () => {
    const [first] = await flaggedVideo();
    const key = deriveEvidenceKey(EVIDENCE_SECRET);
    const claim = claimOf(first.url);
    // Signed as the service signs (same key), one second past its expiry: only the time is wrong.
    const expired = evidencePath({ ...claim, expiresAt: Math.floor(Date.now() / 1000) - 1 }, key);
    const r = await fetch(`${svc.baseUrl}${expired}`);
    expect(r.status).toBe(403);
    const body: any = await r.json();
    expectErrorBody(body);
    expect(body.code).toBe('EVIDENCE_URL_EXPIRED');

    const fresh = await fetch(`${svc.baseUrl}${evidencePath({ ...claim, expiresAt: Math.floor(Date.now() / 1000) + 600 }, key)}`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-type')).toBe('image/jpeg');
  });

  it('answers 404 EVIDENCE_NOT_FOUND once the media retention sweep deleted the evidence JPEG', async () => {
    const evidence = await flaggedVideo();
    const jpegs = await Promise.all(evidence.map(async (e) => Buffer.from(await (await fetch(`${svc.baseUrl}${e.url}`)).arrayBuffer())));
    const shas = jpegs.map((b) => createHash('sha256').update(b).digest('hex'));
    expect(new Set(shas).size).toBe(3);
    const file = filesUnder(path.join(svc.dataDir, 'media')).find((f) => path.basename(f) === shas[1]);
    expect(file).toBeDefined();
    // Last stored 31 days ago, past MEDIA_RETENTION_DAYS: the sweep at start deletes it.
    const old = new Date(Date.now() - 31 * DAY_MS);
    fs.utimesSync(file!, old, old);

    await svc.stop();
    svc = await startService({ dataDir: svc.dataDir, env });
    // The sweep runs in the background of the start (the store refuses the expired JPEG
    // even before it, so the answer alone does not show the sweep): wait for the file.
    await eventually(async () => (fs.existsSync(file!) ? undefined : true), 'the sweep at start deleting the evidence of frame 1', 30_000);
    const gone = await fetch(`${svc.baseUrl}${evidence[1].url}`);
    expect(gone.status).toBe(404);
    const body: any = await gone.json();
    expectErrorBody(body);
    expect(body.code).toBe('EVIDENCE_NOT_FOUND');
    // The other frames' evidence, stored just now, is kept.
    for (const i of [0, 2]) expect((await fetch(`${svc.baseUrl}${evidence[i].url}`)).status).toBe(200);
  });
});

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
