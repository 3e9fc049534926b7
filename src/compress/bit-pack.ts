/**
 * Little-endian bit packing into Uint32 words: a field of n bits starts at any bit offset, low bits
 * first, and may straddle two words. Fields are 0…24 bits wide (the widest residual; a 0-bit field
 * reads as 0 and writes nothing). Block headers use Exp-Golomb codes of zigzag-mapped differences.
 */

/** The widest field `readBits`/`writeBits` handle. */
export const MAX_FIELD_BITS = 24;

/** Reads an unsigned `n`-bit field (0 ≤ n ≤ 24; 0 bits read as 0) starting at bit `bit`. Allocates nothing. */
export function readBits(data: Uint32Array, bit: number, n: number): number {
  const w = bit >>> 5;
  const s = bit & 31;
  let v = data[w]! >>> s;
  // s + n > 32 implies s > 8, so the shift below is in 1…23 (never JavaScript's no-op shift by 32).
  if (s + n > 32) v |= data[w + 1]! << (32 - s);
  return v & ((1 << n) - 1);
}

/** Writes the low `n` bits (1 ≤ n ≤ 24) of `value` at bit `bit`; `data` must be zero there. */
export function writeBits(data: Uint32Array, bit: number, n: number, value: number): void {
  const w = bit >>> 5;
  const s = bit & 31;
  const v = value & ((1 << n) - 1);
  data[w] = (data[w]! | (v << s)) >>> 0;
  if (s + n > 32) data[w + 1] = (data[w + 1]! | (v >>> (32 - s))) >>> 0;
}

/** Number of Uint32 words holding `bits` bits. */
export function wordsFor(bits: number): number {
  return Math.ceil(bits / 32);
}

/** The zigzag map of a signed integer onto 0, 1, 2, …: 0 → 0, −1 → 1, 1 → 2, −2 → 3, … */
export function zigzag(d: number): number {
  return d >= 0 ? 2 * d : -2 * d - 1;
}

/** Inverse of `zigzag`. */
export function unzigzag(n: number): number {
  return n & 1 ? -(n + 1) / 2 : n / 2;
}

/**
 * Bits of n ≥ 0 in the Exp-Golomb code of order k: with m = n + 2^k and L = ⌊log₂ m⌋, L − k zero bits, a
 * one bit, then the low L bits of m — 2L − k + 1 bits, so small values are short.
 */
export function expGolombLength(n: number, k: number): number {
  const L = 31 - Math.clz32(n + (1 << k));
  return 2 * L - k + 1;
}

/** Writes n ≥ 0 (n + 2^k < 2^25) in Exp-Golomb order k at `bit` (the data there must be zero); returns the next bit. */
export function writeExpGolomb(data: Uint32Array, bit: number, n: number, k: number): number {
  const m = n + (1 << k);
  const L = 31 - Math.clz32(m);
  bit += L - k;
  writeBits(data, bit, 1, 1);
  bit++;
  if (L > 0) writeBits(data, bit, L, m - (1 << L));
  return bit + L;
}

/** Where `readExpGolomb` leaves its result: the value and the bit after it (−1 value: invalid). */
export interface ExpGolombRead {
  value: number;
  bit: number;
}

/**
 * Reads an Exp-Golomb order-k value at `bit` into `out`. Gives value −1 when the code would run past
 * `endBit` or its prefix is longer than 24 − k zeros (damaged data), so a reader can report it.
 */
export function readExpGolomb(data: Uint32Array, bit: number, k: number, endBit: number, out: ExpGolombRead): ExpGolombRead {
  let zeros = 0;
  while (bit < endBit && readBits(data, bit, 1) === 0) {
    zeros++;
    bit++;
    if (zeros > MAX_FIELD_BITS - k) {
      out.value = -1;
      return out;
    }
  }
  const L = zeros + k;
  if (bit + 1 + L > endBit) {
    out.value = -1;
    return out;
  }
  bit++;
  out.value = (1 << L) + (L > 0 ? readBits(data, bit, L) : 0) - (1 << k);
  out.bit = bit + L;
  return out;
}
