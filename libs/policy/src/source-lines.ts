/** Maps offsets in a source text to 1-based line and column numbers. A line ends
 * at "\n", "\r\n" or a lone "\r", as in YAML. */
export class SourceLines {
  private readonly starts: number[] = [0];

  constructor(source: string) {
    for (let i = 0; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 0x0a || (c === 0x0d && source.charCodeAt(i + 1) !== 0x0a)) this.starts.push(i + 1);
    }
  }

  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}
