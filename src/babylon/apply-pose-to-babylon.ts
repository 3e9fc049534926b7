import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { expectNumberArrayAt, expectPose, expectSkeleton } from "../errors/check-argument.ts";
import type { Pose } from "../pose/pose.ts";
import { expectBabylonBinding, expectTransformNode } from "./check-babylon-arguments.ts";
import type { BabylonBinding } from "./babylon-binding.ts";

/**
 * Writes `pose` (the binding's skeleton's joint order) into the bound nodes' `position`,
 * `rotationQuaternion` and `scaling`, in place (`set`, which also marks them dirty for Babylon's world
 * matrix cache): the Vector3/Quaternion objects stay the same. Unbound joints are skipped. No
 * allocation. (A node whose `rotationQuaternion` was set back to null after binding gets a new one,
 * once.) The values are glTF's own local TRS: Babylon's glTF loader puts the right- to left-handed
 * conversion on its `__root__` node, above the joints, so nothing is converted here.
 */
export function applyPoseToBabylon(binding: BabylonBinding, pose: Pose): void {
  expectBabylonBinding("applyPoseToBabylon", "binding", binding);
  const map = binding.nodeOfJoint;
  const nodes = binding.nodes;
  expectPose("applyPoseToBabylon", "pose", pose, map.length);
  const t = pose.t, r = pose.r, s = pose.s;
  for (let j = 0; j < map.length; j++) {
    const k = map[j]!;
    if (k < 0) continue;
    const n = nodes[k]!;
    n.position.set(t[3 * j]!, t[3 * j + 1]!, t[3 * j + 2]!);
    const q = n.rotationQuaternion ?? (n.rotationQuaternion = n.rotation.toQuaternion());
    q.set(r[4 * j]!, r[4 * j + 1]!, r[4 * j + 2]!, r[4 * j + 3]!);
    n.scaling.set(s[3 * j]!, s[3 * j + 1]!, s[3 * j + 2]!);
  }
}

/**
 * Reads the bound nodes' current local transforms into `out` (joints without a node keep the
 * skeleton's rest transform). The inverse of `applyPoseToBabylon`; used to compare with Babylon's own
 * animation system. Returns `out`. No allocation.
 */
export function readPoseFromBabylon(out: Pose, binding: BabylonBinding): Pose {
  expectBabylonBinding("readPoseFromBabylon", "binding", binding);
  expectSkeleton("readPoseFromBabylon", "binding.skeleton", binding.skeleton);
  expectPose("readPoseFromBabylon", "out", out, binding.skeleton.jointCount);
  const rest = binding.skeleton.rest;
  const map = binding.nodeOfJoint;
  if (out.jointCount !== map.length) throw new RangeError(`readPoseFromBabylon: the pose has ${out.jointCount} joints, the binding ${map.length}`);
  if (out !== rest) {
    out.t.set(rest.t);
    out.r.set(rest.r);
    out.s.set(rest.s);
  }
  for (let j = 0; j < map.length; j++) {
    const k = map[j]!;
    if (k < 0) continue;
    const n = binding.nodes[k]!;
    const p = n.position, q = n.rotationQuaternion, sc = n.scaling;
    out.t[3 * j] = p.x; out.t[3 * j + 1] = p.y; out.t[3 * j + 2] = p.z;
    if (q) {
      out.r[4 * j] = q.x; out.r[4 * j + 1] = q.y; out.r[4 * j + 2] = q.z; out.r[4 * j + 3] = q.w;
    }
    out.s[3 * j] = sc.x; out.s[3 * j + 1] = sc.y; out.s[3 * j + 2] = sc.z;
  }
  return out;
}

/**
 * Moves a character's TransformNode by one frame's root-motion delta, expressed in the character's own
 * glTF frame (what root-motion extraction yields: "forward 3 cm, turn 2°"). With the node's local
 * transform T·R·S: position ← position + R·(S·Δt) and R ← normalize(R·(S Δq S⁻¹)).
 *
 * The S terms make this right on Babylon's glTF `__root__` node, whose scaling (1, 1, −1) mirrors
 * glTF's right-handed space into Babylon's left-handed one: a turn about glTF's +Y becomes a turn the
 * other way in Babylon's frame. Only the signs of `scaling` enter the rotation (exact for a uniform
 * magnitude; a non-uniformly scaled node cannot be turned by a rotation). `deltaT` holds (x, y, z) at
 * `offsetT`, `deltaR` a unit quaternion (x, y, z, w) at `offsetR`. No allocation.
 */
export function applyRootMotionToTransformNode(
  node: TransformNode,
  deltaT: ArrayLike<number>,
  deltaR: ArrayLike<number>,
  offsetT = 0,
  offsetR = 0,
): void {
  const fn = "applyRootMotionToTransformNode";
  expectTransformNode(fn, "node", node);
  expectNumberArrayAt(fn, "deltaT", deltaT, "offsetT", offsetT, 3);
  expectNumberArrayAt(fn, "deltaR", deltaR, "offsetR", offsetR, 4);
  const sc = node.scaling;
  const q = node.rotationQuaternion ?? (node.rotationQuaternion = node.rotation.toQuaternion());
  // v = S·Δt, then rotated by q: v + 2w(u×v) + 2u×(u×v), u = (qx, qy, qz).
  const vx = sc.x * deltaT[offsetT]!, vy = sc.y * deltaT[offsetT + 1]!, vz = sc.z * deltaT[offsetT + 2]!;
  const qx = q.x, qy = q.y, qz = q.z, qw = q.w;
  const cx = 2 * (qy * vz - qz * vy), cy = 2 * (qz * vx - qx * vz), cz = 2 * (qx * vy - qy * vx);
  const p = node.position;
  p.set(
    p.x + vx + qw * cx + (qy * cz - qz * cy),
    p.y + vy + qw * cy + (qz * cx - qx * cz),
    p.z + vz + qw * cz + (qx * cy - qy * cx),
  );
  // Conjugating a rotation by a diagonal sign matrix D maps its axis a to D·a and, when D mirrors
  // (det D = −1), reverses its angle: Δq' = (det·D·(x, y, z), w).
  const sx = Math.sign(sc.x) || 1, sy = Math.sign(sc.y) || 1, sz = Math.sign(sc.z) || 1;
  const det = sx * sy * sz;
  const dx = det * sx * deltaR[offsetR]!, dy = det * sy * deltaR[offsetR + 1]!, dz = det * sz * deltaR[offsetR + 2]!, dw = deltaR[offsetR + 3]!;
  // q ← q·Δq' (Hamilton product), normalised.
  const nx = qw * dx + qx * dw + qy * dz - qz * dy;
  const ny = qw * dy - qx * dz + qy * dw + qz * dx;
  const nz = qw * dz + qx * dy - qy * dx + qz * dw;
  const nw = qw * dw - qx * dx - qy * dy - qz * dz;
  const len = Math.hypot(nx, ny, nz, nw) || 1;
  q.set(nx / len, ny / len, nz / len, nw / len);
}
