// glTF CUBICSPLINE and STEP through both loaders: none of the bundled assets uses them, so this builds a
// small animated node hierarchy with @gltf-transform/core and checks animgraph against three.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Document, NodeIO } from "@gltf-transform/core";
import { AnimationMixer } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { loadGltf } from "../../src/io/gltf/load-gltf.ts";
import { createPose } from "../../src/pose/pose.ts";
import { bindThreeSkeleton, clipFromThree, readPoseFromThree } from "../../src/three/index.ts";
import { accumulateDifference, describe, maxOf, zeroDifference } from "./pose-compare.ts";

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
  // CUBICSPLINE translation: (in-tangent, value, out-tangent) per key.
  const tr = acc("VEC3", [
    0, 0, 0, /**/ 0, 1, 0, /**/ 1, 0, -2,
    2, 1, 0, /**/ 0.5, 1.5, 0.2, /**/ -1, 3, 0,
    0, -2, 1, /**/ 1, 0.5, -0.5, /**/ 0.5, 0.5, 0.5,
    -1, 0, 0, /**/ 0, 1, 0, /**/ 0, 0, 0,
  ]);
  // CUBICSPLINE rotation about varying axes (values unit, tangents arbitrary), normalised on sampling.
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

test("CUBICSPLINE and STEP channels: animgraph matches three's GLTFLoader + AnimationMixer; clipFromThree keeps the triplets", async (t) => {
  const glb = await buildGlb();
  const ag = await loadGltf(glb, { fileName: "cubic.glb" });
  assert.ok(ag.ok, ag.diagnostics.map((d) => d.message).join("\n"));
  const copy = glb.slice().buffer;
  const three = await new GLTFLoader().parseAsync(copy, "");
  const skeleton = ag.skeletons[0]!;
  const { binding, diagnostics } = bindThreeSkeleton(skeleton, three.scene, { nodeIndexOf: (o) => three.parser.associations.get(o)?.nodes });
  assert.deepEqual(diagnostics, []);
  const clip = ag.clips[0]!;
  assert.deepEqual(clip.tracks.map((tr) => tr.interpolation).sort(), ["CUBICSPLINE", "CUBICSPLINE", "STEP"]);

  const mixer = new AnimationMixer(three.scene);
  mixer.clipAction(three.animations[0]!).play();
  const ours = createPose(skeleton.jointCount);
  const theirs = createPose(skeleton.jointCount);
  const cursor = createClipCursor(clip);
  const diff = zeroDifference();
  const hand = skeleton.indexOf.get("hand.L")!;
  const arm = skeleton.indexOf.get("arm.L")!;
  let minW = 1, maxArmZ = -Infinity, minArmZ = Infinity;
  for (let k = 0; k < 100; k++) {
    const time = (k * clip.duration) / 100;
    mixer.setTime(time);
    sampleClip(ours, clip, time, cursor);
    accumulateDifference(diff, ours, readPoseFromThree(theirs, binding));
    minW = Math.min(minW, Math.abs(ours.r[4 * hand + 3]!));
    maxArmZ = Math.max(maxArmZ, ours.t[3 * arm + 2]!);
    minArmZ = Math.min(minArmZ, ours.t[3 * arm + 2]!);
  }
  // The comparison is not vacuous: the hand turns well away from identity and the arm moves.
  assert.ok(minW < 0.8, `hand w ≥ ${minW}`);
  assert.ok(maxArmZ - minArmZ > 0.3, `arm z range ${maxArmZ - minArmZ}`);
  t.diagnostic(`CUBICSPLINE/STEP vs three: ${describe(diff)}`);
  assert.ok(maxOf(diff) <= 1e-5, describe(diff));

  const { clip: converted, diagnostics: convDiagnostics } = clipFromThree(three.animations[0]!, skeleton, { binding });
  assert.deepEqual(convDiagnostics, []);
  for (const track of converted.tracks) {
    const slot = track.path === "translation" ? 0 : track.path === "rotation" ? 1 : 2;
    const expected = clip.tracks[clip.trackIndex[3 * track.joint + slot]!]!;
    assert.equal(track.interpolation, expected.interpolation);
    assert.deepEqual(track.times, expected.times);
    assert.deepEqual(track.values, expected.values);
  }
});
