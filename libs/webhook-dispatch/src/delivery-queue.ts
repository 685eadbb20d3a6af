import { backoffDelay } from '@cds/backoff';
import { DeliveryPlan } from '@cds/events';

/** A delivery waiting for its next attempt. */
export interface PendingDelivery extends DeliveryPlan {
  tenantId: string;
  /** Attempts made (and recorded) so far. */
  attempts: number;
  dueAt: number;
  /** How many times in a row this attempt was put off with nothing recorded (backoff). */
  deferrals?: number;
}

/** What one run of a delivery came to. */
export type AttemptOutcome =
  /** Recorded on the log, nothing left to do: delivered, given up, or cancelled. */
  | { kind: 'done' }
  /** A failed attempt was recorded: `next` is the following one, due on the schedule. */
  | { kind: 'retry'; next: PendingDelivery }
  /** Nothing was recorded (a read model or the log was away): the same attempt again,
   * after a backoff. */
  | { kind: 'retry-later'; reason: string };

export interface DeliveryQueueEvents {
  /** An attempt was put off (`retry-later`, or a run that threw). */
  deferred(d: PendingDelivery, reason: string, retryInMs: number): void;
  /** A delivery left the queue for good (its outcome was `done`). */
  left?(deliveryId: string): void;
}

const DEFERRAL_BACKOFF = { baseMs: 1_000, maxMs: 60_000 };

/** Wait before the same attempt is tried again after `deferrals` put-offs in a row: 1 s, 2 s, 4 s… up to a minute. */
export function deferralDelay(deferrals: number): number {
  return backoffDelay(deferrals, DEFERRAL_BACKOFF);
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
    private readonly run: (d: PendingDelivery) => Promise<AttemptOutcome>,
    private readonly concurrency: number,
    private readonly events: DeliveryQueueEvents,
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
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerDue = Infinity;
        this.pump();
      },
      Math.max(0, nextDue - now),
    );
  }

  private start(d: PendingDelivery): void {
    this.waiting.delete(d.deliveryId);
    const p = this.run(d)
      .catch((err: unknown): AttemptOutcome => ({ kind: 'retry-later', reason: (err as Error)?.message ?? String(err) }))
      .then((outcome) => {
        this.running.delete(d.deliveryId);
        this.settle(d, outcome);
      })
      .finally(() => this.pump());
    this.running.set(d.deliveryId, p);
  }

  private settle(d: PendingDelivery, outcome: AttemptOutcome): void {
    switch (outcome.kind) {
      case 'done':
        this.events.left?.(d.deliveryId);
        return;
      case 'retry':
        this.add(outcome.next);
        return;
      case 'retry-later': {
        // Nothing recorded: the same attempt (same number) again, backing off.
        const deferrals = d.deferrals ?? 0;
        const wait = deferralDelay(deferrals);
        this.events.deferred(d, outcome.reason, wait);
        this.add({ ...d, dueAt: Date.now() + wait, deferrals: deferrals + 1 });
        return;
      }
      default: {
        const exhaustive: never = outcome;
        return exhaustive;
      }
    }
  }
}
