/** At most `size` tasks at a time; the others wait in arrival order. */
export class Gate {
  private running = 0;
  private readonly waiting_: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Tasks waiting for a turn. */
  get waiting(): number {
    return this.waiting_.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting_.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting_.shift()?.();
    }
  }
}
