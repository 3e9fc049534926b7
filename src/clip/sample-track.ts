import { quatInterpolate, writeNormalized, type QuatInterpolation } from "../math/quat.ts";
import type { Interpolation } from "./clip.ts";
import { findKey } from "./find-key.ts";

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
  const n = times.length;
  const cubic = interpolation === "CUBICSPLINE";
  // Offset of key k's value: plain keys are `stride` apart; spline keys are (in, value, out) triplets.
  const keyStride = cubic ? 3 * stride : stride;
  const valueShift = cubic ? stride : 0;
  if (n === 1 || !(time > times[0]!)) {
    copyKey(out, o, values, valueShift, stride);
    return 0;
  }
  if (time >= times[n - 1]!) {
    copyKey(out, o, values, (n - 1) * keyStride + valueShift, stride);
    return n - 2;
  }
  const k = findKey(times, time, hint);
  const tk = times[k]!;
  const v0 = k * keyStride + valueShift;
  if (time === tk || interpolation === "STEP") {
    copyKey(out, o, values, v0, stride);
    return k;
  }
  const td = times[k + 1]! - tk;
  const u = (time - tk) / td;
  const v1 = v0 + keyStride;
  if (!cubic) {
    if (rotation) {
      quatInterpolate(quatMode, out, o, values, v0, values, v1, u);
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
    const x = h00 * values[v0]! + h10 * values[outTangent]! + h01 * values[v1]! + h11 * values[inTangent]!;
    const y = h00 * values[v0 + 1]! + h10 * values[outTangent + 1]! + h01 * values[v1 + 1]! + h11 * values[inTangent + 1]!;
    const z = h00 * values[v0 + 2]! + h10 * values[outTangent + 2]! + h01 * values[v1 + 2]! + h11 * values[inTangent + 2]!;
    const w = h00 * values[v0 + 3]! + h10 * values[outTangent + 3]! + h01 * values[v1 + 3]! + h11 * values[inTangent + 3]!;
    writeNormalized(out, o, x, y, z, w);
  } else {
    for (let c = 0; c < stride; c++) {
      out[o + c] = h00 * values[v0 + c]! + h10 * values[outTangent + c]! + h01 * values[v1 + c]! + h11 * values[inTangent + c]!;
    }
  }
  return k;
}

function copyKey(out: Float32Array | Float64Array, o: number, values: Float32Array, from: number, stride: number): void {
  for (let c = 0; c < stride; c++) out[o + c] = values[from + c]!;
}
