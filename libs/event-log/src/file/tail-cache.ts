/**
 * The most recent records of a partition as their JSON text, so subscribers that keep up
 * (and reads near the end) are served from memory. Text rather than objects: every reader
 * gets its own parsed copy, and what an appender does to its objects later cannot leak in.
 */
export class TailCache {
  private items: string[] = [];
  private head = 0;
  private chars = 0;

  constructor(
    /** Offset of items[head]. */
    private first: number,
    private readonly maxRecords: number,
    private readonly maxChars: number,
  ) {}

  /** The first offset served from memory; everything from here to the end is cached. */
  get firstOffset(): number {
    return this.first;
  }

  push(jsons: string[]): void {
    for (const j of jsons) {
      this.items.push(j);
      this.chars += j.length;
    }
    while (this.items.length - this.head > this.maxRecords || (this.chars > this.maxChars && this.items.length - this.head > 1)) {
      this.chars -= this.items[this.head].length;
      this.head += 1;
      this.first += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Up to `max` records from `offset` (which must be >= firstOffset). */
  slice(offset: number, max: number): string[] {
    const start = this.head + (offset - this.first);
    return this.items.slice(start, Math.min(start + max, this.items.length));
  }
}
