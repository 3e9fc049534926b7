import type { Pose } from "../pose/pose.ts";
import { argumentError, expectArray, expectNumber, expectObject, expectPose, rangeError } from "../errors/check-argument.ts";

/** One distance band of the update-rate LOD. */
export interface UpdateRateBand {
  /** Upper bound of the band (exclusive), in scene units; the last band may use Infinity. */
  readonly maxDistance: number;
  /** Sample the animation every `interval`-th frame in this band (1 = every frame), integer ≥ 1. */
  readonly interval: number;
}

/** Distance bands, nearest first, validated by `createUpdateRateLod`. Immutable. */
export interface UpdateRateLod {
  readonly maxDistance: Float64Array;
  readonly interval: Int32Array;
}

/**
 * Builds an update-rate LOD from bands sorted by strictly increasing `maxDistance` with integer
 * intervals ≥ 1. Throws (programmer error) otherwise. Beyond the last band the last interval applies.
 * Example: `[{ maxDistance: 10, interval: 1 }, { maxDistance: 30, interval: 2 }, { maxDistance: Infinity, interval: 4 }]`.
 */
export function createUpdateRateLod(bands: readonly UpdateRateBand[]): UpdateRateLod {
  const fn = "createUpdateRateLod";
  expectArray(fn, "bands", bands);
  if (bands.length === 0) throw rangeError(fn, "bands", "an array of at least one band", bands);
  const maxDistance = new Float64Array(bands.length);
  const interval = new Int32Array(bands.length);
  bands.forEach((b, i) => {
    expectObject(fn, `bands[${i}]`, b);
    expectNumber(fn, `bands[${i}].maxDistance`, b.maxDistance);
    if (typeof b.interval !== "number" || !Number.isInteger(b.interval)) throw argumentError(fn, `bands[${i}].interval`, "an integer", b.interval);
    if (!(b.maxDistance > 0) || (i > 0 && !(b.maxDistance > bands[i - 1]!.maxDistance))) {
      throw rangeError(fn, `bands[${i}].maxDistance`, i === 0 ? "a positive number" : `a number larger than the previous band's (${bands[i - 1]!.maxDistance})`, b.maxDistance);
    }
    if (!(b.interval >= 1 && b.interval <= 0x7fffffff)) throw rangeError(fn, `bands[${i}].interval`, "an integer ≥ 1", b.interval);
    maxDistance[i] = b.maxDistance;
    interval[i] = b.interval;
  });
  return { maxDistance, interval };
}

/** The update interval (frames) for a character at `distance` (NaN counts as farthest). */
export function updateInterval(lod: UpdateRateLod, distance: number): number {
  expectUpdateRateLod("updateInterval", lod);
  expectNumber("updateInterval", "distance", distance);
  return intervalAt(lod, distance);
}

function intervalAt(lod: UpdateRateLod, distance: number): number {
  const n = lod.maxDistance.length;
  for (let i = 0; i < n; i++) if (distance < lod.maxDistance[i]!) return lod.interval[i]!;
  return lod.interval[n - 1]!;
}

/**
 * Whether a character samples its animation on `frame`: (frame + phase) mod interval = 0. Give each
 * character its own `phase` (e.g. its index) so the characters of one band spread over the frames
 * instead of all updating on the same one.
 */
export function isUpdateFrame(lod: UpdateRateLod, distance: number, frame: number, phase: number): boolean {
  expectUpdateRateLod("isUpdateFrame", lod);
  expectNumber("isUpdateFrame", "distance", distance);
  expectNumber("isUpdateFrame", "frame", frame);
  expectNumber("isUpdateFrame", "phase", phase);
  const k = intervalAt(lod, distance);
  return (((frame + phase) % k) + k) % k === 0;
}

/**
 * The in-between pose of a character that is not sampled this frame, by a cheap extrapolation from
 * its last two sampled poses: with `alpha` = frames since the last sample / frames between the two
 * samples (clamped to [0, 1]), translations and scales continue linearly (last + α (last − previous))
 * and rotations by normalised lerp past the end, nlerp(previous, last, 1 + α) on the shorter arc.
 * `alpha` = 0 holds the last pose (the other documented option). Allocates nothing; `out` may be `last`
 * but not `previous`.
 */
export function extrapolatePose(out: Pose, previous: Pose, last: Pose, alpha: number): Pose {
  expectPose("extrapolatePose", "last", last);
  expectPose("extrapolatePose", "out", out, last.jointCount);
  expectPose("extrapolatePose", "previous", previous, last.jointCount);
  expectNumber("extrapolatePose", "alpha", alpha);
  const a = alpha > 1 ? 1 : alpha > 0 ? alpha : 0;
  const J = out.jointCount;
  for (let i = 0; i < 3 * J; i++) {
    const lt = last.t[i]!, ls = last.s[i]!;
    out.t[i] = lt + a * (lt - previous.t[i]!);
    out.s[i] = ls + a * (ls - previous.s[i]!);
  }
  for (let j = 0; j < J; j++) {
    const o = 4 * j;
    let px = previous.r[o]!, py = previous.r[o + 1]!, pz = previous.r[o + 2]!, pw = previous.r[o + 3]!;
    const lx = last.r[o]!, ly = last.r[o + 1]!, lz = last.r[o + 2]!, lw = last.r[o + 3]!;
    if (px * lx + py * ly + pz * lz + pw * lw < 0) {
      px = -px; py = -py; pz = -pz; pw = -pw;
    }
    const t = 1 + a;
    const x = (1 - t) * px + t * lx, y = (1 - t) * py + t * ly, z = (1 - t) * pz + t * lz, w = (1 - t) * pw + t * lw;
    const len = Math.sqrt(x * x + y * y + z * z + w * w);
    const inv = len > 0 ? 1 / len : 0;
    out.r[o] = x * inv;
    out.r[o + 1] = y * inv;
    out.r[o + 2] = z * inv;
    out.r[o + 3] = w * inv;
  }
  return out;
}

/** An UpdateRateLod from createUpdateRateLod: at least one band, as many distances as intervals. */
function expectUpdateRateLod(fn: string, lod: unknown): asserts lod is UpdateRateLod {
  const l = lod as Partial<UpdateRateLod> | null;
  if (typeof l !== "object" || l === null || !(l.maxDistance instanceof Float64Array) || !(l.interval instanceof Int32Array)
    || l.maxDistance.length === 0 || l.interval.length !== l.maxDistance.length) {
    throw argumentError(fn, "lod", "an UpdateRateLod (from createUpdateRateLod)", lod);
  }
}
