import { test } from "node:test";
import assert from "node:assert/strict";
import { Document, NodeIO } from "@gltf-transform/core";
import { Animation } from "@babylonjs/core/Animations/animation.js";
import { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import { AnimationKeyInterpolation } from "@babylonjs/core/Animations/animationKey.js";
import { CubicEase } from "@babylonjs/core/Animations/easing.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { loadGltf } from "../../src/io/gltf/load-gltf.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { bindBabylonSkeleton, clipFromBabylon, readPoseFromBabylon } from "../../src/babylon/index.ts";
import { accumulateDifference, describe, maxOf, zeroDifference } from "../three/pose-compare.ts";
import { loadGltfWithBabylon } from "./babylon-gltf.ts";

// glTF CUBICSPLINE and STEP: none of the bundled assets uses them, so this builds a small animated node
// hierarchy with @gltf-transform/core (as test/three/cubic-spline-gltf.test.ts does for three.js).
async function buildGlb(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const root = doc.createNode("root").setTranslation([0, 1, 0]);
  const arm = doc.createNode("arm.L").setTranslation([0.5, 0, 0]);
  const hand = doc.createNode("hand.L").setTranslation([0.4, 0, 0]);
  root.addChild(arm);
  arm.addChild(hand);
  doc.createScene("scene").addChild(root);
  const acc = (type: "SCALAR" | "VEC3" | "VEC4", values: number[]) =>
    doc.createAccessor().setType(type).setArray(new Float32Array(values)).setBuffer(buffer);
  const times = acc("SCALAR", [0, 0.4, 1.1, 2]);
  const tr = acc("VEC3", [
    0, 0, 0, /**/ 0, 1, 0, /**/ 1, 0, -2,
    2, 1, 0, /**/ 0.5, 1.5, 0.2, /**/ -1, 3, 0,
    0, -2, 1, /**/ 1, 0.5, -0.5, /**/ 0.5, 0.5, 0.5,
    -1, 0, 0, /**/ 0, 1, 0, /**/ 0, 0, 0,
  ]);
  const s = Math.SQRT1_2;
  const rot = acc("VEC4", [
    0, 0, 0, 0, /**/ 0, 0, 0, 1, /**/ 0, 0.8, 0, 0,
    0.3, 0, 0, 0, /**/ 0, s, 0, s, /**/ 0, 0.2, 0.5, -0.1,
    0, 0, 0.4, 0, /**/ 0.5, 0.5, 0.5, 0.5, /**/ -0.6, 0, 0, 0.2,
    0, 0, 0, 0, /**/ 0, 0, s, s, /**/ 0, 0, 0, 0,
  ]);
  const stepScale = acc("VEC3", [1, 1, 1, 2, 2, 2, 1, 0.5, 1, 1, 1, 1]);
  const anim = doc.createAnimation("wave");
  const add = (node: typeof root, path: "translation" | "rotation" | "scale", output: ReturnType<typeof acc>, interpolation: "CUBICSPLINE" | "STEP") => {
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(output).setInterpolation(interpolation);
    anim.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
  };
  add(arm, "translation", tr, "CUBICSPLINE");
  add(hand, "rotation", rot, "CUBICSPLINE");
  add(root, "scale", stepScale, "STEP");
  return new NodeIO().writeBinary(doc);
}

test("CUBICSPLINE and STEP channels: animgraph matches Babylon's loader + goToFrame; clipFromBabylon keeps the triplets", async (t) => {
  const glb = await buildGlb();
  const ag = await loadGltf(glb, { fileName: "cubic.glb" });
  assert.ok(ag.ok, ag.diagnostics.map((d) => d.message).join("\n"));
  const { container } = await loadGltfWithBabylon(glb, false);
  const skeleton = ag.skeletons[0]!;
  const { binding, diagnostics } = bindBabylonSkeleton(skeleton, container.rootNodes[0] as TransformNode);
  assert.deepEqual(diagnostics, []);
  const clip = ag.clips[0]!;
  const group = container.animationGroups[0]!;
  const fps = group.targetedAnimations[0]!.animation.framePerSecond;

  const { clip: converted, diagnostics: convDiagnostics } = clipFromBabylon(group, skeleton, { binding });
  assert.deepEqual(convDiagnostics, []);
  for (const track of converted.tracks) {
    const slot = track.path === "translation" ? 0 : track.path === "rotation" ? 1 : 2;
    const expected = clip.tracks[clip.trackIndex[3 * track.joint + slot]!]!;
    assert.equal(track.interpolation, expected.interpolation);
    assert.deepEqual(track.times, expected.times);
    // Babylon keeps tangents per frame (× 1/fps); × fps brings glTF's back up to float rounding.
    let maxValue = 0;
    track.values.forEach((v, i) => (maxValue = Math.max(maxValue, Math.abs(v - expected.values[i]!))));
    assert.ok(maxValue <= 1e-6, `${track.path}: keys differ by ${maxValue}`);
  }

  group.start(false);
  const ours = createPose(skeleton.jointCount);
  const fromBabylon = createPose(skeleton.jointCount);
  const theirs = createPose(skeleton.jointCount);
  const cursor = createClipCursor(clip);
  const cursor2 = createClipCursor(converted);
  const diff = zeroDifference();
  const diffConverted = zeroDifference();
  const hand = skeleton.indexOf.get("hand.L")!;
  let minW = 1;
  for (let k = 0; k < 200; k++) {
    const time = (k * clip.duration) / 200;
    group.goToFrame(time * fps);
    readPoseFromBabylon(theirs, binding);
    sampleClip(ours, clip, time, cursor);
    sampleClip(fromBabylon, converted, time, cursor2);
    accumulateDifference(diff, ours, theirs);
    accumulateDifference(diffConverted, fromBabylon, theirs);
    minW = Math.min(minW, Math.abs(theirs.r[4 * hand + 3]!));
  }
  group.stop();
  assert.ok(minW < 0.8, `the hand turns (w ≥ ${minW})`);
  t.diagnostic(`CUBICSPLINE/STEP, loadGltf vs Babylon: ${describe(diff)}; clipFromBabylon vs Babylon: ${describe(diffConverted)}`);
  assert.ok(maxOf(diff) <= 1e-5, describe(diff));
  assert.ok(maxOf(diffConverted) <= 1e-5, describe(diffConverted));
});

function scene(): Scene {
  return new Scene(new NullEngine());
}

test("easing and mixed key kinds are resampled with Babylon's own evaluate (info); per-key STEP becomes STEP", () => {
  const s = scene();
  const hips = new TransformNode("Hips", s);
  const eased = new Animation("eased", "position", 30, Animation.ANIMATIONTYPE_VECTOR3);
  eased.setKeys([{ frame: 0, value: new Vector3(0, 0, 0) }, { frame: 30, value: new Vector3(3, 1, -2) }]);
  eased.setEasingFunction(new CubicEase());
  const mixed = new Animation("mixed", "scaling", 30, Animation.ANIMATIONTYPE_VECTOR3);
  mixed.setKeys([
    { frame: 0, value: new Vector3(1, 1, 1), interpolation: AnimationKeyInterpolation.STEP },
    { frame: 15, value: new Vector3(2, 2, 2) },
    { frame: 30, value: new Vector3(1, 3, 1) },
  ]);
  const stepped = new Animation("stepped", "rotationQuaternion", 30, Animation.ANIMATIONTYPE_QUATERNION);
  const q = Quaternion.RotationAxis(new Vector3(0, 1, 0), 1);
  stepped.setKeys([
    { frame: 0, value: Quaternion.Identity(), interpolation: AnimationKeyInterpolation.STEP },
    { frame: 20, value: q, interpolation: AnimationKeyInterpolation.STEP },
  ]);
  const group = new AnimationGroup("g", s);
  group.addTargetedAnimation(eased, hips);
  group.addTargetedAnimation(mixed, hips);
  group.addTargetedAnimation(stepped, hips);
  const skeleton = createSkeleton({ names: ["Hips"], parents: [-1] });
  const { clip, diagnostics } = clipFromBabylon(group, skeleton, { resampleRate: 120, file: "hand.babylon" });
  assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.pointer, d.file]), [
    ["E_BABYLON_RESAMPLED", "info", "g/targetedAnimations[0]", "hand.babylon"],
    ["E_BABYLON_RESAMPLED", "info", "g/targetedAnimations[1]", "hand.babylon"],
  ]);
  assert.deepEqual(clip.tracks.map((tr) => tr.interpolation), ["LINEAR", "LINEAR", "STEP"]);
  assert.equal(clip.tracks[0]!.times.length, 121);
  const pose = createPose(1);
  const cursor = createClipCursor(clip);
  let errT = 0, errS = 0, errR = 0;
  // Off the key times: keys at frame 20 of 30 fps fall between float32 seconds, so exactly there the
  // two may pick different sides of a jump.
  for (let k = 0; k < 300; k++) {
    const time = (k + 0.5) / 300;
    sampleClip(pose, clip, time, cursor);
    const p = eased.evaluate(time * 30) as Vector3;
    const sc = mixed.evaluate(time * 30) as Vector3;
    const r = stepped.evaluate(time * 30) as Quaternion;
    errT = Math.max(errT, Math.abs(pose.t[0]! - p.x), Math.abs(pose.t[1]! - p.y), Math.abs(pose.t[2]! - p.z));
    errS = Math.max(errS, Math.abs(pose.s[0]! - sc.x), Math.abs(pose.s[1]! - sc.y));
    errR = Math.max(errR, Math.abs(pose.r[1]! - r.y), Math.abs(pose.r[3]! - r.w));
  }
  assert.ok(errT <= 2e-3, `eased, resampled at 120 Hz: ${errT}`);
  assert.ok(errS <= 1e-6, `mixed step/linear, resampled at every key frame: ${errS}`);
  assert.ok(errR <= 1e-6, `STEP: ${errR}`);
});

test("unknown targets and properties, duplicates and bad keys are skipped with warnings; morph influences become float tracks", () => {
  const s = scene();
  const hips = new TransformNode("Hips", s);
  const tail = new TransformNode("Tail", s);
  const vec = (name: string, property: string, keys: { frame: number; value: unknown }[]) => {
    const a = new Animation(name, property, 60, Animation.ANIMATIONTYPE_VECTOR3);
    a.setKeys(keys);
    return a;
  };
  const ok = vec("ok", "position", [{ frame: 0, value: new Vector3(0, 0, 0) }, { frame: 60, value: new Vector3(1, 2, 3) }]);
  const unknown = vec("unknown", "position", [{ frame: 0, value: Vector3.One() }]);
  const prop = vec("prop", "rotation", [{ frame: 0, value: Vector3.One() }]);
  const dup = vec("dup", "position", [{ frame: 0, value: Vector3.One() }]);
  const badValue = vec("bad", "scaling", [{ frame: 0, value: 3 }]);
  const backwards = vec("backwards", "scaling", [{ frame: 10, value: Vector3.One() }, { frame: 5, value: Vector3.One() }]);
  const zeroQ = new Animation("zero", "rotationQuaternion", 60, Animation.ANIMATIONTYPE_QUATERNION);
  zeroQ.setKeys([{ frame: 0, value: new Quaternion(0, 0, 0, 0) }]);
  const influence = new Animation("smile", "influence", 60, Animation.ANIMATIONTYPE_FLOAT);
  influence.setKeys([{ frame: 0, value: 0 }, { frame: 30, value: 1 }]);
  const morph = { name: "Smile", influence: 0 }; // a MorphTarget's shape, as far as the converter cares
  const group = new AnimationGroup("mixed", s);
  for (const [a, target] of [[ok, hips], [unknown, tail], [prop, hips], [dup, hips], [badValue, hips], [backwards, hips], [zeroQ, hips], [influence, morph]] as const) {
    group.addTargetedAnimation(a, target);
  }
  const skeleton = createSkeleton({ names: ["Hips"], parents: [-1] });
  const { clip, diagnostics } = clipFromBabylon(group, skeleton, { file: "x.glb" });
  assert.deepEqual(diagnostics.map((d) => [d.code, d.pointer]), [
    ["E_BABYLON_TRACK_TARGET", "mixed/targetedAnimations[1]"],
    ["E_BABYLON_TRACK_PROPERTY", "mixed/targetedAnimations[2]"],
    ["E_BABYLON_TRACK_DUPLICATE", "mixed/targetedAnimations[3]"],
    ["E_BABYLON_TRACK_KEYS", "mixed/targetedAnimations[4]"],
    ["E_BABYLON_TRACK_KEYS", "mixed/targetedAnimations[5]"],
    ["E_BABYLON_TRACK_KEYS", "mixed/targetedAnimations[6]"],
  ]);
  assert.ok(diagnostics.every((d) => d.severity === "warning" && d.file === "x.glb"));
  assert.equal(clip.tracks.length, 1);
  assert.deepEqual([...clip.tracks[0]!.values], [0, 0, 0, 1, 2, 3]);
  assert.equal(clip.duration, 1);
  assert.deepEqual(clip.floatTracks.map((f) => [f.target, f.count, [...f.times], [...f.values]]), [["Smile", 1, [0, 0.5], [0, 1]]]);
});
