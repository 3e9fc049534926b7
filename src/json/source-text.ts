/** Maps offsets in a text to 1-based line and column numbers (binary search over line starts). */
export class SourceText {
  private readonly lineStarts: number[] = [0];

  /** Indexes the line starts of `text` (LF, CRLF and lone CR each end a line). */
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  /** The 1-based line and column (UTF-16 units) of `offset`, a 0-based offset into `text`. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo]! + 1 };
  }
}
