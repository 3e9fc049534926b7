import { test } from "node:test";
import assert from "node:assert/strict";
import { applyAdditive } from "../../src/blend/apply-additive.ts";
import { applyLayer, applyLayers } from "../../src/blend/apply-layer.ts";
import { createBoneMask, invertMask, maskFromJoints, maskIntersection, maskUnion, scaleMask } from "../../src/blend/bone-mask.ts";
import { quatAngleBetween, quatFromAxisAngle, quatMultiply } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

// hips ─┬─ spine ── chest ── arm
//       └─ leg
const skeleton = createSkeleton({ names: ["hips", "spine", "chest", "arm", "leg"], parents: [-1, 0, 1, 2, 0] });
const J = skeleton.jointCount;

function posed(angle: number, dx: number): ReturnType<typeof createPose> {
  const p = createPose(J);
  for (let j = 0; j < J; j++) {
    quatFromAxisAngle(p.r, 4 * j, 0, 1, 0, angle + 0.1 * j);
    p.t[3 * j] = dx + j;
  }
  return p;
}

test("maskFromJoints covers a joint and its descendants; invert/union/intersection/scale", () => {
  const upper = maskFromJoints(skeleton, ["spine"]);
  assert.deepEqual([...upper], [0, 1, 1, 1, 0]);
  const lower = invertMask(createBoneMask(skeleton), upper);
  assert.deepEqual([...lower], [1, 0, 0, 0, 1]);
  assert.deepEqual([...maskUnion(createBoneMask(skeleton), upper, maskFromJoints(skeleton, ["leg"], 0.5))], [0, 1, 1, 1, 0.5]);
  assert.deepEqual([...maskIntersection(createBoneMask(skeleton), upper, maskFromJoints(skeleton, ["chest"]))], [0, 0, 1, 1, 0]);
  assert.deepEqual([...scaleMask(upper, upper, 0.5)], [0, 0.5, 0.5, 0.5, 0]);
  assert.throws(() => maskFromJoints(skeleton, ["tail"]), /no joint named "tail"/);
});

test("override layer with an upper-body mask: masked joints take the layer, others keep the base, bit for bit", () => {
  const base = posed(0, 0), aim = posed(1, 10), out = createPose(J);
  applyLayer(out, base, aim, 1, maskFromJoints(skeleton, ["spine"]), "override");
  for (const j of [1, 2, 3]) assert.deepEqual([...out.r.subarray(4 * j, 4 * j + 4)], [...aim.r.subarray(4 * j, 4 * j + 4)]);
  for (const j of [0, 4]) assert.deepEqual([...out.r.subarray(4 * j, 4 * j + 4)], [...base.r.subarray(4 * j, 4 * j + 4)]);
  // Half weight: halfway rotation on masked joints.
  applyLayer(out, base, aim, 0.5, maskFromJoints(skeleton, ["spine"]), "override");
  assert.ok(Math.abs(quatAngleBetween(out.r, 4, base.r, 4) - 0.5) < 0.01);
  assert.equal(out.t[3], 6);
});

test("additive: weight 1 gives q_base·q_add, weight 0 the base exactly, masks scale per joint", () => {
  const base = posed(0.3, 0), add = createPose(J), out = createPose(J);
  for (let j = 0; j < J; j++) {
    quatFromAxisAngle(add.r, 4 * j, 1, 0, 0, 0.4);
    add.t[3 * j + 1] = 2;
    add.s[3 * j] = 3;
  }
  applyAdditive(out, base, add, 1);
  const expected = quatMultiply(new Float32Array(4), 0, base.r, 8, add.r, 8);
  assert.deepEqual([...out.r.subarray(8, 12)], [...expected]);
  assert.equal(out.t[7], base.t[7]! + 2);
  assert.equal(out.s[6], 3);
  applyAdditive(out, base, add, 0);
  assert.deepEqual(out, base);
  applyAdditive(out, base, add, 0.5, maskFromJoints(skeleton, ["leg"]));
  assert.deepEqual([...out.r.subarray(0, 16)], [...base.r.subarray(0, 16)]);
  assert.ok(Math.abs(quatAngleBetween(out.r, 16, base.r, 16) - 0.2) < 1e-5);
  assert.equal(out.s[12], 2); // 1·(1 + 0.5·(3 − 1))
  // via applyLayer, in place on the base
  const inPlace = posed(0.3, 0);
  applyLayer(inPlace, inPlace, add, 0.5, maskFromJoints(skeleton, ["leg"]), "additive");
  assert.deepEqual(inPlace, out);
});

test("layers apply in order: a later override wins over an earlier one on shared joints", () => {
  const base = posed(0, 0), l1 = posed(1, 10), l2 = posed(2, 20), out = createPose(J);
  applyLayers(out, base, [
    { pose: l1, weight: 1, mask: maskFromJoints(skeleton, ["spine"]), mode: "override" },
    { pose: l2, weight: 1, mask: maskFromJoints(skeleton, ["chest"]), mode: "override" },
  ]);
  assert.equal(out.t[0], 0);
  assert.equal(out.t[3], 11);
  assert.equal(out.t[6], 22);
  assert.equal(out.t[9], 23);
  assert.equal(out.t[12], 4);
  applyLayers(out, base, []);
  assert.deepEqual(out, base);
});
