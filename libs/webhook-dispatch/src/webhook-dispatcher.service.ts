import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Metrics } from '@cds/metrics';
import { AppConfig } from '@cds/config';
import { DomainEvent, envelopeHead, Topic, validateEvent } from '@cds/events';
import { EncodedEvent, EVENT_LOG, EventLog, HandlerOutcome, liftEncodedBatch, LogFollower, LogPosition } from '@cds/event-log';
import { READ_MODELS, ReadModels, WebhookReadModels } from '@cds/read-models';
import { DeliveryAttempter } from './delivery-attempter';
import { DeliveryQueue } from './delivery-queue';
import { PendingReloader, ReloadSettings } from './pending-reloader';
import { WebhookFanOut, WebhooksByTenant } from './webhook-fan-out';
import { webhookSecretKey } from './webhook-secret-key';
import { parseRetrySchedule, retry } from '@cds/backoff';

/** The streams whose events become webhook deliveries. */
export const DISPATCH_SOURCE_TOPICS: Topic[] = ['decisions', 'guardrails', 'jobs'];
/** What must be projected before pending deliveries are reloaded after a start. */
const STATE_TOPICS: Topic[] = ['webhooks', 'deliveries', 'jobs'];
/** Reading the log's end while it is away (catch-up at start). */
const END_RETRY = { baseMs: 500, maxMs: 10_000 };
const CONCURRENT_ATTEMPTS = 32;
/** Pending deliveries resumed after a start: read 500 at a time, at most 5 000 held at
 * once, those due within a minute (see PendingReloader). */
const RELOAD: ReloadSettings = { pageSize: 500, maxHeld: 5_000, horizonMs: 60_000, retryMs: 2_000 };

/**
 * Webhook dispatch, a consumer of the log like the projector (group `webhook-dispatcher`).
 * A batch of source events is checkpointed only once the deliveries it gives rise to
 * are appended (`webhook.delivery.scheduled`); each attempt is then recorded
 * (`webhook.delivery.attempted`) before the next step. On start, once the read models
 * have caught up with the log, every delivery still pending is resumed, page by page as
 * the queue has room (PendingReloader): a crash loses no delivery, and one recorded as
 * delivered (2xx) is never sent again.
 * Runs one per deployment (the pending timetable is not shared between processes).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private follower: LogFollower | null = null;
  private queue: DeliveryQueue | null = null;
  private reloader: PendingReloader | null = null;
  private fanOut: WebhookFanOut | null = null;
  private stopping = false;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly config: AppConfig,
    @Optional() @Inject(READ_MODELS) private readonly readModels: (WebhookReadModels & Pick<ReadModels, 'waitFor'>) | null,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.start().catch((err: Error) => this.logger.error(`webhook dispatch is not running: ${err.message}`));
  }

  /** Following its sources with the pending deliveries reloaded. */
  ready(): boolean {
    return !!this.follower?.subscribed;
  }

  private async start(): Promise<void> {
    if (!this.readModels) throw new Error('this process has no read models (import ReadModelsModule.forRoot() beside the worker)');
    const models = this.readModels;
    const schedule = parseRetrySchedule(this.config.WEBHOOK_RETRY_SCHEDULE);
    const attempter = new DeliveryAttempter(
      this.log,
      models,
      {
        schedule,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        disableAfterMs: parseRetrySchedule(this.config.WEBHOOK_DISABLE_AFTER)[0],
        egress: { allowLoopback: this.config.EGRESS_ALLOW_LOOPBACK, allowPrivate: this.config.EGRESS_ALLOW_PRIVATE },
        secretKey: webhookSecretKey(this.config),
        observe: (outcome, eventType) => this.metrics?.webhookDeliveries.inc({ outcome, event_type: eventType }),
      },
      this.logger,
      () => this.stopping,
    );
    const queue = new DeliveryQueue((d) => attempter.attempt(d), CONCURRENT_ATTEMPTS, {
      deferred: (d, reason, wait) =>
        this.logger.warn(`delivery ${d.deliveryId}: attempt ${d.attempts + 1} put off for ${wait} ms (nothing recorded): ${reason}`),
      left: (id) => this.reloader?.deliveryLeft(id),
    });
    this.queue = queue;
    this.metrics?.gauge('cds_webhook_deliveries_pending', 'Deliveries waiting in this dispatcher for their next attempt', [], (set) => set({}, queue.size));
    this.fanOut = new WebhookFanOut(models, schedule, async (tenantId, id) => queue.has(id) || (await models.getDelivery(tenantId, id)) !== null);
    await this.catchUp();
    if (this.stopping) return;
    this.reloader = new PendingReloader(
      { page: (limit, after) => models.listPendingDeliveries(limit, after), caughtUp: () => this.deliveriesProjected() },
      queue,
      RELOAD,
      this.logger,
    );
    await this.reloader.fill();
    this.follower = new LogFollower(
      this.log,
      {
        group: 'webhook-dispatcher',
        topics: DISPATCH_SOURCE_TOPICS,
        startFrom: 'committed',
        maxBatch: 500,
        // As text: most events (every decision of a tenant without webhooks) are skipped
        // on their heads, unparsed.
        encoded: true,
        handle: (b) => this.handle(b),
      },
      this.logger,
      this.metrics?.logHandled,
    );
  }

  private async handle(batch: EncodedEvent[]): Promise<HandlerOutcome> {
    const webhooksOf: WebhooksByTenant = new Map();
    const keep = await this.fanOut!.mayDeliver(
      batch.map((e) => envelopeHead(e.json)),
      webhooksOf,
    );
    const events = liftEncodedBatch(
      batch.filter((_, i) => keep[i]),
      this.logger,
    ).map((l) => l.event);
    const { scheduled, pending } = await this.fanOut!.plan(events, new Date(), webhooksOf);
    if (scheduled.length > 0) {
      for (const e of scheduled) validateEvent(e);
      try {
        await this.log.append('deliveries', scheduled);
      } catch (err) {
        // Nothing is checkpointed: the batch comes again, and what was scheduled with it.
        return { retryLater: `cannot record the deliveries it schedules: ${(err as Error).message}` };
      }
    }
    for (const d of pending) this.queue!.add(d);
    return { applied: events.length, skipped: batch.length - events.length };
  }

  /** Wait until the read models hold everything the log has on the dispatcher's state. */
  private async catchUp(): Promise<void> {
    while (!this.stopping) {
      let positions: LogPosition[];
      try {
        positions = await retry(() => this.lastPositions(STATE_TOPICS), END_RETRY, {
          stopped: () => this.stopping,
          onFailure: (err, _n, delay) => this.logger.warn(`cannot read the log's end yet: ${(err as Error).message}; retrying in ${delay} ms`),
        });
      } catch {
        return; // stopping
      }
      if (await this.readModels!.waitFor(positions, 5000)) return;
      this.logger.warn('waiting for the read models to catch up with the log before resuming pending deliveries');
    }
  }

  /** The read models hold every delivery event on the log now (before a page of pending
   * deliveries is read: see PendingReloader); throws when they lag. */
  private async deliveriesProjected(): Promise<void> {
    if (!(await this.readModels!.waitFor(await this.lastPositions(['deliveries']), 10_000)))
      throw new Error('the read models are behind the log on deliveries');
  }

  /** The last event on the log of each partition of `topics`. */
  private async lastPositions(topics: readonly Topic[]): Promise<LogPosition[]> {
    const positions: LogPosition[] = [];
    for (const topic of topics) {
      for (const [partition, next] of await this.log.endOffsets(topic)) if (next > 0) positions.push({ topic, partition, offset: next - 1 });
    }
    return positions;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.reloader?.stop();
    await this.follower?.stop();
    this.follower = null;
    await this.queue?.stop();
  }
}
