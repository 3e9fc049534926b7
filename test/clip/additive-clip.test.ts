import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeAdditiveClip } from "../../src/clip/additive-clip.ts";
import { createClip, type JointTrack } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { applyAdditive } from "../../src/blend/apply-additive.ts";
import { quatAngleBetween, quatFromAxisAngle } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

const rest = createPose(2);
rest.t.set([0, 1, 0, 0, 2, 0]);
quatFromAxisAngle(rest.r, 4, 0, 0, 1, 0.3);
const skeleton = createSkeleton({ names: ["hips", "chest"], parents: [-1, 0], rest });
const rot = new Float32Array(12);
quatFromAxisAngle(rot, 0, 1, 0, 0, 0.1);
quatFromAxisAngle(rot, 4, 1, 0, 0, 0.9);
quatFromAxisAngle(rot, 8, 0, 1, 0, 0.4);
const tracks: JointTrack[] = [
  { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 1]), values: new Float32Array([0, 1, 0, 0.5, 1.2, 0]) },
  { joint: 0, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0, 0.5, 1]), values: rot },
  { joint: 0, path: "scale", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 1]), values: new Float32Array([1, 1, 1, 2, 2, 2]) },
];
const breathe = createClip({ name: "breathe", skeleton, tracks });
const idle = createClip({ name: "idle", skeleton, tracks: [{ joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0]), values: new Float32Array([0, 0.5, 0, Math.sqrt(0.75)]) }] });

const near = (a: ArrayLike<number>, b: ArrayLike<number>, eps: number): void => {
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= eps, `[${i}] ${a[i]} vs ${b[i]}`);
};

test("first-frame reference: the delta is identity at time 0 and every joint has all three tracks", () => {
  const add = makeAdditiveClip(breathe, { kind: "firstFrame" });
  assert.equal(add.tracks.length, 6);
  assert.ok(Object.isFrozen(add));
  const p = createPose(2);
  sampleClip(p, add, 0, createClipCursor(add));
  near(p.t, [0, 0, 0, 0, 0, 0], 0);
  near(p.s, [1, 1, 1, 1, 1, 1], 0);
  near(p.r, [0, 0, 0, 1, 0, 0, 0, 1], 1e-7);
});

test("base + 1·delta reproduces the source clip at any time (deltas interpolate like the source)", () => {
  for (const reference of [{ kind: "firstFrame" } as const, { kind: "rest" } as const, { kind: "clipFrame", clip: idle, time: 0 } as const]) {
    const add = makeAdditiveClip(breathe, reference);
    const refPose = createPose(2);
    if (reference.kind === "rest") {
      refPose.t.set(rest.t);
      refPose.r.set(rest.r);
      refPose.s.set(rest.s);
    } else sampleClip(refPose, reference.kind === "firstFrame" ? breathe : idle, 0, createClipCursor(reference.kind === "firstFrame" ? breathe : idle));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (t) => {
        const src = createPose(2), delta = createPose(2), out = createPose(2);
        sampleClip(src, breathe, t, createClipCursor(breathe));
        sampleClip(delta, add, t, createClipCursor(add));
        applyAdditive(out, refPose, delta, 1);
        near(out.t, src.t, 1e-6);
        near(out.s, src.s, 1e-6);
        for (let j = 0; j < 2; j++) assert.ok(quatAngleBetween(out.r, 4 * j, src.r, 4 * j) < 1e-5, reference.kind);
      }),
      { numRuns: 50 },
    );
  }
});

test("a reference clip on another skeleton is a programmer error", () => {
  const other = createSkeleton({ names: ["a", "b"], parents: [-1, 0] });
  const foreign = createClip({ name: "x", skeleton: other, tracks: [] });
  assert.throws(() => makeAdditiveClip(breathe, { kind: "clipFrame", clip: foreign, time: 0 }), /another skeleton/);
});
