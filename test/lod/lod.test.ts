import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { activeJointCount, computeJointImportance, createJointLod, freezeInactiveJoints } from "../../src/lod/joint-lod.ts";
import { createUpdateRateLod, extrapolatePose, isUpdateFrame, updateInterval } from "../../src/lod/update-rate-lod.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

const bands = [{ maxDistance: 10, interval: 1 }, { maxDistance: 30, interval: 2 }, { maxDistance: Infinity, interval: 4 }];

test("update-rate LOD: the interval of each distance band, NaN as farthest", () => {
  const lod = createUpdateRateLod(bands);
  assert.deepEqual([0, 9.99, 10, 29, 30, 1e9, NaN].map((d) => updateInterval(lod, d)), [1, 1, 2, 2, 4, 4, 4]);
});

test("update-rate LOD: each character updates exactly once per interval, staggered by phase", () => {
  const lod = createUpdateRateLod(bands);
  for (const d of [5, 20, 50]) {
    const k = updateInterval(lod, d);
    for (let phase = 0; phase < 8; phase++) {
      const hits = Array.from({ length: 4 * k }, (_, f) => isUpdateFrame(lod, d, f, phase)).filter(Boolean).length;
      assert.equal(hits, 4);
    }
  }
  // Four characters in the far band share the load: one of them per frame.
  for (let f = 0; f < 12; f++) assert.equal([0, 1, 2, 3].filter((p) => isUpdateFrame(lod, 50, f, p)).length, 1);
});

test("bad bands throw", () => {
  assert.throws(() => createUpdateRateLod([]));
  assert.throws(() => createUpdateRateLod([{ maxDistance: 10, interval: 0 }]));
  assert.throws(() => createUpdateRateLod([{ maxDistance: 10, interval: 1 }, { maxDistance: 5, interval: 2 }]));
  assert.throws(() => createJointLod([{ maxDistance: 10, jointFraction: 0 }]));
  assert.throws(() => createJointLod([{ maxDistance: 10, jointFraction: 1 }, { maxDistance: 10, jointFraction: 0.5 }]));
});

test("extrapolatePose: alpha 0 holds the last pose; constant velocities continue; rotations stay unit", () => {
  const prev = createPose(1), last = createPose(1), out = createPose(1);
  prev.t.set([0, 1, 2]);
  last.t.set([1, 1, 4]);
  quatFromAxisAngle(prev.r, 0, 0, 1, 0, 0.1);
  quatFromAxisAngle(last.r, 0, 0, 1, 0, 0.2);
  extrapolatePose(out, prev, last, 0);
  assert.deepEqual(out, last);
  extrapolatePose(out, prev, last, 0.5);
  assert.deepEqual([...out.t], [1.5, 1, 5]);
  const expected = new Float32Array(4);
  quatFromAxisAngle(expected, 0, 0, 1, 0, 0.25);
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(out.r[c]! - expected[c]!) < 1e-4);
  extrapolatePose(out, prev, last, 7); // clamped to one interval
  assert.ok(Math.abs(out.t[0]! - 2) < 1e-6);
  assert.ok(Math.abs(Math.hypot(...out.r) - 1) < 1e-6);
});

const randomSkeleton = fc.array(fc.nat(), { minLength: 1, maxLength: 40 }).map((picks) =>
  createSkeleton({ names: picks.map((_, i) => `j${i}`), parents: picks.map((p, i) => (i === 0 ? -1 : p % (i + 1) === i ? -1 : p % i)) }),
);

test("joint importance: every prefix of the order keeps the parents of its joints (property)", () => {
  fc.assert(
    fc.property(randomSkeleton, (skeleton) => {
      const imp = computeJointImportance(skeleton);
      assert.deepEqual([...imp.order].sort((a, b) => a - b), [...Array(skeleton.jointCount).keys()]);
      imp.order.forEach((j, i) => {
        assert.equal(imp.rank[j], i);
        const p = skeleton.parents[j]!;
        if (p >= 0) assert.ok(imp.rank[p]! < i, `parent ${p} of ${j} comes later`);
      });
    }),
  );
});

test("joint importance on a hand: the wrist before its fingers, longer chains first", () => {
  const skeleton = createSkeleton({
    names: ["hips", "spine", "arm", "hand", "finger1", "finger1b", "finger2", "leg"],
    parents: [-1, 0, 1, 2, 3, 4, 3, 0],
  });
  const imp = computeJointImportance(skeleton);
  assert.deepEqual([...imp.order].map((j) => skeleton.names[j]), ["hips", "spine", "leg", "arm", "hand", "finger1", "finger2", "finger1b"]);
  assert.deepEqual([...imp.subtreeSize], [8, 6, 5, 4, 2, 1, 1, 1]);
});

test("joint LOD: far characters sample a prefix; frozen joints take the given pose", () => {
  const skeleton = createSkeleton({ names: ["a", "b", "c", "d"], parents: [-1, 0, 1, 2] });
  const imp = computeJointImportance(skeleton);
  const lod = createJointLod([{ maxDistance: 20, jointFraction: 1 }, { maxDistance: Infinity, jointFraction: 0.5 }]);
  assert.equal(activeJointCount(lod, 5, 4), 4);
  assert.equal(activeJointCount(lod, 50, 4), 2);
  assert.equal(activeJointCount(lod, 50, 1), 1);
  const out = createPose(4);
  out.t.fill(7);
  const frozen = createPose(4);
  freezeInactiveJoints(out, frozen, imp, 2);
  assert.deepEqual([...out.t], [7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0]);
});
