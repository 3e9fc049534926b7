// Property tests of the Babylon adapter against Babylon itself: random animations of every key kind
// convert to clips that sample like Babylon's Animation.evaluate; random poses round-trip through the
// nodes; random root-motion deltas compose like a child transform.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Animation } from "@babylonjs/core/Animations/animation.js";
import { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { AnimationKeyInterpolation, type IAnimationKey } from "@babylonjs/core/Animations/animationKey.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { applyPoseToBabylon, applyRootMotionToTransformNode, bindBabylonSkeleton, clipFromBabylon, readPoseFromBabylon } from "../../src/babylon/index.ts";

const scene = new Scene(new NullEngine());
const skeleton = createSkeleton({ names: ["Hips"], parents: [-1] });
const hips = new TransformNode("Hips", scene);

const coord = fc.double({ min: -5, max: 5, noNaN: true });
const vec3 = fc.tuple(coord, coord, coord);
const unitQuat = fc.tuple(coord, coord, coord, coord).filter((q) => Math.hypot(...q) > 0.1).map((q) => {
  const n = Math.hypot(...q);
  return q.map((c) => Math.fround(c / n)) as [number, number, number, number];
});
// 64 fps: every integer frame is an exact float32 second, so key times survive the conversion exactly
// (at 60 fps frame 158 becomes the nearest float32 of 2.6333… s, off by ~1e-7 s: on a steep one-frame
// segment that alone moves a value by 2e-5).
const FPS = 64;
/** Strictly increasing key frames (integers, as glTF × 60 and hand-made keys mostly are). */
const frames = fc.uniqueArray(fc.integer({ min: 0, max: 240 }), { minLength: 1, maxLength: 8 }).map((f) => f.sort((a, b) => a - b));
const kind = fc.constantFrom("LINEAR", "STEP", "CUBICSPLINE");

test("property: random LINEAR / STEP / CUBICSPLINE Babylon animations sample like Babylon's evaluate", () => {
  fc.assert(fc.property(frames, kind, fc.array(vec3, { minLength: 24, maxLength: 24 }), fc.array(unitQuat, { minLength: 8, maxLength: 8 }), (fs, k, vs, qs) => {
    const mk = (i: number, value: unknown, tangent: () => unknown): IAnimationKey => ({
      frame: fs[i]!, value,
      ...(k === "STEP" ? { interpolation: AnimationKeyInterpolation.STEP } : {}),
      ...(k === "CUBICSPLINE" ? { inTangent: tangent(), outTangent: tangent() } : {}),
    });
    const position = new Animation("p", "position", FPS, Animation.ANIMATIONTYPE_VECTOR3);
    position.setKeys(fs.map((_, i) => mk(i, Vector3.FromArray(vs[i]!.map(Math.fround)), () => Vector3.FromArray(vs[8 + i]!.map((c) => Math.fround(c / FPS))))));
    const rotation = new Animation("r", "rotationQuaternion", FPS, Animation.ANIMATIONTYPE_QUATERNION);
    rotation.setKeys(fs.map((_, i) => mk(i, Quaternion.FromArray(qs[i]!), () => Quaternion.FromArray(vs[16 + i]!.concat(0).map((c) => Math.fround(c / FPS))))));
    const group = new AnimationGroup("g", scene);
    group.addTargetedAnimation(position, hips);
    group.addTargetedAnimation(rotation, hips);
    const { clip, diagnostics } = clipFromBabylon(group, skeleton);
    group.dispose();
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(clip.tracks.map((t) => t.interpolation), fs.length > 1 ? [k, k] : ["LINEAR", "LINEAR"]);
    const pose = createPose(1);
    const cursor = createClipCursor(clip);
    const keySet = new Set(fs);
    for (let f = 0; f <= 250; f += 0.77) {
      // At a STEP key's own frame the float32 second and Babylon's frame may fall on either side.
      if (k === "STEP" && [...keySet].some((kf) => Math.abs(kf - f) < 1e-3)) continue;
      sampleClip(pose, clip, f / FPS, cursor);
      const p = position.evaluate(f) as Vector3;
      const q = rotation.evaluate(f) as Quaternion;
      const scale = 1 + Math.abs(p.x) + Math.abs(p.y) + Math.abs(p.z);
      assert.ok(Math.abs(pose.t[0]! - p.x) + Math.abs(pose.t[1]! - p.y) + Math.abs(pose.t[2]! - p.z) <= 1e-5 * scale, `${k} frame ${f}: translation ${[...pose.t]} vs ${p.asArray()}`);
      const dot = pose.r[0]! * q.x + pose.r[1]! * q.y + pose.r[2]! * q.z + pose.r[3]! * q.w;
      const len = Math.hypot(q.x, q.y, q.z, q.w);
      assert.ok(Math.abs(Math.abs(dot) / len - 1) <= 1e-5, `${k} frame ${f}: rotation ${[...pose.r]} vs ${q.asArray()}`);
    }
  }), { numRuns: 40 });
});

test("property: applyPoseToBabylon then readPoseFromBabylon returns the pose, into the same objects", () => {
  const rig = createSkeleton({ names: ["a", "b", "c"], parents: [-1, 0, 1] });
  const nodes = ["a", "b", "c"].map((n) => new TransformNode(n, scene));
  const { binding } = bindBabylonSkeleton(rig, nodes);
  const before = nodes.flatMap((n) => [n.position, n.rotationQuaternion, n.scaling]);
  fc.assert(fc.property(fc.array(fc.tuple(vec3, unitQuat, vec3), { minLength: 3, maxLength: 3 }), (joints) => {
    const pose = createPose(3);
    joints.forEach(([t, r, s], j) => { pose.t.set(t, 3 * j); pose.r.set(r, 4 * j); pose.s.set(s, 3 * j); });
    applyPoseToBabylon(binding, pose);
    const back = readPoseFromBabylon(createPose(3), binding);
    assert.deepEqual([back.t, back.r, back.s], [pose.t, pose.r, pose.s]);
    assert.deepEqual(nodes.flatMap((n) => [n.position, n.rotationQuaternion, n.scaling]), before);
    before.forEach((o, i) => assert.equal(o, nodes.flatMap((n) => [n.position, n.rotationQuaternion, n.scaling])[i]));
  }));
});

test("property: applyRootMotionToTransformNode equals composing the delta as a child transform (any sign pattern of a uniform scale)", () => {
  const signs = fc.tuple(fc.constantFrom(-1, 1), fc.constantFrom(-1, 1), fc.constantFrom(-1, 1));
  fc.assert(fc.property(vec3, unitQuat, fc.double({ min: 0.1, max: 10, noNaN: true }), signs, vec3, unitQuat, (pos, rot, size, sg, dt, dq) => {
    const node = new TransformNode("mover", scene);
    node.position.copyFromFloats(...pos);
    node.rotationQuaternion = Quaternion.FromArray(rot);
    node.scaling.copyFromFloats(size * sg[0], size * sg[1], size * sg[2]);
    const expected = Matrix.Compose(Vector3.One(), Quaternion.FromArray(dq), Vector3.FromArray(dt)).multiply(node.computeWorldMatrix(true));
    applyRootMotionToTransformNode(node, dt, dq);
    const got = node.computeWorldMatrix(true);
    node.dispose();
    const tol = 1e-5 * (1 + size) * (1 + Math.hypot(...pos) + size * Math.hypot(...dt));
    for (let i = 0; i < 16; i++) assert.ok(Math.abs(got.m[i]! - expected.m[i]!) <= tol, `m[${i}] ${got.m[i]} vs ${expected.m[i]}`);
  }));
});
