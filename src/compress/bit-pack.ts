/**
 * Little-endian bit packing into Uint32 words: field `k` of `n` bits starts at bit `offset`, low bits
 * first, and may straddle two words. Fields are 0…24 bits wide (a 0-bit field reads as 0 and writes nothing) (the widest quantised component).
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
