import type { LoopMode } from "./clip.ts";

/**
 * Maps a playback time (seconds, any real) into the clip's time range [0, d], d = `duration`:
 * - `loop`: t mod d, in [0, d): the end time d maps to 0, so wrapTime(t + d) = wrapTime(t) (up to the
 *   rounding of t + d) and a seamless clip (last key = first key) joins without a jump. Negative times
 *   wrap backwards (−0.1 → d − 0.1).
 * - `clamp`: min(max(t, 0), d) — the last key holds at and after d.
 * - `pingpong`: period 2d, forward then backward: u = t mod 2d, u ≤ d ? u : 2d − u.
 * A zero, negative or non-finite duration, or a NaN time, gives 0.
 */
export function wrapTime(time: number, duration: number, mode: LoopMode): number {
  const v = args;
  v[0] = time;
  v[1] = duration;
  wrapTimeAt(v, 0, mode);
  return v[0]!;
}
const args = new Float64Array(2);

/**
 * `wrapTime` in memory: v[i] ← wrapTime(v[i], v[i + 1], mode). The per-frame form: a double passed to or
 * returned from a call V8 does not inline is a heap allocation (src/math/quat.ts explains).
 */
export function wrapTimeAt(v: Float64Array, i: number, mode: LoopMode): void {
  const time = v[i]!, duration = v[i + 1]!;
  let r: number;
  if (!(duration > 0) || duration === Infinity || Number.isNaN(time)) r = 0;
  else if (mode === "clamp") r = time <= 0 ? 0 : time >= duration ? duration : time;
  else {
    // positiveModulo, written out: its result would cross a call.
    const m = mode === "loop" ? duration : 2 * duration;
    if (time === Infinity || time === -Infinity) r = 0;
    else {
      r = time % m;
      if (r < 0) r += m;
      if (r >= m) r = 0;
    }
    if (mode !== "loop" && r > duration) r = 2 * duration - r;
  }
  v[i] = r;
}

/**
 * How many whole loops `time` lies past the start: floor(t / d), computed consistently with
 * `wrapTime(t, d, "loop")` (t = loopIndex·d + wrapTime(t)). 0 for a non-positive duration.
 */
export function loopIndex(time: number, duration: number): number {
  if (!(duration > 0) || !Number.isFinite(time) || duration === Infinity) return 0;
  const r = positiveModulo(time, duration);
  return Math.round((time - r) / duration);
}

/** t mod m in [0, m) (`%` keeps the dividend's sign, and r + m can round up to m). */
function positiveModulo(t: number, m: number): number {
  if (t === Infinity || t === -Infinity) return 0;
  let r = t % m;
  if (r < 0) r += m;
  return r >= m ? 0 : r;
}
