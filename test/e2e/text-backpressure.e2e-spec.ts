import { ApiClient, ApiResponse, RunningService, expectErrorBody, startService } from '@cds/testing';

/** Texts the n-gram cascade does not clear: each one costs the embedding model a pass. */
const textOf = (i: number) => `${['I will find you and hurt you', 'you people should all be shot', 'I want to cut myself again'][i % 3]}, message ${i}`;

/**
 * When the text queue is long the answer comes late, never wrong; past the queue's bound
 * (TEXT_QUEUE_LIMIT) a check is refused at once with 503 TEXT_QUEUE_FULL and Retry-After,
 * never a 500, and never scored by another model.
 */
describe('the text model under a flood (TEXT_QUEUE_LIMIT)', () => {
  let svc: RunningService;
  let api: ApiClient;

  beforeAll(async () => {
    // one thread and room for four texts: a burst of 60 overflows the queue
    // no cache: a text checked again is scored again, so the comparison below means something
    svc = await startService({ env: { TEXT_WORKERS: '1', TEXT_QUEUE_LIMIT: '4', LOCAL_TEXT_CACHE_ENTRIES: '0' } });
    api = new ApiClient(svc.baseUrl, svc.adminKey);
    // the thread loaded before the flood: while it loads nothing leaves the queue, and the
    // flood would meet a queue of four with no text in flight (a slow start under load)
    expect((await api.post('/v1/check', { content: textOf(1000), policyId: 'default' })).status).toBe(200);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('answers a flood with right answers or 503 TEXT_QUEUE_FULL and Retry-After, never a 500; a refused text retried later gets its answer', async () => {
    const texts = Array.from({ length: 60 }, (_, i) => textOf(i));
    const flood = await Promise.all(texts.map((content) => api.post('/v1/check', { content, policyId: 'default' })));
    const statuses = flood.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    const refused = flood.filter((r) => r.status === 503);
    const answered = flood.filter((r) => r.status === 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThanOrEqual(5);
    for (const r of refused) {
      expectErrorBody(r.body);
      expect(Object.keys(r.body).sort()).toEqual(['code', 'details', 'error']);
      expect(r.body.code).toBe('TEXT_QUEUE_FULL');
      expect(r.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    }

    // every answer given under the flood is the one the text gets alone, by the same model
    const alone = async (content: string) => api.post('/v1/check', { content, policyId: 'default' });
    const sameAnswer = (a: ApiResponse, b: ApiResponse) => {
      expect(a.body.action).toBe(b.body.action);
      a.body.categories.forEach((c: any, j: number) => expect(c.score).toBeCloseTo(b.body.categories[j].score, 3));
    };
    for (const [i, r] of flood.entries()) {
      if (r.status !== 200) continue;
      sameAnswer(r, await alone(texts[i]));
      const stored = await api.get(`/v1/decisions/${r.body.decisionId}`);
      expect(stored.body.parts[0].attempts).toEqual([
        expect.objectContaining({ provider: 'local', ok: true, model: expect.stringMatching(/^multilingual-e5-small/) }),
      ]);
    }
    // the refused ones, retried once the queue has drained: answered
    const retryAfter = Math.max(...refused.map((r) => Number(r.headers.get('retry-after'))));
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    for (const [i, r] of flood.entries()) {
      if (r.status !== 503) continue;
      expect((await alone(texts[i])).status).toBe(200);
    }
  });
});
