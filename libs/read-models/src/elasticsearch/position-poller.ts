import { LogPosition } from '@cds/event-log';

export interface Partition {
  topic: string;
  partition: number;
}

interface Pending {
  positions: LogPosition[];
  resolve: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

const keyOf = (p: Partition) => `${p.topic}:${p.partition}`;

/**
 * Read-your-writes for processes that do not apply the batches themselves (api
 * replicas): one loop per process polls the stored positions of every partition anyone
 * waits for, and resolves each waiter once its offsets are applied. A node that cannot
 * be reached only delays: each waiter still ends at its own timeout.
 */
export class PositionPoller {
  private readonly pending = new Set<Pending>();
  private running = false;
  /** The highest next offset seen stored per partition: stored positions only grow (a
   * promoted generation was caught up past the one it replaces), so what was seen applied
   * stays applied and a later wait for it polls nothing. */
  private readonly seen = new Map<string, number>();

  constructor(
    /** Next offset to apply per `topic:partition` (absent: nothing applied). */
    private readonly readNext: (partitions: Partition[]) => Promise<Map<string, number>>,
    /** This process's own knowledge, checked first (it applied the batch itself). */
    private readonly appliedLocally: (positions: LogPosition[]) => boolean,
    private readonly intervalMs: number,
    /** Told when a poll saw a stored position move past what was seen before. */
    private readonly onAdvance: () => void = () => undefined,
  ) {}

  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    if (this.appliedLocally(positions) || this.seenApplied(positions)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const p: Pending = { positions, resolve, timer: setTimeout(() => this.settle(p, false), timeoutMs) };
      this.pending.add(p);
      if (!this.running) {
        this.running = true;
        void this.run();
      }
    });
  }

  private seenApplied(positions: LogPosition[]): boolean {
    return positions.every((x) => (this.seen.get(keyOf(x)) ?? 0) > x.offset);
  }

  /** Re-check the waiters against this process's own knowledge, which just grew. */
  poke(): void {
    for (const p of [...this.pending]) if (this.appliedLocally(p.positions)) this.settle(p, true);
  }

  cancelAll(): void {
    for (const p of [...this.pending]) this.settle(p, false);
  }

  private settle(p: Pending, ok: boolean): void {
    if (!this.pending.delete(p)) return;
    clearTimeout(p.timer);
    p.resolve(ok);
  }

  private async run(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const wanted = new Map<string, Partition>();
        for (const p of this.pending) for (const x of p.positions) wanted.set(keyOf(x), { topic: x.topic, partition: x.partition });
        try {
          const next = await this.readNext([...wanted.values()]);
          let advanced = false;
          for (const [k, n] of next) {
            if (n <= (this.seen.get(k) ?? 0)) continue;
            this.seen.set(k, n);
            advanced = true;
          }
          if (advanced) this.onAdvance();
          for (const p of [...this.pending]) {
            if (this.seenApplied(p.positions) || this.appliedLocally(p.positions)) this.settle(p, true);
          }
        } catch {
          // Node away or slow: keep polling; every waiter ends at its own timeout.
        }
        if (this.pending.size > 0) await new Promise((r) => setTimeout(r, this.intervalMs));
      }
    } finally {
      this.running = false;
    }
  }
}
