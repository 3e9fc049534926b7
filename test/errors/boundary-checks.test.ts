// What the boundary checks of individual exports report: the code, the argument's name and the rule,
// beyond the property test's "only AnimgraphError" (public-exports.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AnimgraphError, activeJointCount, analyzeBlendSpec, applyLayer, applyLayers, blendPoses, createBoneMask, createJointLod, createPose,
  createSkeleton, crossfade, floorDiv,
} from "../../src/index.ts";

const skeleton = createSkeleton({ names: ["root", "spine", "head"], parents: [-1, 0, 1] });

test("the AnimgraphError constructor checks its own arguments", () => {
  assert.throws(() => new AnimgraphError("ERR_NOPE" as "ERR_ARGUMENT", "m"), { name: "AnimgraphError", code: "ERR_ARGUMENT", argument: "code" });
  assert.throws(() => new AnimgraphError("ERR_ARGUMENT", undefined as unknown as string), { code: "ERR_ARGUMENT", argument: "message" });
  assert.throws(() => new AnimgraphError("ERR_ARGUMENT", "m", null as unknown as object), { code: "ERR_ARGUMENT", argument: "details" });
  const cause = new Error("inner");
  assert.equal(new AnimgraphError("ERR_DISPOSED", "m", { cause }).cause, cause);
});

test("blend functions: a mask or pose of another skeleton is ERR_SKELETON_MISMATCH; a wrong mode names the choices", () => {
  const pose = createPose(3), other = createPose(5);
  assert.throws(() => applyLayer(pose, pose, pose, 0.5, new Float32Array(5), "override"), { code: "ERR_SKELETON_MISMATCH", argument: "mask" });
  assert.throws(() => applyLayer(pose, pose, pose, 0.5, undefined, "overlay" as "override"), { code: "ERR_ARGUMENT", message: /mode must be one of "override", "additive"/ });
  assert.throws(() => crossfade(pose, pose, other, 0.5), { code: "ERR_SKELETON_MISMATCH", argument: "to" });
  assert.throws(() => blendPoses(pose, [pose, other], [1, 1], skeleton.rest), { code: "ERR_SKELETON_MISMATCH", argument: "poses[1]" });
  assert.throws(() => applyLayers(pose, pose, [{ pose, weight: "1" as unknown as number, mode: "override" }]), { code: "ERR_ARGUMENT", argument: "layers[0].weight" });
  assert.equal(createBoneMask(skeleton, 0.5).length, 3);
  assert.throws(() => createBoneMask(skeleton, "1" as unknown as number), { code: "ERR_ARGUMENT", argument: "weight" });
});

test("joint LOD: bands out of order are ERR_OUT_OF_RANGE naming the band; a wrong lod is ERR_ARGUMENT", () => {
  assert.throws(() => createJointLod([{ maxDistance: 10, jointFraction: 1 }, { maxDistance: 10, jointFraction: 0.5 }]),
    { code: "ERR_OUT_OF_RANGE", argument: "bands[1].maxDistance" });
  assert.throws(() => createJointLod([]), { code: "ERR_OUT_OF_RANGE", argument: "bands" });
  const lod = createJointLod([{ maxDistance: 10, jointFraction: 1 }, { maxDistance: Infinity, jointFraction: 0.5 }]);
  assert.equal(activeJointCount(lod, 20, 10), 5);
  assert.throws(() => activeJointCount({ maxDistance: [10], jointFraction: [1] } as never, 20, 10), { code: "ERR_ARGUMENT", argument: "lod" });
  assert.throws(() => activeJointCount(lod, 20, -1), { code: "ERR_OUT_OF_RANGE", argument: "jointCount" });
});

test("blend check: a hand-typed spec with a number for a bigint names the path; floorDiv by zero is ERR_OUT_OF_RANGE", () => {
  assert.throws(() => analyzeBlendSpec({ project: "p", blendSpace: { name: "b", axes: [{ param: "x", min: 0, max: 1 }, { param: "y", min: 0n, max: 1n }] } } as never),
    { code: "ERR_ARGUMENT", argument: "spec.blendSpace.axes[0].min", message: /must be a bigint; got the number 0/ });
  assert.throws(() => floorDiv(3n, 0n), { code: "ERR_OUT_OF_RANGE", argument: "b" });
  assert.equal(floorDiv(-3n, 2n), -2n);
});
