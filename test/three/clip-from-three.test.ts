import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AnimationClip, Bone, InterpolateBezier, InterpolateDiscrete, InterpolateLinear, InterpolateSmooth, NumberKeyframeTrack,
  QuaternionKeyframeTrack, VectorKeyframeTrack, type KeyframeTrack,
} from "three";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip, sampleFloatTracks } from "../../src/clip/sample-clip.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { clipFromThree, skeletonFromThree } from "../../src/three/index.ts";

// Two joints; the second's name has a dot, which three's track names cannot carry ("Foot.L" → "FootL").
const skeleton = createSkeleton({ names: ["Hips", "Foot.L"], parents: [-1, 0] });

/** Max |three − animgraph| for joint 0's translation over `n` times in [t0, t1]. */
function maxTranslationError(track: KeyframeTrack, t0: number, t1: number, n: number): number {
  const { clip, diagnostics } = clipFromThree(new AnimationClip("c", -1, [track]), skeleton);
  assert.ok(diagnostics.every((d) => d.severity === "info"), JSON.stringify(diagnostics));
  const interpolant = (track as unknown as { createInterpolant(r: Float32Array): { evaluate(t: number): Float32Array } }).createInterpolant(new Float32Array(3));
  const pose = createPose(2);
  const cursor = createClipCursor(clip);
  let max = 0;
  for (let k = 0; k <= n; k++) {
    const t = t0 + ((t1 - t0) * k) / n;
    const expected = interpolant.evaluate(t);
    sampleClip(pose, clip, t, cursor);
    for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(pose.t[c]! - expected[c]!));
  }
  return max;
}

const TIMES = [0, 0.3, 0.5, 1.2, 1.25, 2];
const VALUES = [0, 0, 0, 1, -2, 0.5, 3, 1, 1, -1, 0, 2, 2, 2, 2, 0, 5, -3];

test("InterpolateLinear and InterpolateDiscrete convert to LINEAR and STEP, sampling like three", () => {
  const linear = new VectorKeyframeTrack("Hips.position", TIMES, VALUES, InterpolateLinear);
  const step = new VectorKeyframeTrack("Hips.position", TIMES, VALUES, InterpolateDiscrete);
  assert.equal(clipFromThree(new AnimationClip("l", -1, [linear]), skeleton).clip.tracks[0]!.interpolation, "LINEAR");
  assert.equal(clipFromThree(new AnimationClip("s", -1, [step]), skeleton).clip.tracks[0]!.interpolation, "STEP");
  assert.ok(maxTranslationError(linear, -0.5, 2.5, 300) <= 1e-6);
  assert.ok(maxTranslationError(step, -0.5, 2.5, 300) <= 1e-6);
});

test("InterpolateSmooth converts exactly to CUBICSPLINE (three's CubicInterpolant, ZeroCurvatureEnding)", (t) => {
  const smooth = new VectorKeyframeTrack("Hips.position", TIMES, VALUES, InterpolateSmooth);
  const { clip } = clipFromThree(new AnimationClip("c", -1, [smooth]), skeleton);
  assert.equal(clip.tracks[0]!.interpolation, "CUBICSPLINE");
  assert.equal(clip.tracks[0]!.values.length, 3 * VALUES.length);
  const err = maxTranslationError(smooth, -0.2, 2.2, 500);
  t.diagnostic(`InterpolateSmooth → CUBICSPLINE: max |Δ| ${err.toExponential(2)} over 501 times`);
  assert.ok(err <= 1e-5, `${err}`);
  // Two keys: three's curve is then the straight line (both ends natural).
  const two = new VectorKeyframeTrack("Hips.position", [0, 1], [0, 0, 0, 2, 4, 6], InterpolateSmooth);
  assert.ok(maxTranslationError(two, 0, 1, 50) <= 1e-6);
});

test("InterpolateBezier is resampled with three's own interpolant (info diagnostic)", (t) => {
  const track = new VectorKeyframeTrack("Hips.position", [0, 1], [0, 0, 0, 1, 2, 3], InterpolateBezier);
  // Ease-in-out handles at a third of the interval, flat tangents.
  const outT = [1 / 3, 0, 1 / 3, 0, 1 / 3, 0, 2, 1, 2, 2, 2, 3];
  const inT = [-1, 0, -1, 0, -1, 0, 2 / 3, 1, 2 / 3, 2, 2 / 3, 3];
  (track as unknown as { settings: unknown }).settings = { inTangents: new Float32Array(inT), outTangents: new Float32Array(outT) };
  const { clip, diagnostics } = clipFromThree(new AnimationClip("b", -1, [track]), skeleton, { resampleRate: 120 });
  assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [["E_THREE_RESAMPLED", "info"]]);
  assert.equal(clip.tracks[0]!.interpolation, "LINEAR");
  assert.equal(clip.tracks[0]!.times.length, 121);
  const err = maxTranslationError(track, 0, 1, 1000);
  t.diagnostic(`Bezier resampled at 120 Hz: max |Δ| ${err.toExponential(2)} (values up to 3)`);
  assert.ok(err <= 1e-3, `${err}`);
});

test("track names: sanitized joint names, bones[…] form, morph weights; bad tracks skipped with warnings", () => {
  const q = new QuaternionKeyframeTrack("FootL.quaternion", [0, 1], [0, 0, 0, 2, 0, 0, 2, 0]); // unnormalised keys
  const bones = new VectorKeyframeTrack(".bones[Hips].scale", [0], [2, 2, 2]); // SkinnedMesh-relative form
  const unparseable = new VectorKeyframeTrack("bones[Hips].scale", [0], [4, 4, 4]);
  const morph = new NumberKeyframeTrack("Face.morphTargetInfluences", [0, 1], [0, 1, 1, 0]);
  const unknown = new VectorKeyframeTrack("Tail.position", [0], [1, 2, 3]);
  const prop = new NumberKeyframeTrack("Hips.visible", [0], [1]);
  const dup = new VectorKeyframeTrack("Hips.scale", [0], [3, 3, 3]);
  const badTimes = new VectorKeyframeTrack("Hips.position", [0, 1], [0, 0, 0, 1, 1, 1]);
  badTimes.times[1] = 0;
  const { clip, diagnostics } = clipFromThree(new AnimationClip("mixed", -1, [q, bones, morph, unknown, prop, dup, badTimes, unparseable]), skeleton, { file: "hero.glb" });
  assert.deepEqual(diagnostics.map((d) => [d.code, d.pointer]), [
    ["E_THREE_TRACK_TARGET", "mixed/tracks[3]"],
    ["E_THREE_TRACK_PROPERTY", "mixed/tracks[4]"],
    ["E_THREE_TRACK_DUPLICATE", "mixed/tracks[5]"],
    ["E_THREE_TRACK_KEYS", "mixed/tracks[6]"],
    ["E_THREE_TRACK_NAME", "mixed/tracks[7]"],
  ]);
  assert.ok(diagnostics.every((d) => d.severity === "warning" && d.file === "hero.glb"));
  assert.equal(clip.tracks.length, 2);
  const rot = clip.tracks[clip.trackIndex[3 * 1 + 1]!]!;
  assert.deepEqual([...rot.values], [0, 0, 0, 1, 0, 0, 1, 0]); // normalised
  const scale = clip.tracks[clip.trackIndex[3 * 0 + 2]!]!;
  assert.deepEqual([...scale.values], [2, 2, 2]);
  assert.equal(clip.floatTracks.length, 1);
  assert.equal(clip.floatTracks[0]!.target, "Face");
  assert.equal(clip.floatTracks[0]!.count, 2);
  const weights = sampleFloatTracks(new Float32Array(2), clip, 0.25, createClipCursor(clip));
  assert.deepEqual([...weights], [0.25, 0.75]);
});

test("skeletonFromThree: parent-before-child order, names, rest pose, round trip with clipFromThree", () => {
  const root = new Bone();
  root.name = "root";
  const spine = new Bone();
  spine.name = "spine";
  spine.position.set(0, 1, 0);
  const head = new Bone(); // unnamed
  head.position.set(0, 0.5, 0);
  head.quaternion.set(0, Math.SQRT1_2, 0, Math.SQRT1_2);
  root.add(spine);
  spine.add(head);
  // Listed child-first: the skeleton must reorder.
  const { skeleton: sk, binding } = skeletonFromThree([head, spine, root]);
  assert.deepEqual(sk.names, ["root", "spine", "#0"]);
  assert.deepEqual([...sk.parents], [-1, 0, 1]);
  assert.deepEqual([...sk.sourceIndex], [2, 1, 0]);
  assert.deepEqual([...sk.rest.t.subarray(6, 9)], [0, 0.5, 0]);
  assert.ok(Math.abs(sk.rest.r[9]! - Math.SQRT1_2) < 1e-7);
  assert.equal(binding.objects[2], head);
  const track = new QuaternionKeyframeTrack(`${head.uuid}.quaternion`, [0, 1], [0, 0, 0, 1, 0, 0, 1, 0]);
  const { clip, diagnostics } = clipFromThree(new AnimationClip("turn", 1, [track]), sk, { binding });
  assert.deepEqual(diagnostics, []);
  assert.equal(clip.tracks[0]!.joint, 2); // resolved through the uuid of the unnamed bone
  assert.equal(clip.duration, 1);
});
