import { DeliveryAttemptedV1, EventEnvelope, Topic, WebhookAutoDisabledV1 } from '@cds/events';
import { EventLog, LogPosition } from '@cds/event-log';
import { DeliveryAttemptDoc, WebhookDoc, WebhookReadModels } from '@cds/read-models';
import { deriveWebhookSecretKey, DeliveryResult, sealSecret, SignedSend } from '@cds/webhooks';
import { AttempterSettings, DeliveryAttempter } from './delivery-attempter';
import { PendingDelivery } from './delivery-queue';

const KEY = deriveWebhookSecretKey('the key of this deployment');
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** The log, as far as the attempter uses it: appends, or refusals. */
class FakeLog {
  readonly events: { topic: Topic; event: EventEnvelope }[] = [];
  refuse: Error | null = null;
  async append(topic: Topic, events: EventEnvelope[]): Promise<LogPosition[]> {
    if (this.refuse) throw this.refuse;
    return events.map((event) => (this.events.push({ topic, event }), { topic, partition: 0, offset: this.events.length - 1 }));
  }
  of<D>(type: string): D[] {
    return this.events.filter((e) => e.event.type === type).map((e) => e.event.data as D);
  }
}

/** The read models: one webhook, and the attempts "projected" so far (`project()`). */
class FakeModels implements WebhookReadModels {
  webhook: WebhookDoc | null;
  attempts: Pick<DeliveryAttemptDoc, 'status' | 'timestamp'>[] = [];
  failing: Error | null = null;
  unreadable: Error | null = null;
  constructor(over: Partial<WebhookDoc> = {}) {
    this.webhook = {
      webhookId: 'w1',
      tenantId: 't1',
      url: 'https://receiver.example/hook',
      events: ['decision.created'],
      description: null,
      enabled: true,
      secretCiphertext: sealSecret(KEY, 'whsec_test'),
      createdAt: at(-100),
      updatedAt: at(-100),
      disabledReason: null,
      deletedAt: null,
      ...over,
    };
  }
  project(log: FakeLog): void {
    this.attempts = log.of<DeliveryAttemptedV1>('webhook.delivery.attempted').map((a, i) => ({
      status: a.status,
      timestamp: log.events.filter((e) => e.event.type === 'webhook.delivery.attempted')[i].event.occurredAt,
    }));
  }
  async getWebhook(): Promise<WebhookDoc | null> {
    if (this.unreadable) throw this.unreadable;
    return this.webhook && { ...this.webhook };
  }
  async webhookFailingSince(_t: string, _w: string, notBefore: string | null = null): Promise<string | null> {
    if (this.failing) throw this.failing;
    const lastOk =
      this.attempts
        .filter((a) => a.status === 'succeeded')
        .map((a) => a.timestamp)
        .sort()
        .at(-1) ?? '';
    const bound = [lastOk, notBefore ?? ''].sort()[1];
    return (
      this.attempts
        .filter((a) => a.status === 'failed' && a.timestamp > bound)
        .map((a) => a.timestamp)
        .sort()[0] ?? null
    );
  }
  listWebhooks = async () => [];
  getDelivery = async () => null;
  listPendingDeliveries = async () => [];
  listDeliveryAttempts = async () => [];
  getBatch = async () => null;
}

function setup(o: { schedule?: number[]; disableAfterMs?: number; models?: FakeModels; stopping?: boolean } = {}) {
  const log = new FakeLog();
  const models = o.models ?? new FakeModels();
  const clock = { now: T0 };
  const sent: SignedSend[] = [];
  const answers: DeliveryResult[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  const settings: AttempterSettings = {
    schedule: o.schedule ?? [0, 5_000, 60_000],
    timeoutMs: 1000,
    disableAfterMs: o.disableAfterMs ?? 3_600_000,
    egress: {},
    secretKey: KEY,
  };
  const attempter = new DeliveryAttempter(
    log as unknown as EventLog,
    models,
    settings,
    { log: () => undefined, warn: (m) => warnings.push(m), error: (m) => errors.push(m) },
    () => o.stopping ?? false,
    {
      send: async (s) => (sent.push(s), answers.shift() ?? answer(200)),
      now: () => new Date(clock.now),
    },
  );
  /** One attempt at `s` seconds answered with `status` (null: connection refused). */
  const attemptAt = (s: number, status: number | null, d: Partial<PendingDelivery> = {}) => {
    clock.now = T0 + s * 1000;
    answers.push(answer(status));
    return attempter.attempt(delivery(d));
  };
  return { log, models, clock, sent, warnings, errors, attempter, attemptAt };
}

const answer = (status: number | null): DeliveryResult => ({
  ok: status !== null && status >= 200 && status < 300,
  status,
  durationMs: 3,
  error: status === null ? 'connect ECONNREFUSED' : status >= 300 ? `receiver answered ${status}` : null,
  responseSnippet: '',
});

let seq = 0;
const delivery = (over: Partial<PendingDelivery> = {}): PendingDelivery => ({
  deliveryId: `dlv-${++seq}`,
  tenantId: 't1',
  webhookId: 'w1',
  target: { kind: 'webhook', webhookId: 'w1' },
  eventId: `evt-${seq}`,
  eventType: 'decision.created',
  payload: { id: `evt-${seq}`, type: 'decision.created' },
  attempts: 0,
  dueAt: T0,
  ...over,
});

describe('DeliveryAttempter: outcomes', () => {
  it('records a failed attempt, then hands back the next one on the schedule', async () => {
    const { log, attemptAt, sent } = setup();
    const outcome = await attemptAt(0, 503, { attempts: 0 });
    expect(sent).toHaveLength(1);
    expect(log.of<DeliveryAttemptedV1>('webhook.delivery.attempted')).toEqual([
      expect.objectContaining({ attempt: 1, status: 'failed', responseCode: 503, nextAttemptAt: at(5) }),
    ]);
    expect(outcome).toEqual({ kind: 'retry', next: expect.objectContaining({ attempts: 1, dueAt: T0 + 5_000, deferrals: 0 }) });
  });

  it('is done once delivered (2xx), and once out of attempts', async () => {
    const { log, attemptAt } = setup();
    expect(await attemptAt(0, 204)).toEqual({ kind: 'done' });
    expect(await attemptAt(1, 500, { attempts: 2 })).toEqual({ kind: 'done' });
    expect(log.of<DeliveryAttemptedV1>('webhook.delivery.attempted').map((a) => [a.attempt, a.status, a.nextAttemptAt])).toEqual([
      [1, 'succeeded', null],
      [3, 'failed', null],
    ]);
  });

  it('records an unopenable secret as a failed attempt on the schedule, sending nothing', async () => {
    const models = new FakeModels({ secretCiphertext: sealSecret(deriveWebhookSecretKey('a key from another deployment'), 'whsec_x') });
    const { log, attemptAt, sent, errors } = setup({ models });
    const outcome = await attemptAt(0, 200, { attempts: 1 });
    expect(sent).toEqual([]);
    const [record] = log.of<DeliveryAttemptedV1>('webhook.delivery.attempted');
    expect(record).toMatchObject({ attempt: 2, status: 'failed', responseCode: null, nextAttemptAt: at(60) });
    expect(record.error).toMatch(/cannot be opened/);
    expect(outcome).toEqual({ kind: 'retry', next: expect.objectContaining({ attempts: 2, dueAt: T0 + 60_000 }) });
    expect(errors.join()).toMatch(/cannot be opened/);
  });

  it('puts the attempt off (retry-later) when it cannot read where to send it: nothing sent, nothing recorded', async () => {
    const models = new FakeModels();
    models.unreadable = new Error('Read models are not available');
    const { log, attemptAt, sent } = setup({ models });
    expect(await attemptAt(0, 200)).toEqual({ kind: 'retry-later', reason: expect.stringContaining('Read models are not available') });
    expect(sent).toEqual([]);
    expect(log.events).toEqual([]);
  });

  it('puts the attempt off when the log does not take its record before the process stops (made again after the restart)', async () => {
    const { log, attemptAt } = setup({ stopping: true });
    log.refuse = new Error('broker away');
    expect(await attemptAt(0, 200)).toEqual({ kind: 'retry-later', reason: expect.stringContaining('broker away') });
  });

  it('keeps the recorded outcome when health tracking fails after it (no second attempt with the same number)', async () => {
    const models = new FakeModels();
    models.failing = new Error('search failed');
    const { log, attemptAt, warnings } = setup({ models, disableAfterMs: 1_000 });
    const outcome = await attemptAt(0, 503);
    expect(outcome).toEqual({ kind: 'retry', next: expect.objectContaining({ attempts: 1, dueAt: T0 + 5_000 }) });
    expect(log.of('webhook.delivery.attempted')).toHaveLength(1);
    expect(warnings.join()).toMatch(/health not checked.*search failed/);
  });

  it('cancels, sending nothing, a delivery whose webhook is disabled or deleted', async () => {
    const models = new FakeModels({ enabled: false });
    const { log, attemptAt, sent } = setup({ models });
    expect(await attemptAt(0, 200)).toEqual({ kind: 'done' });
    models.webhook = null;
    expect(await attemptAt(1, 200)).toEqual({ kind: 'done' });
    expect(sent).toEqual([]);
    expect(log.of<{ reason: string }>('webhook.delivery.cancelled').map((c) => c.reason)).toEqual(['webhook_disabled', 'webhook_deleted']);
  });
});

describe('DeliveryAttempter: auto-disable', () => {
  const disabled = (log: FakeLog) => log.of<WebhookAutoDisabledV1>('webhook.auto_disabled');

  it('disables a webhook whose attempts all failed for WEBHOOK_DISABLE_AFTER', async () => {
    const { log, models, attemptAt } = setup({ disableAfterMs: 10_000 });
    await attemptAt(1, 503);
    models.project(log);
    await attemptAt(6, null);
    expect(disabled(log)).toEqual([]);
    await attemptAt(11, 503);
    expect(disabled(log)).toEqual([expect.objectContaining({ webhookId: 'w1', failingSince: at(1), lastError: 'receiver answered 503' })]);
  });

  it('leaves health to the next process once this one is stopping: the failed attempt is recorded, nothing more is read or disabled', async () => {
    const o = { disableAfterMs: 10_000, stopping: false };
    const { log, models, attemptAt } = setup(o);
    await attemptAt(1, 503);
    models.project(log);
    o.stopping = true;
    const healthReads = jest.spyOn(models, 'webhookFailingSince');
    expect(await attemptAt(11, 503)).toEqual({ kind: 'retry', next: expect.objectContaining({ attempts: 1 }) });
    expect(log.of('webhook.delivery.attempted')).toHaveLength(2);
    expect(healthReads).not.toHaveBeenCalled();
    expect(disabled(log)).toEqual([]);
  });

  it('restarts the count when the webhook is turned back on: its first failure does not disable it again', async () => {
    const { log, models, attemptAt } = setup({ disableAfterMs: 10_000 });
    await attemptAt(1, 503);
    models.project(log);
    await attemptAt(12, 503);
    expect(disabled(log)).toHaveLength(1);
    models.webhook = { ...models.webhook!, enabled: true, disabledReason: null, updatedAt: at(20) }; // PATCH {enabled: true}
    models.project(log);
    await attemptAt(21, 503);
    models.project(log);
    await attemptAt(25, 503);
    expect(disabled(log)).toHaveLength(1);
    await attemptAt(31, 503);
    expect(disabled(log).map((e) => e.failingSince)).toEqual([at(1), at(21)]);
  });

  it('restarts the count at a success only the read models know of (a test delivery made by the api)', async () => {
    const { log, models, attemptAt } = setup({ disableAfterMs: 10_000 });
    await attemptAt(1, 503);
    models.project(log);
    await attemptAt(10.5, 503); // failing for 9.5 s: read, and remembered
    models.attempts.push({ status: 'succeeded', timestamp: at(10.8) });
    await attemptAt(11.5, 503);
    models.project(log);
    models.attempts.push({ status: 'succeeded', timestamp: at(10.8) });
    await attemptAt(20, 503);
    expect(disabled(log)).toEqual([]);
    await attemptAt(21.5, 503);
    expect(disabled(log).map((e) => e.failingSince)).toEqual([at(11.5)]);
  });

  it('restarts the count at its own success before the read models show it', async () => {
    const { log, models, attemptAt } = setup({ disableAfterMs: 10_000 });
    await attemptAt(1, 503);
    models.project(log);
    await attemptAt(5, 200); // not projected yet
    await attemptAt(12, 503);
    expect(disabled(log)).toEqual([]);
  });
});
