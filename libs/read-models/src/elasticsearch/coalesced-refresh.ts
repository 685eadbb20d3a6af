/**
 * Refreshes shared by concurrent writers. A writer that needs its documents visible to
 * searches asks for a refresh of the indices it wrote; while one refresh runs, every
 * writer that arrives waits for the next one, which covers all of their indices. So the
 * node refreshes once per round instead of once per bulk (a forced refresh per bulk was
 * most of the projector's time under load), and no writer is answered by a refresh that
 * began before its documents were written.
 */
export class CoalescedRefresh {
  private pending = new Set<string>();
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly refresh: (indices: string[]) => Promise<void>) {}

  /** Resolves once a refresh that began after this call has covered `indices`. */
  after(indices: Iterable<string>): Promise<void> {
    for (const i of indices) this.pending.add(i);
    if (!this.running) return this.start();
    this.next ??= this.running.then(() => this.startNext());
    return this.next;
  }

  private startNext(): Promise<void> {
    this.next = null;
    return this.start();
  }

  private start(): Promise<void> {
    const indices = [...this.pending];
    this.pending.clear();
    const round = this.refresh(indices);
    // Settles either way (a failure is the writers' of that round, not a later one's).
    const tracked: Promise<void> = round.then(
      () => this.finished(tracked),
      () => this.finished(tracked),
    );
    this.running = tracked;
    return round;
  }

  private finished(round: Promise<void>): void {
    if (this.running === round) this.running = null;
  }
}
