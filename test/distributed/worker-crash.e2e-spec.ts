import { ApiClient, freePort, Topology } from '@cds/testing';
import { Received, TestReceiver } from '../e2e/webhook-test-receiver';
import { startTopology, waitUntil } from './distributed-support';

jest.setTimeout(300_000);

interface Attempt {
  eventId: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  responseCode: number | null;
  error: string | null;
  nextAttemptAt: string | null;
  timestamp: string;
}

async function attemptsOf(api: ApiClient, webhookId: string): Promise<Map<string, Attempt[]>> {
  const r = await api.get(`/v1/webhooks/${webhookId}/deliveries?limit=1000`);
  if (r.status !== 200) throw new Error(`GET deliveries of ${webhookId}: ${r.status} ${r.text}`);
  const byEvent = new Map<string, Attempt[]>();
  for (const a of r.body.deliveries as Attempt[]) byEvent.set(a.eventId, [...(byEvent.get(a.eventId) ?? []), a]);
  for (const list of byEvent.values()) list.sort((x, y) => x.attempt - y.attempt);
  return byEvent;
}

async function checks(api: ApiClient, n: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await api.post('/v1/check', { content: `${label} ${i}`, policyId: 'default' });
    if (r.status !== 200) throw new Error(`POST /v1/check: ${r.status} ${r.text}`);
    ids.push(r.body.decisionId);
  }
  return ids;
}

const ofDecision = (decisionId: string) => (r: Received) => r.body?.type === 'decision.created' && r.body?.data?.id === decisionId;

/**
 * The worker alone SIGKILLed while deliveries to a receiver that refuses connections are
 * between retries; the api replicas and the projector keep running (and take checks
 * meanwhile). Once the receiver listens and the worker is back, every event reaches it,
 * signed; nothing a receiver acknowledged (2xx) is delivered to it again; every attempt
 * is recorded, numbered on across the crash.
 */
describe('distributed: worker SIGKILLed mid-retry', () => {
  let topology: Topology | undefined;
  const receivers: TestReceiver[] = [];
  afterAll(async () => {
    await topology?.stop();
    for (const r of receivers) await r.close();
  });

  it('delivers every event after the restart, none acknowledged twice, with every attempt recorded', async () => {
    const schedule = ['0', '500ms', ...Array<string>(38).fill('1s')].join(','); // 40 attempts, about 38 s
    topology = await startTopology('worker-kill', { env: { EGRESS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: schedule } });
    const api = new ApiClient(topology.baseUrl, topology.options.adminKey);

    // `down`'s port has no listener yet: every attempt is refused at connect.
    const downPort = await freePort();
    const up = await TestReceiver.start('/up');
    receivers.push(up);
    const a = (await api.post('/v1/webhooks', { url: `http://127.0.0.1:${downPort}/down`, events: ['decision.created'] })).body;
    const b = (await api.post('/v1/webhooks', { url: up.url, events: ['decision.created'] })).body;
    expect([a.id, b.id].every(Boolean)).toBe(true);
    up.secret = b.secret;

    const before = await checks(api, 8, 'before the crash');
    const eventOf = new Map<string, string>(); // decisionId -> event id (the same for every webhook)
    for (const id of before) eventOf.set(id, (await up.next(ofDecision(id), 60_000)).body.id);
    // `up` acknowledged each and the 2xx is recorded; `down` has failed each at least once and waits for a retry.
    await waitUntil(
      'the acknowledgements recorded',
      async () => {
        const acked = await attemptsOf(api, b.id);
        return before.every((id) => acked.get(eventOf.get(id)!)?.some((x) => x.status === 'succeeded'));
      },
      60_000,
    );
    await waitUntil(
      'a failed attempt of each delivery to the receiver that is down',
      async () => {
        const failed = await attemptsOf(api, a.id);
        return before.every((id) => failed.get(eventOf.get(id)!)?.some((x) => x.status === 'failed' && x.nextAttemptAt !== null));
      },
      60_000,
    );

    await topology.worker.stop('SIGKILL');
    const killedAt = new Date().toISOString();
    const during = await checks(api, 4, 'while the worker is down');
    const down = await TestReceiver.start('/down', downPort);
    receivers.push(down);
    down.secret = a.secret;
    await topology.worker.start('/ready', 120_000);

    const all = [...before, ...during];
    for (const id of all) {
      const got = await down.next((r) => ofDecision(id)(r) && r.answered === 200, 90_000);
      expect(got.verified).toBe(true);
      eventOf.set(id, got.body.id);
      await up.next(ofDecision(id), 90_000);
    }
    await waitUntil(
      'every delivery to the receiver that was down recorded as delivered',
      async () => {
        const recorded = await attemptsOf(api, a.id);
        return all.every((id) => recorded.get(eventOf.get(id)!)?.some((x) => x.status === 'succeeded'));
      },
      60_000,
    );
    // A last event through both: the dispatcher is past everything above.
    const [last] = await checks(api, 1, 'last');
    await down.next(ofDecision(last), 60_000);
    await up.next(ofDecision(last), 60_000);

    // Signed, and delivered once each: `up` acknowledged `before` ahead of the crash and
    // is not sent them again; `down` acknowledged each once, after the restart.
    for (const id of all) {
      expect({ id, up: up.received.filter(ofDecision(id)).map((r) => [r.answered, r.verified]) }).toEqual({ id, up: [[200, true]] });
      expect({ id, down: down.received.filter(ofDecision(id)).map((r) => [r.answered, r.verified]) }).toEqual({ id, down: [[200, true]] });
    }

    // Every attempt recorded: to `up`, one success each; to `down`, refused attempts
    // before the crash, numbered on after it, ending with the one success.
    const toUp = await attemptsOf(api, b.id);
    const toDown = await attemptsOf(api, a.id);
    for (const id of all) expect({ id, up: toUp.get(eventOf.get(id)!)!.map((x) => [x.attempt, x.status]) }).toEqual({ id, up: [[1, 'succeeded']] });
    for (const id of before) {
      const list = toDown.get(eventOf.get(id)!)!;
      expect(list.map((x) => x.attempt)).toEqual(list.map((_, i) => i + 1));
      const failed = list.slice(0, -1);
      expect(failed.length).toBeGreaterThanOrEqual(1);
      for (const f of failed) expect(f).toMatchObject({ status: 'failed', responseCode: null, error: expect.stringMatching(/ECONNREFUSED|refused/i) });
      expect(failed[0].timestamp < killedAt).toBe(true);
      expect(list.at(-1)).toMatchObject({ status: 'succeeded', responseCode: 200, nextAttemptAt: null });
      expect(list.at(-1)!.timestamp > killedAt).toBe(true);
    }
    for (const id of during) {
      const list = toDown.get(eventOf.get(id)!)!;
      expect(list.filter((x) => x.status === 'succeeded')).toHaveLength(1);
      expect(list.at(-1)!.status).toBe('succeeded');
    }
  });
});
