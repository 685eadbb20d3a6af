import { DeliveryDoc } from '@cds/read-models';
import { PendingDelivery } from './delivery-queue';

/** Where the reloader reads pending deliveries. */
export interface PendingSource {
  /** Up to `limit` pending deliveries after `after`, in (due time, id) order
   * (WebhookReadModels.listPendingDeliveries). */
  page(limit: number, after: DeliveryDoc | null): Promise<DeliveryDoc[]>;
  /** Resolves once the read models hold every delivery event the log has now, so a page
   * read afterwards shows each attempt recorded before the call; throws when they lag. */
  caughtUp(): Promise<void>;
}

/** The part of DeliveryQueue the reloader fills. */
export interface ReloadTarget {
  readonly size: number;
  has(deliveryId: string): boolean;
  add(d: PendingDelivery): void;
}

export interface ReloadSettings {
  /** Deliveries read per page. */
  pageSize: number;
  /** No page is read while the queue holds more than this minus a page. */
  maxHeld: number;
  /** Deliveries due later than this from now are read when their time comes near. */
  horizonMs: number;
  /** Wait before reading again after a failed read. */
  retryMs: number;
}

export interface ReloadClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const REAL_CLOCK: ReloadClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

interface Logger {
  log(message: string): void;
  warn(message: string): void;
}

/**
 * Resumes the deliveries still pending after a start, page by page in due order (keyset
 * paging on the read models), instead of in one read: every one is resumed however many
 * there are, while memory holds a bounded window of them. A page is read while the queue
 * has room for it (`maxHeld`) and the last delivery read is due within `horizonMs`; as
 * attempts finish, or as that time comes, the next page is read, until a short page
 * says none is left. Deliveries planned after the start reach the queue from the
 * fan-out, and retries from the attempts: neither needs the reloader.
 *
 * A page must not bring back a delivery this process has finished: each page is read
 * after the read models caught up with the log (attempts recorded before are in it),
 * and deliveries that leave the queue while the page is read are skipped.
 */
export class PendingReloader {
  private cursor: DeliveryDoc | null = null;
  private exhausted = false;
  private stopped = false;
  private loading: Promise<void> | null = null;
  /** Deliveries that left the queue since the current page started being read. */
  private leftDuringRead: Set<string> | null = null;
  private timer: unknown = null;
  private backingOff = false;
  private resumed = 0;

  constructor(
    private readonly source: PendingSource,
    private readonly queue: ReloadTarget,
    private readonly settings: ReloadSettings,
    private readonly logger: Logger,
    private readonly clock: ReloadClock = REAL_CLOCK,
  ) {}

  /** Every pending delivery has been read (the rest reach the queue without the reloader). */
  get done(): boolean {
    return this.exhausted;
  }

  /** Read pages while there is room and they are due soon; resolves when that stops. */
  fill(): Promise<void> {
    if (this.loading) return this.loading;
    if (!this.wanted()) {
      this.armTimer();
      return Promise.resolve();
    }
    // Started on the next tick, so `loading` is set before anything the read calls can call back here.
    this.loading = Promise.resolve()
      .then(() => this.load())
      .finally(() => {
        this.loading = null;
        void this.fill(); // room may have come while the last page was read
      });
    return this.loading;
  }

  /** A delivery left the queue for good: there is room for more, and a page being read
   * must not bring it back. */
  deliveryLeft(deliveryId: string): void {
    this.leftDuringRead?.add(deliveryId);
    void this.fill();
  }

  /** Reads no more pages (one being read is dropped: the queue is stopping too). */
  stop(): void {
    this.stopped = true;
    this.disarmTimer();
  }

  private wanted(): boolean {
    if (this.stopped || this.exhausted || this.backingOff) return false;
    if (this.queue.size + this.settings.pageSize > this.settings.maxHeld) return false;
    return this.cursor === null || dueOf(this.cursor, 0) <= this.clock.now() + this.settings.horizonMs;
  }

  private async load(): Promise<void> {
    while (this.wanted()) {
      const left = (this.leftDuringRead = new Set<string>());
      let page: DeliveryDoc[];
      try {
        await this.source.caughtUp();
        page = await this.source.page(this.settings.pageSize, this.cursor);
      } catch (err) {
        if (this.stopped) return;
        this.logger.warn(`cannot read pending deliveries yet: ${(err as Error).message}; retrying in ${this.settings.retryMs} ms`);
        this.disarmTimer();
        this.backingOff = true;
        this.timer = this.clock.setTimeout(() => {
          this.timer = null;
          this.backingOff = false;
          void this.fill();
        }, this.settings.retryMs);
        return;
      } finally {
        this.leftDuringRead = null;
      }
      if (this.stopped) return;
      const now = this.clock.now();
      for (const doc of page) {
        if (this.queue.has(doc.deliveryId) || left.has(doc.deliveryId)) continue;
        this.queue.add(pendingOf(doc, now));
        this.resumed++;
      }
      if (page.length > 0) this.cursor = page[page.length - 1];
      if (page.length < this.settings.pageSize) {
        this.exhausted = true;
        if (this.resumed > 0) this.logger.log(`resumed ${this.resumed} pending deliveries`);
      }
    }
  }

  /** Wake when the next unread deliveries come within the horizon (room is signalled by `deliveryLeft`). */
  private armTimer(): void {
    if (this.stopped || this.exhausted || this.timer !== null || !this.cursor) return;
    const wakeAt = dueOf(this.cursor, 0) - this.settings.horizonMs;
    if (wakeAt <= this.clock.now()) return; // nothing to wait for: room is what is missing
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.fill();
    }, wakeAt - this.clock.now());
  }

  private disarmTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}

const dueOf = (d: DeliveryDoc, fallback: number) => (d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : fallback);

function pendingOf(d: DeliveryDoc, now: number): PendingDelivery {
  return {
    deliveryId: d.deliveryId,
    tenantId: d.tenantId,
    webhookId: d.webhookId,
    target: d.target,
    eventId: d.eventId,
    eventType: d.eventType,
    payload: d.payload,
    attempts: d.attempts,
    dueAt: dueOf(d, now),
  };
}
