/**
 * Scalar and rotation quantisation used by compressed clips.
 *
 * - Range quantisation: a value v in [min, min + extent] becomes the integer round((v − min) / extent ×
 *   (2^b − 1)); decoding gives min + q × extent / (2^b − 1). Error ≤ extent / (2 (2^b − 1)).
 * - Smallest-three (per key): the largest-magnitude component of the unit quaternion is dropped (made
 *   positive by negating the whole quaternion, which is the same rotation), the other three lie in
 *   [−1/√2, 1/√2] and are range-quantised; 2 bits name the dropped component. Decoding restores it as
 *   √(1 − a² − b² − c²).
 * - Fixed-drop (per track): when one component keeps |q_k| ≥ 0.5 over every key of a track, that
 *   component is dropped for all keys (no index bits) and the other three are range-quantised over
 *   the track's own range per component, which is far narrower than [−1/√2, 1/√2]. The 0.5 floor keeps
 *   the restored component well conditioned (∂q_k/∂q_i = −q_i / q_k ≤ √3 in magnitude).
 */

/** 1/√2: the bound on the three smallest components of a unit quaternion. */
export const SMALLEST_THREE_RANGE = Math.SQRT1_2;

/** Quantises `v` over [min, min + extent] to `bits` bits (clamped into range). */
export function quantizeUnit(v: number, min: number, extent: number, bits: number): number {
  const levels = (1 << bits) - 1;
  if (!(extent > 0)) return 0;
  const q = Math.round(((v - min) / extent) * levels);
  return q < 0 ? 0 : q > levels ? levels : q;
}

/** Inverse of `quantizeUnit`. */
export function dequantizeUnit(q: number, min: number, extent: number, bits: number): number {
  return min + (q * extent) / ((1 << bits) - 1);
}

/**
 * Which component to drop for a whole track (fixed-drop mode): the index k whose smallest |q_k| over
 * all keys is largest, if that is ≥ 0.5; otherwise −1 (the track then uses per-key smallest-three).
 * `values` holds 4 floats per key.
 */
export function chooseFixedDrop(values: ArrayLike<number>, keyCount: number): number {
  let best = -1;
  let bestMin = 0.5;
  for (let k = 0; k < 4; k++) {
    let m = Infinity;
    for (let i = 0; i < keyCount && m >= bestMin; i++) m = Math.min(m, Math.abs(values[4 * i + k]!));
    if (m >= bestMin) {
      best = k;
      bestMin = m;
    }
  }
  return best;
}

/** The index of the largest-magnitude component of the quaternion at `o` (ties: lowest index). */
export function largestComponent(q: ArrayLike<number>, o: number): number {
  let k = 0;
  let m = Math.abs(q[o]!);
  for (let i = 1; i < 4; i++) {
    const a = Math.abs(q[o + i]!);
    if (a > m) {
      m = a;
      k = i;
    }
  }
  return k;
}

/**
 * Restores a quaternion from its three kept components (in x, y, z, w order with `drop` skipped) into
 * `out` at `o`, the dropped one positive: √(1 − a² − b² − c²), which makes it unit length. Only when
 * quantisation pushed a² + b² + c² past 1 is the dropped component 0 and the result normalised.
 */
export function restoreQuat(out: { [i: number]: number }, o: number, drop: number, a: number, b: number, c: number): void {
  const rest = 1 - a * a - b * b - c * c;
  let d = 0;
  if (rest > 0) {
    d = Math.sqrt(rest);
  } else {
    const len = Math.sqrt(a * a + b * b + c * c);
    a /= len;
    b /= len;
    c /= len;
  }
  if (drop === 3) { out[o] = a; out[o + 1] = b; out[o + 2] = c; out[o + 3] = d; }
  else if (drop === 2) { out[o] = a; out[o + 1] = b; out[o + 2] = d; out[o + 3] = c; }
  else if (drop === 1) { out[o] = a; out[o + 1] = d; out[o + 2] = b; out[o + 3] = c; }
  else { out[o] = d; out[o + 1] = a; out[o + 2] = b; out[o + 3] = c; }
}
