import { Quaternion, Vector3, type Object3D } from "three";
import { expectNumberArrayAt, expectPose, expectSkeleton } from "../errors/check-argument.ts";
import type { Pose } from "../pose/pose.ts";
import { expectObject3D, expectThreeBinding } from "./check-three-arguments.ts";
import type { ThreeBinding } from "./three-binding.ts";

/**
 * Writes `pose` (the binding's skeleton's joint order) into the bound three.js objects' `position`,
 * `quaternion` and `scale`. Unbound joints are skipped. No allocation; three recomputes the matrices
 * when it renders (or call `updateMatrixWorld()` yourself before reading world transforms).
 */
export function applyPoseToThree(binding: ThreeBinding, pose: Pose): void {
  expectThreeBinding("applyPoseToThree", "binding", binding);
  const map = binding.objectOfJoint;
  const objects = binding.objects;
  expectPose("applyPoseToThree", "pose", pose, map.length);
  const t = pose.t, r = pose.r, s = pose.s;
  for (let j = 0; j < map.length; j++) {
    const k = map[j]!;
    if (k < 0) continue;
    const o = objects[k]!;
    o.position.set(t[3 * j]!, t[3 * j + 1]!, t[3 * j + 2]!);
    o.quaternion.set(r[4 * j]!, r[4 * j + 1]!, r[4 * j + 2]!, r[4 * j + 3]!);
    o.scale.set(s[3 * j]!, s[3 * j + 1]!, s[3 * j + 2]!);
  }
}

/**
 * Reads the bound objects' current local transforms into `out` (joints without an object keep the
 * skeleton's rest transform). The inverse of `applyPoseToThree`; used to compare with three's own
 * AnimationMixer. Returns `out`. No allocation.
 */
export function readPoseFromThree(out: Pose, binding: ThreeBinding): Pose {
  expectThreeBinding("readPoseFromThree", "binding", binding);
  expectSkeleton("readPoseFromThree", "binding.skeleton", binding.skeleton);
  expectPose("readPoseFromThree", "out", out, binding.skeleton.jointCount);
  const rest = binding.skeleton.rest;
  const map = binding.objectOfJoint;
  if (out.jointCount !== map.length) throw new RangeError(`readPoseFromThree: the pose has ${out.jointCount} joints, the binding ${map.length}`);
  if (out !== rest) {
    out.t.set(rest.t);
    out.r.set(rest.r);
    out.s.set(rest.s);
  }
  for (let j = 0; j < map.length; j++) {
    const k = map[j]!;
    if (k < 0) continue;
    const o = binding.objects[k]!;
    out.t[3 * j] = o.position.x; out.t[3 * j + 1] = o.position.y; out.t[3 * j + 2] = o.position.z;
    out.r[4 * j] = o.quaternion.x; out.r[4 * j + 1] = o.quaternion.y; out.r[4 * j + 2] = o.quaternion.z; out.r[4 * j + 3] = o.quaternion.w;
    out.s[3 * j] = o.scale.x; out.s[3 * j + 1] = o.scale.y; out.s[3 * j + 2] = o.scale.z;
  }
  return out;
}

// Module-level scratch: allocated once, so per-frame calls allocate nothing (three is single-threaded).
const scratchV = new Vector3();
const scratchQ = new Quaternion();

/**
 * Moves a character's Object3D by one frame's root-motion delta, expressed in the object's own local
 * frame (what root-motion extraction yields: "forward 3 cm, turn 2°"): with the object's rotation q,
 * position ← position + q·Δt and q ← normalize(q·Δq). `deltaT` holds (x, y, z) at `offsetT`, `deltaR`
 * a unit quaternion (x, y, z, w) at `offsetR`. No allocation.
 */
export function applyRootMotionToObject3D(
  object: Object3D,
  deltaT: ArrayLike<number>,
  deltaR: ArrayLike<number>,
  offsetT = 0,
  offsetR = 0,
): void {
  const fn = "applyRootMotionToObject3D";
  expectObject3D(fn, "object", object);
  expectNumberArrayAt(fn, "deltaT", deltaT, "offsetT", offsetT, 3);
  expectNumberArrayAt(fn, "deltaR", deltaR, "offsetR", offsetR, 4);
  scratchV.set(deltaT[offsetT]!, deltaT[offsetT + 1]!, deltaT[offsetT + 2]!).applyQuaternion(object.quaternion);
  object.position.add(scratchV);
  scratchQ.set(deltaR[offsetR]!, deltaR[offsetR + 1]!, deltaR[offsetR + 2]!, deltaR[offsetR + 3]!);
  object.quaternion.multiply(scratchQ).normalize();
}
