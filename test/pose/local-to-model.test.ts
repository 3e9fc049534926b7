import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mat4FromTRS, mat4Identity, mat4Invert, mat4MaxDifference, mat4Multiply } from "../../src/math/mat4.ts";
import { localToModel, modelToLocal, skinningMatrices } from "../../src/pose/local-to-model.ts";
import { copyPose, createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

const Q90Z = [0, 0, Math.SQRT1_2, Math.SQRT1_2];

/** A 4-joint chain with a branch: root → a → b, root → c. */
function makeSkeleton() {
  const rest = createPose(4);
  rest.t.set([0, 1, 0, /* a */ 0, 2, 0, /* b */ 0, 3, 0, /* c */ 1, 0, 0]);
  rest.r.set(Q90Z, 4); // a turns 90° about Z
  rest.s.set([2, 2, 2], 0); // root scales by 2
  return createSkeleton({ names: ["root", "a", "b", "c"], parents: [-1, 0, 1, 0], rest });
}

test("localToModel chains parent × local in one pass (hand-computed positions)", () => {
  const sk = makeSkeleton();
  const model = localToModel(new Float32Array(64), sk, sk.rest);
  const pos = (j: number) => Array.from(model.subarray(16 * j + 12, 16 * j + 15)).map((v) => Math.round(v * 1e6) / 1e6);
  assert.deepEqual(pos(0), [0, 1, 0]);
  assert.deepEqual(pos(1), [0, 5, 0]); // root (scale 2) moves a by 2 × (0, 2, 0)
  assert.deepEqual(pos(2), [-6, 5, 0]); // a's 90° turn maps (0, 3, 0) to (-3, 0, 0), scaled by 2
  assert.deepEqual(pos(3), [2, 1, 0]);
});

test("a root transform is applied above the roots", () => {
  const sk = makeSkeleton();
  const root = mat4FromTRS(new Float32Array(16), 0, [10, 0, 0], 0, [0, 0, 0, 1], 0, [1, 1, 1], 0);
  const plain = localToModel(new Float32Array(64), sk, sk.rest);
  const placed = localToModel(new Float32Array(64), sk, sk.rest, root);
  for (let j = 0; j < 4; j++) {
    const expected = mat4Multiply(new Float32Array(16), 0, root, 0, plain, 16 * j);
    assert.ok(mat4MaxDifference(placed, 16 * j, expected, 0) < 1e-5);
  }
});

test("skinning matrices of the bind pose are the identity, also computed in place", () => {
  const sk0 = makeSkeleton();
  const model = localToModel(new Float32Array(64), sk0, sk0.rest);
  const inverseBind = new Float32Array(64);
  for (let j = 0; j < 4; j++) assert.ok(mat4Invert(inverseBind, 16 * j, model, 16 * j));
  const sk = createSkeleton({ names: [...sk0.names], parents: sk0.parents, rest: sk0.rest, inverseBind });
  const skin = skinningMatrices(new Float32Array(64), sk, model);
  const inPlace = skinningMatrices(model, sk, model);
  const identity = mat4Identity(new Float32Array(16));
  for (let j = 0; j < 4; j++) {
    assert.ok(mat4MaxDifference(skin, 16 * j, identity, 0) < 1e-5);
    assert.ok(mat4MaxDifference(inPlace, 16 * j, identity, 0) < 1e-5);
  }
});

test("modelToLocal inverts localToModel for random poses", () => {
  const sk = makeSkeleton();
  const unit = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
    .filter((q) => Math.hypot(...q) > 0.2);
  fc.assert(fc.property(fc.array(unit, { minLength: 4, maxLength: 4 }), fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 12, maxLength: 12 }), (qs, ts) => {
    const pose = copyPose(createPose(4), sk.rest);
    qs.forEach((q, j) => {
      const l = Math.hypot(...q);
      pose.r.set(q.map((v) => v / l), 4 * j);
    });
    pose.t.set(ts);
    const model = localToModel(new Float32Array(64), sk, pose);
    const back = createPose(4);
    assert.equal(modelToLocal(back, sk, model), true);
    const model2 = localToModel(new Float32Array(64), sk, back);
    for (let j = 0; j < 4; j++) assert.ok(mat4MaxDifference(model2, 16 * j, model, 16 * j) < 1e-4);
  }), { numRuns: 200 });
});

test("wrong sizes are programmer errors", () => {
  const sk = makeSkeleton();
  const outOfRange = { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE" };
  assert.throws(() => localToModel(new Float32Array(16), sk, sk.rest), outOfRange);
  assert.throws(() => skinningMatrices(new Float32Array(64), sk, new Float32Array(8)), outOfRange);
  assert.throws(() => modelToLocal(createPose(3), sk, new Float32Array(64)), { name: "AnimgraphError", code: "ERR_SKELETON_MISMATCH" });
});
