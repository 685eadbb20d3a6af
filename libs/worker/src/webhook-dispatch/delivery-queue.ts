import { DeliveryTarget } from '@cds/events';

/** A delivery waiting for its next attempt. */
export interface PendingDelivery {
  deliveryId: string;
  tenantId: string;
  webhookId: string | null;
  target: DeliveryTarget;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
  /** Attempts made so far. */
  attempts: number;
  dueAt: number;
}

/**
 * The dispatcher's in-memory timetable: runs each pending delivery when it is due, at
 * most `concurrency` at a time, never two attempts of one delivery at once. What it
 * holds is also on the log (scheduled / attempted events), so losing it to a crash loses
 * nothing: the dispatcher reloads it from the read models on start.
 */
export class DeliveryQueue {
  private readonly waiting = new Map<string, PendingDelivery>();
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private timerDue = Infinity;
  private stopped = false;

  constructor(
    private readonly run: (d: PendingDelivery) => Promise<PendingDelivery | null>,
    private readonly concurrency: number,
    private readonly onError: (d: PendingDelivery, err: unknown) => void,
  ) {}

  has(deliveryId: string): boolean {
    return this.waiting.has(deliveryId) || this.running.has(deliveryId);
  }

  get size(): number {
    return this.waiting.size + this.running.size;
  }

  add(d: PendingDelivery): void {
    if (this.stopped || this.has(d.deliveryId)) return;
    this.waiting.set(d.deliveryId, d);
    this.pump();
  }

  /** Stop starting attempts; resolves when those in flight have finished (and been recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running.values()]);
  }

  private pump(): void {
    if (this.stopped) return;
    const now = Date.now();
    // Insertion order is close to due order (retries are re-added later with later due
    // times), so a backlog is drained without sorting it on every completion.
    for (const d of this.waiting.values()) {
      if (this.running.size >= this.concurrency) return; // the next finishing attempt pumps again
      if (d.dueAt <= now) this.start(d);
    }
    let nextDue = Infinity;
    for (const d of this.waiting.values()) nextDue = Math.min(nextDue, d.dueAt);
    if (nextDue === Infinity) return;
    if (this.timer && this.timerDue <= nextDue) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = nextDue;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = Infinity;
      this.pump();
    }, Math.max(0, nextDue - now));
  }

  private start(d: PendingDelivery): void {
    this.waiting.delete(d.deliveryId);
    const p = this.run(d)
      .then((next) => {
        this.running.delete(d.deliveryId);
        if (next) this.add(next);
      })
      .catch((err: unknown) => {
        this.running.delete(d.deliveryId);
        this.onError(d, err);
        // Not recorded: try the same attempt again shortly.
        this.add({ ...d, dueAt: Date.now() + 1000 });
      })
      .finally(() => this.pump());
    this.running.set(d.deliveryId, p);
  }
}
