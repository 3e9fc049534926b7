import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Matrix, Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import type { Skeleton as BabylonSkeleton } from "@babylonjs/core/Bones/skeleton.js";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { loadGltf } from "../../src/io/gltf/load-gltf.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import {
  applyPoseToBabylon, applyRootMotionToTransformNode, bindBabylonSkeleton, gltfNodeIndexOf, readPoseFromBabylon,
} from "../../src/babylon/index.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { loadGltfWithBabylon } from "./babylon-gltf.ts";

async function loadFox() {
  const bytes = readFileSync(sharedAsset("fox/Fox.glb"));
  const babylon = await loadGltfWithBabylon(bytes);
  const ag = await loadGltf(bytes, { fileName: "Fox.glb" });
  assert.ok(ag.ok);
  return { babylon, ag, root: babylon.container.rootNodes[0] as TransformNode };
}

test("applyPoseToBabylon writes in place: the same Vector3/Quaternion objects, the new values, world matrices refreshed", { skip: !HAVE_SHARED_ASSETS }, async () => {
  const { ag, root, babylon } = await loadFox();
  const skeleton = ag.skeletons[0]!;
  const { binding } = bindBabylonSkeleton(skeleton, root);
  const before = binding.nodes.map((n) => [n.position, n.rotationQuaternion, n.scaling]);
  root.computeWorldMatrix(true);
  for (const n of binding.nodes) n.computeWorldMatrix(true);
  const clip = ag.clips.find((c) => c.name === "Run")!;
  const pose = createPose(skeleton.jointCount);
  const back = createPose(skeleton.jointCount);
  const cursor = createClipCursor(clip);
  for (let k = 0; k < 20; k++) {
    sampleClip(pose, clip, (k * clip.duration) / 20, cursor);
    applyPoseToBabylon(binding, pose);
    readPoseFromBabylon(back, binding);
    assert.deepEqual(back.t, pose.t);
    assert.deepEqual(back.r, pose.r);
    assert.deepEqual(back.s, pose.s);
  }
  binding.nodes.forEach((n, k) => {
    assert.equal(n.position, before[k]![0], `${n.name}.position is the same object`);
    assert.equal(n.rotationQuaternion, before[k]![1], `${n.name}.rotationQuaternion is the same object`);
    assert.equal(n.scaling, before[k]![2], `${n.name}.scaling is the same object`);
  });
  // Babylon caches world matrices per render; in-place `set` marks the vectors dirty, so on the next
  // frame (a new render id) a non-forced computeWorldMatrix sees the new pose. Handedness: __root__ turns 180° about Y after mirroring Z,
  // so a glTF world point (x, y, z) is (−x, y, z) in Babylon's world.
  const model = localToModel(new Float32Array(16 * skeleton.jointCount), skeleton, pose, ag.rootTransform);
  babylon.scene.incrementRenderId();
  let maxErr = 0;
  for (let j = 0; j < skeleton.jointCount; j++) {
    const node = binding.nodes[binding.nodeOfJoint[j]!]!;
    node.computeWorldMatrix();
    const p = node.getAbsolutePosition();
    maxErr = Math.max(maxErr, Math.abs(p.x + model[16 * j + 12]!), Math.abs(p.y - model[16 * j + 13]!), Math.abs(p.z - model[16 * j + 14]!));
  }
  assert.ok(maxErr < 1e-4, `joint world positions (Fox is ~100 units tall): max |Δ| ${maxErr}`);
});

test("bindBabylonSkeleton: glTF node pointers, a Babylon Skeleton's linked nodes, names, and unbound joints", { skip: !HAVE_SHARED_ASSETS }, async () => {
  const { ag, root, babylon } = await loadFox();
  const skeleton = ag.skeletons[0]!;
  const byPointer = bindBabylonSkeleton(skeleton, root);
  assert.deepEqual(byPointer.diagnostics, []);
  for (let j = 0; j < skeleton.jointCount; j++) assert.equal(gltfNodeIndexOf(byPointer.binding.nodes[byPointer.binding.nodeOfJoint[j]!]!), skeleton.sourceIndex[j]);
  // Fox's joint names are unique, so binding by name lands on the same nodes.
  const byName = bindBabylonSkeleton(skeleton, root, { nodeIndexOf: () => undefined });
  assert.deepEqual(byName.diagnostics, []);
  assert.deepEqual(byName.binding.nodes, byPointer.binding.nodes);
  // A Babylon Skeleton binds through bone.getTransformNode() (the nodes its loader animates).
  const babylonSkeleton = babylon.container.skeletons[0] as BabylonSkeleton;
  const bySkeleton = bindBabylonSkeleton(skeleton, babylonSkeleton);
  assert.deepEqual(bySkeleton.diagnostics, []);
  assert.deepEqual(bySkeleton.binding.nodes, byPointer.binding.nodes);

  // A hand-made rig: Euler-rotated nodes get a rotationQuaternion; an unknown joint is reported.
  const scene = babylon.scene;
  const hips = new TransformNode("hips", scene);
  hips.rotation.set(0, Math.PI / 2, 0);
  const ours = createSkeleton({ names: ["hips", "tail"], parents: [-1, 0] });
  const { binding, diagnostics } = bindBabylonSkeleton(ours, [hips], { file: "rig" });
  assert.deepEqual(diagnostics.map((d) => [d.code, d.pointer, d.file]), [["E_BABYLON_UNBOUND_JOINT", "joints[1]", "rig"]]);
  assert.deepEqual([...binding.nodeOfJoint], [0, -1]);
  assert.ok(hips.rotationQuaternion);
  assert.ok(Math.abs(hips.rotationQuaternion.y - Math.SQRT1_2) < 1e-7 && Math.abs(hips.rotationQuaternion.w - Math.SQRT1_2) < 1e-7);
  const pose = createPose(2);
  pose.t.set([1, 2, 3], 0);
  applyPoseToBabylon(binding, pose); // the unbound joint is skipped
  assert.deepEqual(hips.position.asArray(), [1, 2, 3]);
  assert.throws(() => applyPoseToBabylon(binding, createPose(3)), { name: "AnimgraphError", code: "ERR_SKELETON_MISMATCH" });
});

test("applyRootMotionToTransformNode: the node moves as if the delta were a child transform in its own (glTF) frame", () => {
  const scene = new Scene(new NullEngine());
  const cases: [Vector3, Quaternion, Vector3][] = [
    [new Vector3(1, 1, -1), new Quaternion(0, 1, 0, 0), new Vector3(3, 0, 2)], // Babylon's glTF __root__, moved
    [new Vector3(2, 2, 2), Quaternion.RotationAxis(new Vector3(1, 2, 3).normalize(), 0.7), new Vector3(0, 1, 0)],
    [new Vector3(-1, 1, 1), Quaternion.RotationAxis(new Vector3(0, 1, 1).normalize(), -1.1), new Vector3(0, 0, 0)],
  ];
  const dt = [0.3, -0.1, 0.8];
  const dq = Quaternion.RotationAxis(new Vector3(0.2, 1, -0.4).normalize(), 0.35);
  for (const [scaling, rotation, position] of cases) {
    const node = new TransformNode("character", scene);
    node.scaling.copyFrom(scaling);
    node.rotationQuaternion = rotation.clone();
    node.position.copyFrom(position);
    const q = node.rotationQuaternion;
    const expected = Matrix.Compose(Vector3.One(), dq, Vector3.FromArray(dt)).multiply(node.computeWorldMatrix(true));
    applyRootMotionToTransformNode(node, dt, [dq.x, dq.y, dq.z, dq.w]);
    assert.equal(node.rotationQuaternion, q, "the quaternion is updated in place");
    const got = node.computeWorldMatrix(true);
    for (let i = 0; i < 16; i++) assert.ok(Math.abs(got.m[i]! - expected.m[i]!) < 1e-6, `scaling ${scaling}: m[${i}] ${got.m[i]} vs ${expected.m[i]}`);
  }
});
