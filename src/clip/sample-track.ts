import { QUAT_INTERPOLATIONS, quatInterpolateAt, quatNormalize, type QuatInterpolation } from "../math/quat.ts";
import type { Interpolation } from "./clip.ts";
import { findKeyAt } from "./find-key.ts";
import { argumentError, expectBoolean, expectInteger, expectNumber, expectNumberArrayAt, expectOneOf, expectTypedArray, rangeError } from "../errors/check-argument.ts";

/**
 * Samples one keyframe track at `time` into out[o .. o + stride − 1] and returns the key segment used
 * (store it in a cursor and pass it back as `hint`). The rules (docs/blending.md, "Interpolation"):
 * - time ≤ first key: the first key; time ≥ last key: the last key (held, never extrapolated);
 * - time equal to a key time: that key's stored value as-is (bit-for-bit), as glTF requires;
 * - STEP: the previous key; LINEAR: (1 − u)·v_k + u·v_{k+1}, u = (time − t_k)/(t_{k+1} − t_k), and for
 *   rotations (`rotation` true) spherical interpolation along the shorter arc (`quatMode`);
 * - CUBICSPLINE: glTF Appendix C's Hermite form with tangents scaled by t_d = t_{k+1} − t_k, rotations
 *   normalised afterwards. `values` then holds (in-tangent, value, out-tangent) triplets per key.
 * `out` must not overlap `values`. No allocation.
 */
export function sampleTrack(
  out: Float32Array | Float64Array,
  o: number,
  times: Float32Array,
  values: Float32Array,
  stride: number,
  interpolation: Interpolation,
  rotation: boolean,
  quatMode: QuatInterpolation,
  time: number,
  hint: number,
): number {
  const fn = "sampleTrack";
  if (!(out instanceof Float32Array || out instanceof Float64Array)) throw argumentError(fn, "out", "a Float32Array or Float64Array", out);
  expectTypedArray(fn, "times", times, Float32Array, 1);
  expectTypedArray(fn, "values", values, Float32Array);
  expectInteger(fn, "stride", stride, 1, 0xffff);
  expectNumberArrayAt(fn, "out", out, "o", o, stride);
  expectOneOf(fn, "interpolation", interpolation, INTERPOLATIONS);
  expectBoolean(fn, "rotation", rotation);
  if (rotation && stride !== 4) throw rangeError(fn, "stride", "4 for a rotation track", stride);
  expectOneOf(fn, "quatMode", quatMode, QUAT_INTERPOLATIONS);
  expectNumber(fn, "time", time);
  expectInteger(fn, "hint", hint, Number.MIN_SAFE_INTEGER);
  const perKey = interpolation === "CUBICSPLINE" ? 3 * stride : stride;
  if (values.length < perKey * times.length) throw rangeError(fn, "values", `a Float32Array of ${perKey} × ${times.length} floats (${perKey} per key)`, values);
  return sampleTrackUnchecked(out, o, times, values, stride, interpolation, rotation, quatMode, time, hint);
}

const INTERPOLATIONS: readonly Interpolation[] = ["STEP", "LINEAR", "CUBICSPLINE"];

/** `sampleTrack` without the argument checks, for the library's own tracks. */
export function sampleTrackUnchecked(
  out: Float32Array | Float64Array,
  o: number,
  times: Float32Array,
  values: Float32Array,
  stride: number,
  interpolation: Interpolation,
  rotation: boolean,
  quatMode: QuatInterpolation,
  time: number,
  hint: number,
): number {
  arg[0] = time;
  return sampleTrackAt(out, o, times, values, stride, interpolation, rotation, quatMode, arg, 0, hint);
}
const arg = new Float64Array(1);
/** The segment fraction u and unnormalised spline rotations, passed on in memory rather than as arguments. */
const fraction = new Float64Array(1);
const spline = new Float64Array(4);

/**
 * `sampleTrack` for time = ts[ti] (`ts` must not be `out`). The per-frame form: a double passed to a
 * call V8 does not inline is a heap allocation (src/math/quat.ts explains), so the time stays in memory
 * and so do the doubles this passes on.
 */
export function sampleTrackAt(
  out: Float32Array | Float64Array,
  o: number,
  times: Float32Array,
  values: Float32Array,
  stride: number,
  interpolation: Interpolation,
  rotation: boolean,
  quatMode: QuatInterpolation,
  ts: Float64Array,
  ti: number,
  hint: number,
): number {
  const time = ts[ti]!;
  const n = times.length;
  const cubic = interpolation === "CUBICSPLINE";
  // Offset of key k's value: plain keys are `stride` apart; spline keys are (in, value, out) triplets.
  const keyStride = cubic ? 3 * stride : stride;
  const valueShift = cubic ? stride : 0;
  // Held and exact keys are copied inline rather than by a helper: these branches run only at a clip's
  // ends or on exact key times, and a helper called that rarely would stay in V8's interpreter, which
  // boxes every double it loads.
  if (n === 1 || !(time > times[0]!)) {
    for (let c = 0; c < stride; c++) out[o + c] = values[valueShift + c]!;
    return 0;
  }
  if (time >= times[n - 1]!) {
    const from = (n - 1) * keyStride + valueShift;
    for (let c = 0; c < stride; c++) out[o + c] = values[from + c]!;
    return n - 2;
  }
  const k = findKeyAt(times, ts, ti, hint);
  const tk = times[k]!;
  const v0 = k * keyStride + valueShift;
  if (time === tk || interpolation === "STEP") {
    for (let c = 0; c < stride; c++) out[o + c] = values[v0 + c]!;
    return k;
  }
  const td = times[k + 1]! - tk;
  const u = (time - tk) / td;
  const v1 = v0 + keyStride;
  if (!cubic) {
    if (rotation) {
      fraction[0] = u;
      quatInterpolateAt(quatMode, out, o, values, v0, values, v1, fraction, 0);
    } else {
      const s = 1 - u;
      for (let c = 0; c < stride; c++) out[o + c] = s * values[v0 + c]! + u * values[v1 + c]!;
    }
    return k;
  }
  // Hermite basis (glTF Appendix C): v = h00·v_k + t_d·h10·b_k + h01·v_{k+1} + t_d·h11·a_{k+1}.
  const u2 = u * u;
  const u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1;
  const h10 = td * (u3 - 2 * u2 + u);
  const h01 = -2 * u3 + 3 * u2;
  const h11 = td * (u3 - u2);
  const outTangent = v0 + stride; // b_k
  const inTangent = v1 - stride; // a_{k+1}
  if (rotation) {
    const q = spline;
    for (let c = 0; c < 4; c++) {
      q[c] = h00 * values[v0 + c]! + h10 * values[outTangent + c]! + h01 * values[v1 + c]! + h11 * values[inTangent + c]!;
    }
    quatNormalize(out, o, q, 0);
  } else {
    for (let c = 0; c < stride; c++) {
      out[o + c] = h00 * values[v0 + c]! + h10 * values[outTangent + c]! + h01 * values[v1 + c]! + h11 * values[inTangent + c]!;
    }
  }
  return k;
}
