/** One whitespace-separated word of a BVH file with its 1-based position. */
export interface BvhToken {
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The lines of a BVH text, split on LF, CRLF or a lone CR (the CMU 131 files mix CRLF and LF), with
 * lazy tokenisation so a huge MOTION section is never split into token objects all at once.
 */
export class BvhLines {
  /** Offset of each line's first character. */
  private readonly starts: number[] = [0];
  /** Offset just past each line's last character (before its line break). */
  private readonly ends: number[] = [];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 13) {
        this.ends.push(i);
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
    this.ends.push(text.length);
  }

  get count(): number {
    return this.starts.length;
  }

  /** The words of line `index` (0-based), with 1-based line and column numbers. */
  tokens(index: number): BvhToken[] {
    const out: BvhToken[] = [];
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    let i = start;
    while (i < end) {
      while (i < end && isSpace(this.text.charCodeAt(i))) i++;
      if (i >= end) break;
      const s = i;
      while (i < end && !isSpace(this.text.charCodeAt(i))) i++;
      out.push({ text: this.text.slice(s, i), line: index + 1, column: s - start + 1 });
    }
    return out;
  }

  /** Whether line `index` holds only whitespace. */
  isBlank(index: number): boolean {
    const end = this.ends[index]!;
    for (let i = this.starts[index]!; i < end; i++) if (!isSpace(this.text.charCodeAt(i))) return false;
    return true;
  }

  /**
   * Parses the numbers of line `index` into `out` at `at`, stopping after `max` values. Returns the count
   * of words on the line (which may exceed `max`) or, for the first word that is not a finite decimal
   * number, `-(column)` so the caller can point at it. Allocation-free apart from `Number()`'s substring.
   */
  numbers(index: number, out: Float32Array, at: number, max: number): number {
    const start = this.starts[index]!;
    const end = this.ends[index]!;
    let i = start;
    let n = 0;
    while (i < end) {
      while (i < end && isSpace(this.text.charCodeAt(i))) i++;
      if (i >= end) break;
      const s = i;
      while (i < end && !isSpace(this.text.charCodeAt(i))) i++;
      if (n < max) {
        const v = parseDecimal(this.text, s, i);
        if (v === undefined) return -(s - start + 1);
        out[at + n] = v;
      }
      n++;
    }
    return n;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12;
}

const FLOAT32_MAX = 3.4028234663852886e38;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/; // unambiguous, so linear on any word

/** A finite decimal number (`-0.0`, `.0083333`, `9.27476e-16`), or undefined (NaN, inf, `1.#IND`, junk). */
export function parseDecimal(text: string, from = 0, to = text.length): number | undefined {
  if (to - from > 64) return undefined;
  const word = text.slice(from, to);
  if (!DECIMAL.test(word)) return undefined;
  const v = Number(word);
  // Values are stored as float32: anything beyond its range would silently become Infinity.
  return Number.isFinite(v) && Math.abs(v) <= FLOAT32_MAX ? v : undefined;
}
