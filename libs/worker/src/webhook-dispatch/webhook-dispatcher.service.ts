import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { AppConfig } from '@cds/config';
import { DomainEvent, EventSchemaError, Topic, upcast, validateEvent } from '@cds/events';
import { EVENT_LOG, EventLog, LogFollower, LogPosition, StoredEvent } from '@cds/event-log';
import { READ_MODELS, ReadModels, WebhookReadModels, webhookReadModels } from '@cds/read-models';
import { parseRetrySchedule } from '@cds/webhooks';
import { DeliveryAttempter } from './delivery-attempter';
import { DeliveryQueue, PendingDelivery } from './delivery-queue';
import { WebhookFanOut } from './webhook-fan-out';
import { webhookSecretKey } from './webhook-secret-key';

/** The streams whose events become webhook deliveries. */
export const DISPATCH_SOURCE_TOPICS: Topic[] = ['decisions', 'guardrails', 'jobs'];
/** What must be projected before pending deliveries are reloaded after a start. */
const STATE_TOPICS: Topic[] = ['webhooks', 'deliveries', 'jobs'];
const CONCURRENT_ATTEMPTS = 32;
const MAX_RELOADED = 100_000;

/**
 * Webhook dispatch, a consumer of the log like the projector (group `webhook-dispatcher`).
 * A batch of source events is checkpointed only once the deliveries it gives rise to
 * are appended (`webhook.delivery.scheduled`); each attempt is then recorded
 * (`webhook.delivery.attempted`) before the next step. On start, once the read models
 * have caught up with the log, every delivery still pending is reloaded: a crash loses
 * no delivery, and one recorded as delivered (2xx) is never sent again.
 * Runs one per deployment (the pending timetable is not shared between processes).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WebhookDispatcher');
  private follower: LogFollower | null = null;
  private queue: DeliveryQueue | null = null;
  private fanOut: WebhookFanOut | null = null;
  private stopping = false;

  constructor(
    @Inject(EVENT_LOG) private readonly log: EventLog,
    private readonly config: AppConfig,
    @Optional() @Inject(READ_MODELS) private readonly readModels: ReadModels | null,
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
    const models = webhookReadModels(this.readModels);
    const schedule = parseRetrySchedule(this.config.WEBHOOK_RETRY_SCHEDULE);
    const attempter = new DeliveryAttempter(
      this.log, models,
      {
        schedule, timeoutMs: this.config.WEBHOOK_TIMEOUT_MS, disableAfterMs: parseRetrySchedule(this.config.WEBHOOK_DISABLE_AFTER)[0],
        egress: { allowLoopback: this.config.EGRESS_ALLOW_LOOPBACK, allowPrivate: this.config.EGRESS_ALLOW_PRIVATE },
        secretKey: webhookSecretKey(this.config),
      },
      this.logger, () => this.stopping,
    );
    const queue = new DeliveryQueue((d) => attempter.attempt(d), CONCURRENT_ATTEMPTS, (d, err) =>
      this.logger.error(`delivery ${d.deliveryId} attempt not made or not recorded, retrying: ${(err as Error)?.message ?? String(err)}`),
    );
    this.queue = queue;
    this.fanOut = new WebhookFanOut(models, schedule, async (tenantId, id) => queue.has(id) || (await models.getDelivery(tenantId, id)) !== null);
    await this.catchUp();
    if (this.stopping) return;
    await this.reloadPending(models, queue);
    this.follower = new LogFollower(
      this.log,
      { group: 'webhook-dispatcher', topics: DISPATCH_SOURCE_TOPICS, startFrom: 'committed', maxBatch: 500, handler: (b) => this.handle(b) },
      this.logger,
    );
  }

  private async handle(batch: StoredEvent[]): Promise<void> {
    const { scheduled, pending } = await this.fanOut!.plan(lift(batch, this.logger));
    if (scheduled.length > 0) {
      for (const e of scheduled) validateEvent(e);
      await this.log.append('deliveries', scheduled); // a throw redelivers the batch: nothing is checkpointed
    }
    for (const d of pending) this.queue!.add(d);
  }

  /** Wait until the read models hold everything the log has on the dispatcher's state. */
  private async catchUp(): Promise<void> {
    for (let delay = 500; !this.stopping; delay = Math.min(delay * 2, 10_000)) {
      try {
        const positions: LogPosition[] = [];
        for (const topic of STATE_TOPICS) {
          for (const [partition, next] of await this.log.endOffsets(topic)) if (next > 0) positions.push({ topic, partition, offset: next - 1 });
        }
        if (await this.readModels!.waitFor(positions, 5000)) return;
        this.logger.warn('waiting for the read models to catch up with the log before resuming pending deliveries');
      } catch (err) {
        this.logger.warn(`cannot read the log's end yet: ${(err as Error).message}; retrying in ${delay} ms`);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private async reloadPending(models: WebhookReadModels, queue: DeliveryQueue): Promise<void> {
    const pending = await models.listPendingDeliveries(MAX_RELOADED);
    for (const d of pending) {
      const reloaded: PendingDelivery = {
        deliveryId: d.deliveryId, tenantId: d.tenantId, webhookId: d.webhookId, target: d.target, eventId: d.eventId, eventType: d.eventType,
        payload: d.payload, attempts: d.attempts, dueAt: d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : Date.now(),
      };
      queue.add(reloaded);
    }
    if (pending.length > 0) this.logger.log(`resumed ${pending.length} pending deliveries`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.follower?.stop();
    this.follower = null;
    await this.queue?.stop();
  }
}

function lift(batch: StoredEvent[], logger: Logger): DomainEvent[] {
  const out: DomainEvent[] = [];
  for (const s of batch) {
    try {
      out.push(upcast(s.event));
    } catch (err) {
      if (!(err instanceof EventSchemaError)) throw err;
      logger.error(`skipped ${s.topic}/${s.partition}@${s.offset} (${s.event?.type}): ${err.message}`);
    }
  }
  return out;
}
