import { expectFiniteNumber, expectInteger, expectNumberArray } from "../errors/check-argument.ts";
import { quatFromAxisAngle, quatMultiply, quatRotateVec3, type QuatArray } from "../math/quat.ts";

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
  return solveAim(out, o, rotation, rotationAt, position, positionAt, axis, axisAt, target, targetAt, maxAngle, weight);
}

/** {@link aimIk} without the argument checks, for the library's own loops. */
export function solveAim(
  out: QuatArray, o: number,
  rotation: QuatArray, rotationAt: number,
  position: QuatArray, positionAt: number,
  axis: QuatArray, axisAt: number,
  target: QuatArray, targetAt: number,
  maxAngle: number, weight: number,
): number {
  // Current aim direction (model) and the direction to the target.
  quatRotateVec3(v, 0, rotation, rotationAt, axis, axisAt);
  for (let c = 0; c < 3; c++) v[3 + c] = target[targetAt + c]! - position[positionAt + c]!;
  const ax = v[1]! * v[5]! - v[2]! * v[4]!, ay = v[2]! * v[3]! - v[0]! * v[5]!, az = v[0]! * v[4]! - v[1]! * v[3]!;
  const sin = Math.hypot(ax, ay, az), cos = v[0]! * v[3]! + v[1]! * v[4]! + v[2]! * v[5]!;
  const q0 = rotation[rotationAt]!, q1 = rotation[rotationAt + 1]!, q2 = rotation[rotationAt + 2]!, q3 = rotation[rotationAt + 3]!;
  if (!(Math.hypot(v[3]!, v[4]!, v[5]!) > 0) || !(Math.hypot(v[0]!, v[1]!, v[2]!) > 0)) {
    out[o] = q0;
    out[o + 1] = q1;
    out[o + 2] = q2;
    out[o + 3] = q3;
    return 0;
  }
  const angle = Math.atan2(sin, cos);
  const turn = Math.min(angle, Math.max(0, maxAngle)) * Math.min(1, Math.max(0, weight));
  if (sin > 0) {
    // A tiny axis is scaled up first: squares of components near 1e-160 are too inexact to normalise it.
    const m = Math.max(Math.abs(ax), Math.abs(ay), Math.abs(az));
    if (m < 1e-100) quatFromAxisAngle(r, 0, ax / m, ay / m, az / m, turn);
    else quatFromAxisAngle(r, 0, ax, ay, az, turn);
  } else if (cos < 0 && turn > 0) {
    // Exactly opposite: any axis perpendicular to the aim direction (aim × X, or aim × Y when aim is near X).
    if (Math.abs(v[0]!) < 0.9 * Math.hypot(v[0]!, v[1]!, v[2]!)) quatFromAxisAngle(r, 0, 0, v[2]!, -v[1]!, turn);
    else quatFromAxisAngle(r, 0, -v[2]!, 0, v[0]!, turn);
  } else {
    r[0] = 0; r[1] = 0; r[2] = 0; r[3] = 1;
  }
  v[0] = q0; v[1] = q1; v[2] = q2; v[3] = q3;
  quatMultiply(out, o, r, 0, v, 0);
  return angle - turn;
}
