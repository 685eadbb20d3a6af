import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { API_MAIN, ApiClient, RunningService, startService, tempDataDir } from '@cds/testing';
import { eventually } from './webhook-test-receiver';

/** The issue's own example: the n-gram model let it through under the default policy. */
const THREAT_EN = 'I am going to kill you and your whole family tonight';
const THREATS = [THREAT_EN, 'Ich werde dich heute Nacht umbringen', 'Seni bu gece öldüreceğim'];
const BENIGN = ['this movie killed it, what a performance', 'have a nice day', 'kill the stuck process and restart the server'];

const violence = (body: any): number => body.categories.find((c: any) => c.category === 'violence').score;

/**
 * The `local` provider's text model as LOCAL_TEXT_MODEL picks it: `embedding` by default
 * (multilingual-e5-small and calibrated heads in worker threads), `ngram` on request, and
 * no start at all, with the command to run, when the embedding model is not installed.
 */
describe('the local text model (LOCAL_TEXT_MODEL)', () => {
  let svc: RunningService;
  let api: ApiClient;
  let ngramSvc: RunningService;
  let ngram: ApiClient;

  beforeAll(async () => {
    [svc, ngramSvc] = await Promise.all([startService(), startService({ env: { LOCAL_TEXT_MODEL: 'ngram' } })]);
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    ngram = new ApiClient(ngramSvc.baseUrl, ngramSvc.adminKey);
  });
  afterAll(async () => {
    await Promise.all([svc?.stop(), ngramSvc?.stop()]);
  });

  it('by default catches direct threats in English, German and Turkish under the default policy, and lets their look-alikes through', async () => {
    for (const content of THREATS) {
      const r = await api.post('/v1/check', { content, policyId: 'default' });
      expect({ content, status: r.status, action: r.body.action }).toEqual({ content, status: 200, action: expect.not.stringMatching(/^allow$/) });
      expect(r.body.categories.find((c: any) => c.category === 'violence')).toMatchObject({ triggered: true });
      expect(r.body.provider ?? 'local').toBe('local');
    }
    for (const content of BENIGN) {
      const r = await api.post('/v1/check', { content, policyId: 'default' });
      expect({ content, action: r.body.action }).toEqual({ content, action: 'allow' });
    }
  });

  it('keeps the embedding heads’ signals (violence_threat among them) in the stored decision', async () => {
    const r = await api.post('/v1/check', { content: THREAT_EN, policyId: 'default' });
    const stored = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body;
    const signals = stored.parts?.[0]?.signals?.local ?? stored.signals?.local;
    expect(signals).toEqual(expect.objectContaining({ violence: expect.any(Number), violence_threat: expect.any(Number) }));
    expect(signals.violence).toBeGreaterThan(0.7);
    // which model scored is kept for the audit
    expect(stored.parts[0].attempts).toEqual([
      expect.objectContaining({ provider: 'local', ok: true, model: expect.stringMatching(/^multilingual-e5-small-q4\+heads:[0-9a-f]{12}$/) }),
    ]);
  });

  it('names the n-gram model as the one that answered when the cascade cleared the text (it was never embedded)', async () => {
    // "my whole family is coming to dinner tonight": the n-gram model scores every category far below the cascade's bound
    const r = await api.post('/v1/check', { content: 'Bu akşam bütün ailem yemeğe geliyor', language: 'tr', policyId: 'default' });
    expect(r).toMatchObject({ status: 200, body: { action: 'allow' } });
    const stored = (await api.get(`/v1/decisions/${r.body.decisionId}`)).body;
    expect(stored.parts[0].attempts).toEqual([expect.objectContaining({ provider: 'local', ok: true, model: expect.stringMatching(/^ngram:[0-9a-f]{12}$/) })]);
  });

  it('answers a burst of concurrent checks (embedded together in batches) as it answers each text alone', async () => {
    const distinct = [...THREATS, ...BENIGN, 'see you at the meeting', 'I will hunt you down and hurt you'];
    const alone = new Map<string, any>();
    for (const content of distinct) alone.set(content, (await api.post('/v1/check', { content, policyId: 'default' })).body);
    const texts = Array.from({ length: 48 }, (_, i) => distinct[i % distinct.length]);
    const answers = await Promise.all(texts.map((content) => api.post('/v1/check', { content, policyId: 'default' })));
    expect(answers.map((a) => a.status)).toEqual(texts.map(() => 200));
    answers.forEach((a, i) => {
      const solo = alone.get(texts[i]);
      expect({ text: texts[i], action: a.body.action }).toEqual({ text: texts[i], action: solo.action });
      a.body.categories.forEach((c: any, j: number) => expect(c.score).toBeCloseTo(solo.categories[j].score, 3));
    });
  });

  it('LOCAL_TEXT_MODEL=ngram scores with the n-gram model instead: other scores for the same text', async () => {
    const [a, b] = await Promise.all([THREAT_EN, THREAT_EN].map((content, i) => (i ? ngram : api).post('/v1/check', { content, policyId: 'default' })));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(violence(b.body)).not.toBeCloseTo(violence(a.body), 2);
    const stored = (await ngram.get(`/v1/decisions/${b.body.decisionId}`)).body;
    expect(stored.parts[0].attempts).toEqual([expect.objectContaining({ provider: 'local', model: expect.stringMatching(/^ngram:[0-9a-f]{12}$/) })]);
  });

  it('is ready once the text model is loaded, and says which model it runs', async () => {
    const [a, b] = await Promise.all(
      [svc, ngramSvc].map((x) => fetch(`${x.baseUrl}/ready`).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))),
    );
    expect(a).toMatchObject({ status: 200, body: { status: 'ready', localTextModel: { model: 'embedding', state: 'ready' } } });
    expect(b).toMatchObject({ status: 200, body: { status: 'ready', localTextModel: { model: 'ngram', state: 'ready' } } });
  });

  it('with an engine that cannot load its weights: unready (503) and every text check a 503 TEXT_MODEL_UNAVAILABLE, never a guess', async () => {
    // The installed engine and manifest, with weights that are not a model.
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-broken-model-'));
    const installed = path.join(__dirname, '../../models/e5');
    fs.copyFileSync(path.join(installed, 'libe5.so'), path.join(broken, 'libe5.so'));
    fs.copyFileSync(path.join(installed, 'manifest.json'), path.join(broken, 'manifest.json'));
    fs.writeFileSync(path.join(broken, 'e5-small-q4.bin'), Buffer.alloc(4096, 7));
    const bad = await startService({ env: { LOCAL_EMBEDDING_MODEL_DIR: broken }, startProbe: '/health' });
    try {
      // everything else up (in distributed mode the read models come up after /health), on
      // every replica: two answers in a row are both replicas' behind the round-robin proxy
      const upOnce = async () => {
        const r = await fetch(`${bad.baseUrl}/ready`);
        const body = (await r.json()) as any;
        return body.eventLog && body.readModels && body.localTextModel.state !== 'loading' ? { status: r.status, body } : undefined;
      };
      const ready = await eventually(async () => ((await upOnce()) ? upOnce() : undefined), 'the log and read models up, the text model loaded or failed');
      expect(ready).toMatchObject({ status: 503, body: { status: 'not_ready', localTextModel: { model: 'embedding', state: 'failed' } } });
      const client = new ApiClient(bad.baseUrl, bad.adminKey);
      const r = await client.post('/v1/check', { content: THREAT_EN, policyId: 'default' });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 503, code: 'TEXT_MODEL_UNAVAILABLE' });
    } finally {
      await bad.stop();
    }
  });

  it('refuses to start when the embedding model is not installed, naming the command that installs it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cds-no-model-'));
    const proc = spawn(process.execPath, [API_MAIN], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: tempDataDir('e2e-no-model'),
        ADMIN_API_KEY: 'test-admin-key-0123456789abcdef',
        EVENT_LOG: 'file',
        READ_MODELS: 'sqlite',
        ROLE: 'all',
        LOG_LEVEL: 'warn',
        IMAGE_MODEL_PRELOAD: 'false',
        LOCAL_EMBEDDING_MODEL_DIR: empty,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(out).toContain(
      'LOCAL_TEXT_MODEL=embedding: The local text embedding model is not installed: run `npm run models:fetch` (or set LOCAL_TEXT_MODEL=ngram)',
    );
    expect(out).toContain('TEXT_MODEL_MISSING');
  });
});
