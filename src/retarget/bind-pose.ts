import { expectSkeleton, expectTypedArray } from "../errors/check-argument.ts";
import { mat4Decompose, mat4Invert, mat4Multiply } from "../math/mat4.ts";
import { copyPose, createPose, type Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/**
 * The local bind pose of a skinned skeleton: the pose its mesh was bound in, from the inverse bind
 * matrices (model_bind[j] = bindShape · inverse(inverseBind[j]), then made local to the parent and split
 * into translation, rotation and scale). glTF files often store another pose in the nodes (RobotExpressive's
 * nodes hold its arms 65–95° away from the bind pose), and retargeting works best from the pose both
 * rigs were modelled in. `bindShape` (a glTF load result's `bindShapes[i]`) relates the bind space to the
 * skeleton's model space; identity when omitted. A joint whose matrices cannot be inverted or split keeps
 * its rest transform.
 */
export function bindPose(skeleton: Skeleton, bindShape?: Float32Array): Pose {
  expectSkeleton("bindPose", "skeleton", skeleton);
  expectTypedArray("bindPose", "skeleton.inverseBind", skeleton.inverseBind, Float32Array, 16 * skeleton.jointCount);
  if (bindShape !== undefined) expectTypedArray("bindPose", "bindShape", bindShape, Float32Array, 16);
  const J = skeleton.jointCount;
  const pose = copyPose(createPose(J), skeleton.rest);
  const model = new Float64Array(16 * J);
  const ok = new Uint8Array(J);
  const inv = new Float64Array(16);
  const local = new Float64Array(16);
  for (let j = 0; j < J; j++) {
    if (!mat4Invert(model, 16 * j, skeleton.inverseBind, 16 * j)) continue;
    if (bindShape) mat4Multiply(model, 16 * j, bindShape, 0, model, 16 * j);
    ok[j] = 1;
  }
  for (let j = 0; j < J; j++) {
    if (!ok[j]) continue;
    const p = skeleton.parents[j]!;
    if (p >= 0) {
      if (!ok[p] || !mat4Invert(inv, 0, model, 16 * p)) continue;
      mat4Multiply(local, 0, inv, 0, model, 16 * j);
    } else local.set(model.subarray(16 * j, 16 * j + 16));
    mat4Decompose(pose.t, 3 * j, pose.r, 4 * j, pose.s, 3 * j, local, 0);
  }
  return pose;
}
