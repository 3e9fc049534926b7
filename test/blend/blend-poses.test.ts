import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { blendPoses } from "../../src/blend/blend-poses.ts";
import { crossfade } from "../../src/blend/crossfade.ts";
import { normalizeWeights } from "../../src/blend/normalize-weights.ts";
import { quatAngleBetween, quatFromAxisAngle, quatLength, quatSlerp, type QuatInterpolation } from "../../src/math/quat.ts";
import { createPose, type Pose } from "../../src/pose/pose.ts";

const J = 4;
const finite = fc.double({ min: -10, max: 10, noNaN: true });
const axisAngle = fc.tuple(finite, finite, finite, fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fc.boolean());
/** Random pose with unit rotations, randomly stored as q or −q. */
const arbPose = fc.array(fc.tuple(fc.tuple(finite, finite, finite), axisAngle, fc.tuple(finite, finite, finite)), { minLength: J, maxLength: J }).map((joints) => {
  const p = createPose(J);
  joints.forEach(([t, [x, y, z, a, flip], s], j) => {
    p.t.set(t, 3 * j);
    p.s.set(s, 3 * j);
    quatFromAxisAngle(p.r, 4 * j, x, y, z + 1e-3, a);
    if (flip) for (let c = 0; c < 4; c++) p.r[4 * j + c] = -p.r[4 * j + c]!;
  });
  return p;
});
const weight = fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.constant(0), fc.constant(-1));
const modes: QuatInterpolation[] = ["nlerp", "slerp", "fastSlerp"];
const rest = createPose(J);
const samePose = (a: Pose, b: Pose): void => {
  assert.deepEqual([...a.t], [...b.t]);
  assert.deepEqual([...a.r], [...b.r]);
  assert.deepEqual([...a.s], [...b.s]);
};

test("normalised weights sum to 1 (or are all 0 under the threshold); negatives and NaN count as 0", () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(weight, fc.constant(Number.NaN)), { minLength: 1, maxLength: 8 }), (w) => {
      const out = new Float64Array(w.length);
      const total = normalizeWeights(out, w);
      const sum = out.reduce((a, b) => a + b, 0);
      if (total >= 1e-6) assert.ok(Math.abs(sum - 1) < 1e-12);
      else assert.equal(sum, 0);
      w.forEach((x, i) => { if (!(x > 0)) assert.equal(out[i], 0); });
    }),
  );
});

test("output rotations are unit for every mode and any weights", () => {
  fc.assert(
    fc.property(fc.array(arbPose, { minLength: 1, maxLength: 4 }), fc.array(weight, { minLength: 4, maxLength: 4 }), fc.constantFrom(...modes), (poses, w, mode) => {
      const out = createPose(J);
      blendPoses(out, poses, w.slice(0, poses.length), rest, { rotation: mode });
      for (let j = 0; j < J; j++) assert.ok(Math.abs(quatLength(out.r, 4 * j) - 1) < 1e-5);
    }),
  );
});

test("blending a pose with itself (any weights) returns it", () => {
  fc.assert(
    fc.property(arbPose, fc.array(fc.double({ min: 0.01, max: 5, noNaN: true }), { minLength: 2, maxLength: 4 }), fc.constantFrom(...modes), (p, w, mode) => {
      const out = createPose(J);
      blendPoses(out, w.map(() => p), w, rest, { rotation: mode });
      for (let i = 0; i < 3 * J; i++) {
        assert.ok(Math.abs(out.t[i]! - p.t[i]!) <= 1e-5 * Math.max(1, Math.abs(p.t[i]!)));
        assert.ok(Math.abs(out.s[i]! - p.s[i]!) <= 1e-5 * Math.max(1, Math.abs(p.s[i]!)));
      }
      for (let j = 0; j < J; j++) assert.ok(quatAngleBetween(out.r, 4 * j, p.r, 4 * j) < 1e-3);
    }),
  );
});

test("weight 0 / 1 return an input exactly (bit for bit); no weight returns the rest pose", () => {
  fc.assert(
    fc.property(arbPose, arbPose, fc.constantFrom(...modes), (a, b, mode) => {
      const out = createPose(J);
      samePose(blendPoses(out, [a, b], [1, 0], rest, { rotation: mode }), a);
      samePose(blendPoses(out, [a, b], [0, 0.3], rest, { rotation: mode }), b);
      samePose(blendPoses(out, [a, b], [0, -2], rest, { rotation: mode }), rest);
      samePose(crossfade(out, a, b, 0), a);
      samePose(crossfade(out, a, b, 1), b);
      samePose(crossfade(out, a, b, Number.NaN), a);
    }),
  );
});

test("two-way blendPoses equals the seed's crossfade P = w₁P₁ + (1 − w₁)P₂", () => {
  fc.assert(
    fc.property(arbPose, arbPose, fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.constantFrom<QuatInterpolation>("nlerp", "slerp"), (p1, p2, w1, mode) => {
      const viaBlend = createPose(J), viaFade = createPose(J);
      blendPoses(viaBlend, [p1, p2], [w1, 1 - w1], rest, { rotation: mode });
      crossfade(viaFade, p1, p2, 1 - w1, mode);
      for (let i = 0; i < 3 * J; i++) assert.ok(Math.abs(viaBlend.t[i]! - viaFade.t[i]!) <= 1e-5 * Math.max(1, Math.abs(viaFade.t[i]!)));
      for (let j = 0; j < J; j++) assert.ok(quatAngleBetween(viaBlend.r, 4 * j, viaFade.r, 4 * j) < 2e-3);
    }),
  );
});

test("rotations take the shortest arc relative to the first pose even when stored as −q", () => {
  const a = createPose(1), b = createPose(1), out = createPose(1);
  quatFromAxisAngle(a.r, 0, 0, 1, 0, 0);
  quatFromAxisAngle(b.r, 0, 0, 1, 0, 1);
  for (let c = 0; c < 4; c++) b.r[c] = -b.r[c]!;
  for (const mode of modes) {
    blendPoses(out, [a, b], [1, 1], createPose(1), { rotation: mode });
    const expected = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 0.5);
    assert.ok(quatAngleBetween(out.r, 0, expected, 0) < 1e-6, mode);
  }
  // N-way slerp accumulates pairwise: three equal weights around one axis give the mean angle.
  const c3 = createPose(1);
  quatFromAxisAngle(c3.r, 0, 0, 1, 0, 2);
  blendPoses(out, [a, b, c3], [1, 1, 1], createPose(1), { rotation: "slerp" });
  assert.ok(quatAngleBetween(out.r, 0, quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 1), 0) < 1e-6);
});

test("out may alias an input pose", () => {
  fc.assert(
    fc.property(arbPose, arbPose, fc.double({ min: 0.1, max: 0.9, noNaN: true }), fc.constantFrom(...modes), (a, b, w, mode) => {
      const expected = createPose(J);
      blendPoses(expected, [a, b], [1 - w, w], rest, { rotation: mode });
      const a2 = createPose(J);
      a2.t.set(a.t); a2.r.set(a.r); a2.s.set(a.s);
      blendPoses(a2, [a2, b], [1 - w, w], rest, { rotation: mode });
      samePose(a2, expected);
      const b2 = createPose(J);
      b2.t.set(b.t); b2.r.set(b.r); b2.s.set(b.s);
      crossfade(expected, a, b, w, mode);
      crossfade(b2, a, b2, w, mode);
      samePose(b2, expected);
    }),
  );
});

test("slerp mode of a two-way blend is the exact slerp", () => {
  const a = createPose(1), b = createPose(1), out = createPose(1);
  quatFromAxisAngle(a.r, 0, 1, 0, 0, 0.2);
  quatFromAxisAngle(b.r, 0, 0, 0, 1, 2.9);
  blendPoses(out, [a, b], [0.3, 0.7], createPose(1), { rotation: "slerp" });
  const expected = quatSlerp(new Float32Array(4), 0, a.r, 0, b.r, 0, 0.7);
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(out.r[c]! - expected[c]!) < 1e-7);
});
