import { expectFiniteNumber, expectInteger, expectNumberArray } from "../errors/check-argument.ts";
import { quatMultiply, quatRotateVec3, type QuatArray } from "../math/quat.ts";

const v = new Float64Array(6);
const r = new Float64Array(4);

/**
 * Aim (look-at) IK with a limit, in model space: turns a joint so its local `axis` (e.g. a head's
 * forward, (0, 0, 1)) points from its `position` at `target`, by the smallest rotation (a swing: the
 * twist about the axis is kept), at most `maxAngle` radians (a cone around the current direction) and
 * scaled by `weight` (0–1). Writes the new model rotation (4 numbers) at out[o]; returns the angle
 * (radians) left between the aimed axis and the target direction (0 when reached). A target at the joint
 * changes nothing. No allocation; inputs are read before `out` is written, so `out` may be `rotation`.
 */
export function aimIk(
  out: QuatArray, o: number,
  rotation: QuatArray, rotationAt: number,
  position: QuatArray, positionAt: number,
  axis: QuatArray, axisAt: number,
  target: QuatArray, targetAt: number,
  maxAngle: number, weight: number,
): number {
  const fn = "aimIk";
  for (const [name, array, at, size] of [["out", out, o, 4], ["rotation", rotation, rotationAt, 4], ["position", position, positionAt, 3], ["axis", axis, axisAt, 3], ["target", target, targetAt, 3]] as const) {
    expectInteger(fn, name === "out" ? "o" : `${name}At`, at);
    expectNumberArray(fn, name, array, at + size);
  }
  expectFiniteNumber(fn, "maxAngle", maxAngle);
  expectFiniteNumber(fn, "weight", weight);
  publicArgs[AIM_MAX_ANGLE] = maxAngle;
  publicArgs[AIM_WEIGHT] = weight;
  solveAim(out, o, rotation, rotationAt, position, positionAt, axis, axisAt, target, targetAt, publicArgs);
  return publicArgs[AIM_LEFT]!;
}

/** `solveAim`'s numbers: [max angle, weight] in, [2] the angle left out. */
export const AIM_MAX_ANGLE = 0, AIM_WEIGHT = 1, AIM_LEFT = 2;
const publicArgs = new Float64Array(3);

/**
 * {@link aimIk} without the argument checks, for the library's own loops: the limit and weight are read
 * from args[AIM_MAX_ANGLE], args[AIM_WEIGHT] and the angle left is written to args[AIM_LEFT], so no double
 * crosses the call (V8 boxes one that crosses a call it did not inline).
 */
export function solveAim(
  out: QuatArray, o: number,
  rotation: QuatArray, rotationAt: number,
  position: QuatArray, positionAt: number,
  axis: QuatArray, axisAt: number,
  target: QuatArray, targetAt: number,
  args: Float64Array,
): void {
  const maxAngle = args[AIM_MAX_ANGLE]!, weight = args[AIM_WEIGHT]!;
  // Current aim direction (model) and the direction to the target.
  quatRotateVec3(v, 0, rotation, rotationAt, axis, axisAt);
  for (let c = 0; c < 3; c++) v[3 + c] = target[targetAt + c]! - position[positionAt + c]!;
  const ax = v[1]! * v[5]! - v[2]! * v[4]!, ay = v[2]! * v[3]! - v[0]! * v[5]!, az = v[0]! * v[4]! - v[1]! * v[3]!;
  const sin = Math.sqrt(ax * ax + ay * ay + az * az), cos = v[0]! * v[3]! + v[1]! * v[4]! + v[2]! * v[5]!;
  const q0 = rotation[rotationAt]!, q1 = rotation[rotationAt + 1]!, q2 = rotation[rotationAt + 2]!, q3 = rotation[rotationAt + 3]!;
  if (!(Math.sqrt((v[3]!) * (v[3]!) + (v[4]!) * (v[4]!) + (v[5]!) * (v[5]!)) > 0) || !(Math.sqrt((v[0]!) * (v[0]!) + (v[1]!) * (v[1]!) + (v[2]!) * (v[2]!)) > 0)) {
    out[o] = q0;
    out[o + 1] = q1;
    out[o + 2] = q2;
    out[o + 3] = q3;
    args[AIM_LEFT] = 0;
    return;
  }
  const angle = Math.atan2(sin, cos);
  const turn = Math.min(angle, Math.max(0, maxAngle)) * Math.min(1, Math.max(0, weight));
  if (sin > 0) {
    // A tiny axis is scaled up first: squares of components near 1e-160 are too inexact to normalise it.
    const m = Math.max(Math.max(Math.abs(ax), Math.abs(ay)), Math.abs(az));
    const k = m < 1e-100 ? 1 / m : 1;
    r[0] = ax * k; r[1] = ay * k; r[2] = az * k; r[3] = turn;
    axisAngle();
  } else if (cos < 0 && turn > 0) {
    // Exactly opposite: any axis perpendicular to the aim direction (aim × X, or aim × Y when aim is near X).
    if (Math.abs(v[0]!) < 0.9 * Math.sqrt((v[0]!) * (v[0]!) + (v[1]!) * (v[1]!) + (v[2]!) * (v[2]!))) {
      r[0] = 0; r[1] = v[2]!; r[2] = -v[1]!;
    } else {
      r[0] = -v[2]!; r[1] = 0; r[2] = v[0]!;
    }
    r[3] = turn;
    axisAngle();
  } else {
    r[0] = 0; r[1] = 0; r[2] = 0; r[3] = 1;
  }
  v[0] = q0; v[1] = q1; v[2] = q2; v[3] = q3;
  quatMultiply(out, o, r, 0, v, 0);
  args[AIM_LEFT] = angle - turn;
}

/** r ← the rotation of r[3] radians about the axis r[0..2] (a zero axis: identity). */
function axisAngle(): void {
  const ax = r[0]!, ay = r[1]!, az = r[2]!;
  const len = Math.sqrt(ax * ax + ay * ay + az * az);
  if (!(len > 0)) {
    r[0] = 0; r[1] = 0; r[2] = 0; r[3] = 1;
    return;
  }
  const half = r[3]! / 2;
  const sn = Math.sin(half) / len;
  r[0] = ax * sn;
  r[1] = ay * sn;
  r[2] = az * sn;
  r[3] = Math.cos(half);
}
