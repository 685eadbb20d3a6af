import { LogPosition } from '@cds/event-log';

interface Waiter {
  positions: LogPosition[];
  resolve: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

/** Tracks the next offset applied per partition and wakes those waiting for one. */
export class PositionWaiters {
  private readonly applied = new Map<string, number>();
  private waiters: Waiter[] = [];

  advance(topic: string, partition: number, nextOffset: number): void {
    const k = `${topic}:${partition}`;
    if ((this.applied.get(k) ?? 0) >= nextOffset) return;
    this.applied.set(k, nextOffset);
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (this.reached(w.positions)) {
        clearTimeout(w.timer);
        w.resolve(true);
      } else still.push(w);
    }
    this.waiters = still;
  }

  /** Next offset applied per `topic:partition`. */
  snapshot(): Map<string, number> {
    return new Map(this.applied);
  }

  reached(positions: LogPosition[]): boolean {
    return positions.every((p) => (this.applied.get(`${p.topic}:${p.partition}`) ?? 0) > p.offset);
  }

  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    if (this.reached(positions)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const w: Waiter = {
        positions,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((x) => x !== w);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(w);
    });
  }

  cancelAll(): void {
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.waiters = [];
  }
}
