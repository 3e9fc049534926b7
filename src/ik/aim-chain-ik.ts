import type { QuatArray } from "../math/quat.ts";
import { expectFiniteNumber, expectInteger, expectNumberArray, invalidValue } from "../errors/check-argument.ts";
import { AIM_LEFT, AIM_MAX_ANGLE, AIM_WEIGHT, solveAim } from "./aim-ik.ts";

// Scratch: the job is synchronous, so module-level arrays keep a call allocation-free.
const turn = new Float64Array(4);
const before = new Float64Array(4);
const d = new Float64Array(3);

/**
 * Aim (look-at) over a chain, in model space: the spine, neck and head turn together so the last joint's
 * local `axis` points at `target`, like Unreal's LookAt with a chain or Unity's Multi-Aim on several bones.
 *
 * `rotations` and `positions` are model-space arrays of the whole skeleton (4 and 3 numbers per joint);
 * `chain` lists joint indices from the base (e.g. a spine joint) to the aiming joint (the head), each an
 * ancestor of the next. Walking the chain from its base, joint i turns by the smallest swing that would aim
 * the tip's axis from the tip's current position at the target, scaled by `jointWeights[i]` (0–1: the share
 * of the remaining turn this joint takes; give the last joint 1 to finish the aim) and by `weight` (0–1),
 * and at most `maxAngles[i]` radians. Each turn is about joint i's position and carries the rest of the
 * chain with it. Every chain joint's model rotation and position is updated in place; joints between chain
 * entries and descendants of the tip are not (convert the chain's new model rotations back to local ones
 * and let the rest follow). Returns the angle (radians) left between the tip's axis and its target
 * direction. No allocation. Non-finite input gives unchanged rotations (a target at the tip changes nothing).
 */
export function aimChainIk(
  rotations: QuatArray, positions: QuatArray,
  chain: ArrayLike<number>, jointWeights: ArrayLike<number>, maxAngles: ArrayLike<number>,
  axis: QuatArray, axisAt: number,
  target: QuatArray, targetAt: number,
  weight: number,
): number {
  const fn = "aimChainIk";
  expectNumberArray(fn, "chain", chain);
  const n = chain.length;
  expectNumberArray(fn, "jointWeights", jointWeights, n);
  expectNumberArray(fn, "maxAngles", maxAngles, n);
  expectNumberArray(fn, "rotations", rotations);
  expectNumberArray(fn, "positions", positions);
  for (let i = 0; i < n; i++) {
    const j = chain[i]!;
    expectInteger(fn, "chain[i]", j);
    if (4 * j + 4 > rotations.length || 3 * j + 3 > positions.length) throw invalidValue(fn, "chain", `joint ${j} is outside rotations (${rotations.length / 4} joints) or positions (${positions.length / 3})`);
  }
  expectInteger(fn, "axisAt", axisAt);
  expectNumberArray(fn, "axis", axis, axisAt + 3);
  expectInteger(fn, "targetAt", targetAt);
  expectNumberArray(fn, "target", target, targetAt + 3);
  expectFiniteNumber(fn, "weight", weight);
  chainArgs[0] = weight;
  aimChainIkUnchecked(rotations, positions, chain, jointWeights, maxAngles, axis, axisAt, target, targetAt, chainArgs);
  return chainArgs[1]!;
}
const chainArgs = new Float64Array(2);
const aimArgs = new Float64Array(3);

/**
 * {@link aimChainIk} without the argument checks, for the graph's IK layers (validated at compile time):
 * the weight is read from args[0] and the angle left written to args[1], so no double crosses the call.
 */
export function aimChainIkUnchecked(
  rotations: QuatArray, positions: QuatArray,
  chain: ArrayLike<number>, jointWeights: ArrayLike<number>, maxAngles: ArrayLike<number>,
  axis: QuatArray, axisAt: number,
  target: QuatArray, targetAt: number,
  args: Float64Array,
): void {
  const n = chain.length;
  const weight = args[0]!;
  args[1] = 0;
  if (n === 0) return;
  const tip = chain[n - 1]!;
  const w = weight > 0 ? (weight < 1 ? weight : 1) : 0;
  for (let i = 0; i < n; i++) {
    const j = chain[i]!;
    const jw = jointWeights[i]!;
    const share = (jw > 0 ? (jw < 1 ? jw : 1) : 0) * w;
    // The swing that would aim the tip from where it is now, applied to an identity: `turn` is that swing.
    before[0] = rotations[4 * tip]!; before[1] = rotations[4 * tip + 1]!; before[2] = rotations[4 * tip + 2]!; before[3] = rotations[4 * tip + 3]!;
    if (!(share > 0)) continue;
    // aimIk turns min(angle, limit) · share: a limit of maxAngle / share makes it min(share · angle, maxAngle).
    const limit = maxAngles[i]!;
    aimArgs[AIM_MAX_ANGLE] = (limit >= 0 ? limit : 0) / share;
    aimArgs[AIM_WEIGHT] = share;
    solveAim(turn, 0, before, 0, positions, 3 * tip, axis, axisAt, target, targetAt, aimArgs);
    // turn = new · before⁻¹ (the model-space swing about joint j's position).
    swingOf(turn, before);
    if (turn[3]! >= 1 - 1e-15) continue;
    for (let k = i; k < n; k++) {
      const m = chain[k]!;
      mulLeft(rotations, 4 * m, turn);
      if (k === i) continue;
      for (let c = 0; c < 3; c++) d[c] = positions[3 * m + c]! - positions[3 * j + c]!;
      rotate(d, turn);
      for (let c = 0; c < 3; c++) positions[3 * m + c] = positions[3 * j + c]! + d[c]!;
    }
  }
  // The angle left after the last turn.
  before[0] = rotations[4 * tip]!; before[1] = rotations[4 * tip + 1]!; before[2] = rotations[4 * tip + 2]!; before[3] = rotations[4 * tip + 3]!;
  aimArgs[AIM_MAX_ANGLE] = 0;
  aimArgs[AIM_WEIGHT] = 0;
  solveAim(turn, 0, before, 0, positions, 3 * tip, axis, axisAt, target, targetAt, aimArgs);
  args[1] = aimArgs[AIM_LEFT]!;
}

/** q ← q · b⁻¹ for unit quaternions (b⁻¹ = conjugate). */
function swingOf(q: Float64Array, b: Float64Array): void {
  const ax = q[0]!, ay = q[1]!, az = q[2]!, aw = q[3]!;
  const bx = -b[0]!, by = -b[1]!, bz = -b[2]!, bw = b[3]!;
  q[0] = aw * bx + ax * bw + ay * bz - az * by;
  q[1] = aw * by - ax * bz + ay * bw + az * bx;
  q[2] = aw * bz + ax * by - ay * bx + az * bw;
  q[3] = aw * bw - ax * bx - ay * by - az * bz;
  if (q[3]! < 0) for (let c = 0; c < 4; c++) q[c] = -q[c]!;
}

/** r[o..o+3] ← t · r[o..o+3], renormalised. */
function mulLeft(r: QuatArray, o: number, t: Float64Array): void {
  const ax = t[0]!, ay = t[1]!, az = t[2]!, aw = t[3]!;
  const bx = r[o]!, by = r[o + 1]!, bz = r[o + 2]!, bw = r[o + 3]!;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  const l = Math.sqrt(x * x + y * y + z * z + w * w);
  r[o] = x / l; r[o + 1] = y / l; r[o + 2] = z / l; r[o + 3] = w / l;
}

/** v ← t · v · t⁻¹. */
function rotate(v: Float64Array, t: Float64Array): void {
  const qx = t[0]!, qy = t[1]!, qz = t[2]!, qw = t[3]!;
  const vx = v[0]!, vy = v[1]!, vz = v[2]!;
  const ix = qw * vx + qy * vz - qz * vy, iy = qw * vy + qz * vx - qx * vz, iz = qw * vz + qx * vy - qy * vx, iw = -qx * vx - qy * vy - qz * vz;
  v[0] = ix * qw + iw * -qx + iy * -qz - iz * -qy;
  v[1] = iy * qw + iw * -qy + iz * -qx - ix * -qz;
  v[2] = iz * qw + iw * -qz + ix * -qy - iy * -qx;
}
