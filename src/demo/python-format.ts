// Python-compatible number formatting, so a port prints the same bytes as the Python original.
import { expectInteger, expectNumber, expectString } from "../errors/check-argument.ts";

const view = new DataView(new ArrayBuffer(8));

/**
 * Python's `'%.Nf' % x` (and `format(x, '.Nf')`): the exact binary value of the double, rounded to
 * `digits` decimals half-to-even. JavaScript's `toFixed` differs on exact ties (it rounds them up: 0.125
 * → "0.13", Python "0.12") and on negative zero (Python keeps the sign: "-0.00"). Pure, exact (BigInt).
 */
export function formatFixed(x: number, digits: number): string {
  expectNumber("formatFixed", "x", x);
  expectInteger("formatFixed", "digits", digits, 0, 100);
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const negative = x < 0 || Object.is(x, -0);
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074; // subnormal
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  // |x| = mantissa · 2^exponent; scaled = |x| · 10^digits.
  const numerator = mantissa * 10n ** BigInt(digits);
  let q: bigint;
  if (exponent >= 0) {
    q = numerator << BigInt(exponent);
  } else {
    const den = 1n << BigInt(-exponent);
    q = numerator / den;
    const r2 = 2n * (numerator - q * den);
    if (r2 > den || (r2 === den && (q & 1n) === 1n)) q += 1n;
  }
  let text = q.toString();
  if (digits > 0) {
    text = text.padStart(digits + 1, "0");
    text = `${text.slice(0, text.length - digits)}.${text.slice(text.length - digits)}`;
  }
  return (negative ? "-" : "") + text;
}

/** Widest field padRight pads to (a wider one is a caller's bug, not a layout). */
const MAX_PAD_WIDTH = 1 << 20;

/** Python's `'%-Ns' % s`: left-justified in a field of `width` code points. */
export function padRight(s: string, width: number): string {
  expectString("padRight", "s", s);
  expectInteger("padRight", "width", width, 0, MAX_PAD_WIDTH);
  const n = [...s].length;
  return n >= width ? s : s + " ".repeat(width - n);
}
