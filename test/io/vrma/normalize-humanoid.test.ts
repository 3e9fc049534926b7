// normalizeHumanoidPose on synthetic chains with random rest rotations: the rest pose is the identity
// in normalized space, and a rotation applied to one bone's local frame comes out as that rotation
// carried into world axes (what VRM's "pose data compatibility" formula promises).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createClip } from "../../../src/clip/clip.ts";
import { createClipCursor } from "../../../src/clip/clip-cursor.ts";
import { sampleFloatTracks } from "../../../src/clip/sample-clip.ts";
import { quatMultiply, quatInvert } from "../../../src/math/quat.ts";
import { createPose } from "../../../src/pose/pose.ts";
import { createSkeleton } from "../../../src/skeleton/skeleton.ts";
import { createHumanoidNormalizer, normalizeHumanoidPose } from "../../../src/io/vrma/normalize-humanoid.ts";
import type { VrmHumanBoneName } from "../../../src/io/vrma/vrm-human-bones.ts";

const unitQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => { const l = Math.hypot(x, y, z, w); return [x / l, y / l, z / l, w / l]; });

const CHAIN: VrmHumanBoneName[] = ["hips", "spine", "chest", "neck", "head"];

/** |angle| between rotations, radians, sign-insensitive. */
function angle(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const r = quatMultiply(new Float64Array(4), 0, quatInvert(new Float64Array(4), 0, a, ao), 0, b, bo);
  return 2 * Math.atan2(Math.hypot(r[0]!, r[1]!, r[2]!), Math.abs(r[3]!));
}

test("property: any rest rotations normalize to the identity at rest; a local delta comes out in world axes", () => {
  fc.assert(
    fc.property(fc.array(unitQuat, { minLength: 5, maxLength: 5 }), unitQuat, fc.integer({ min: 0, max: 4 }), (rests, delta, bone) => {
      const rest = createPose(5);
      rests.forEach((q, j) => { rest.r.set(q, 4 * j); rest.t.set([0, j === 0 ? 1 : 0.2, 0], 3 * j); });
      const skeleton = createSkeleton({ names: CHAIN, parents: [-1, 0, 1, 2, 3], rest });
      const n = createHumanoidNormalizer(skeleton, new Map(CHAIN.map((b, j) => [b, j])));
      assert.deepEqual(n.bones, CHAIN);
      const out = new Float32Array(20), hips = new Float32Array(3);
      normalizeHumanoidPose(out, hips, n, rest);
      for (let i = 0; i < 5; i++) assert.ok(angle(out, 4 * i, [0, 0, 0, 1], 0) < 1e-5, `bone ${i} at rest`);
      assert.deepEqual([...hips].map((x) => Math.round(x * 1e6) / 1e6), [0, 1, 0]);
      // pose: bone's local rotation = L · D (D in the bone's own rest frame); normalized = W · D · W⁻¹.
      const pose = createPose(5);
      pose.t.set(rest.t);
      pose.r.set(rest.r);
      quatMultiply(pose.r, 4 * bone, rest.r, 4 * bone, delta, 0);
      normalizeHumanoidPose(out, hips, n, pose);
      const world = new Float64Array(4);
      world.set(rests[0]!);
      for (let j = 1; j <= bone; j++) quatMultiply(world, 0, world, 0, rests[j]!, 0);
      const expected = quatMultiply(new Float64Array(4), 0, quatMultiply(new Float64Array(4), 0, world, 0, delta, 0), 0, quatInvert(new Float64Array(4), 0, world, 0), 0);
      assert.ok(angle(out, 4 * bone, expected, 0) < 1e-4, `bone ${bone}`);
      for (let i = 0; i < 5; i++) if (i !== bone) assert.ok(angle(out, 4 * i, [0, 0, 0, 1], 0) < 1e-5);
    }),
  );
});

test("a quaternion float track is slerped and must have 4 floats per key", () => {
  const skeleton = createSkeleton({ names: ["a"], parents: [-1] });
  const times = Float32Array.of(0, 1);
  const values = Float32Array.of(0, 0, 0, 1, 0, 1, 0, 0); // identity → 180° about y
  assert.throws(() => createClip({ name: "bad", skeleton, tracks: [], floatTracks: [{ target: "lookAt", node: -1, count: 3, quaternion: true, interpolation: "LINEAR", times, values: values.subarray(0, 6) }] }), /count 4/);
  const clip = createClip({ name: "gaze", skeleton, tracks: [], floatTracks: [{ target: "lookAt", node: -1, count: 4, quaternion: true, interpolation: "LINEAR", times, values }] });
  const out = sampleFloatTracks(new Float32Array(4), clip, 0.5, createClipCursor(clip));
  // Slerp halfway: 90° about y (a component-wise lerp would give (0, 0.5, 0, 0.5), not unit length).
  assert.ok(Math.abs(out[1]! - Math.SQRT1_2) < 1e-6 && Math.abs(out[3]! - Math.SQRT1_2) < 1e-6, `${[...out]}`);
});
