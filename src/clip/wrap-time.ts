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
  if (!(duration > 0) || duration === Infinity || Number.isNaN(time)) return 0;
  if (mode === "clamp") return time <= 0 ? 0 : time >= duration ? duration : time;
  if (mode === "loop") return positiveModulo(time, duration);
  const u = positiveModulo(time, 2 * duration);
  return u <= duration ? u : 2 * duration - u;
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
