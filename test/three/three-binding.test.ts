import { test } from "node:test";
import assert from "node:assert/strict";
import { Bone, Object3D, Quaternion, Skeleton as ThreeSkeleton, SkinnedMesh, Vector3 } from "three";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { applyPoseToThree, applyRootMotionToObject3D, bindThreeSkeleton, readPoseFromThree } from "../../src/three/index.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { loadGltfWithThree } from "./three-gltf.ts";

test("binding by name finds GLTFLoader's renamed bones (Foot.L → FootL, Torso → Torso_1) like the node-index route", { skip: !HAVE_SHARED_ASSETS }, async () => {
  for (const file of ["robot-expressive/RobotExpressive.glb", "fox/Fox.glb", "rigged-simple/RiggedSimple.glb"]) {
    const path = sharedAsset(file);
    const [three, ag] = await Promise.all([loadGltfWithThree(path), loadGltfFile(path)]);
    const skeleton = ag.skeletons[0]!;
    const byNode = bindThreeSkeleton(skeleton, three.scene, { nodeIndexOf: (o) => three.parser.associations.get(o)?.nodes });
    const byName = bindThreeSkeleton(skeleton, three.scene);
    assert.deepEqual(byName.diagnostics, [], file);
    for (let j = 0; j < skeleton.jointCount; j++) {
      // Compare identities only: a failing deepEqual would diff whole three.js scene graphs.
      const a = byName.binding.objects[byName.binding.objectOfJoint[j]!];
      const b = byNode.binding.objects[byNode.binding.objectOfJoint[j]!];
      assert.ok(a !== undefined && a === b, `${file} joint ${skeleton.names[j]}: bound to ${a?.type} "${a?.name}", expected ${b?.type} "${b?.name}"`);
    }
  }
});

test("unnamed glTF joints (CesiumMan) cannot bind by name: one warning per joint", { skip: !HAVE_SHARED_ASSETS }, async () => {
  const path = sharedAsset("cesium-man/CesiumMan.glb");
  const [three, ag] = await Promise.all([loadGltfWithThree(path), loadGltfFile(path)]);
  let mesh: SkinnedMesh | undefined;
  three.scene.traverse((o) => {
    if ((o as SkinnedMesh).isSkinnedMesh) mesh = o as SkinnedMesh;
  });
  assert.ok(mesh);
  const { binding, diagnostics } = bindThreeSkeleton(ag.skeletons[0]!, mesh, { file: "CesiumMan.glb" });
  assert.equal(diagnostics.length, 19);
  assert.ok(diagnostics.every((d) => d.code === "E_THREE_UNBOUND_JOINT" && d.severity === "warning" && d.file === "CesiumMan.glb"));
  assert.ok(binding.objectOfJoint.every((k) => k === -1));
  // With node indices every joint binds to a bone of the SkinnedMesh's skeleton.
  const fixed = bindThreeSkeleton(ag.skeletons[0]!, mesh, { nodeIndexOf: (o) => three.parser.associations.get(o)?.nodes });
  assert.deepEqual(fixed.diagnostics, []);
  assert.ok(fixed.binding.objects.every((o) => (o as Bone).isBone));
});

function chain(): { bones: Bone[]; skeleton: ThreeSkeleton } {
  const names = ["hips", "spine", "head"];
  const bones = names.map((name) => Object.assign(new Bone(), { name }));
  bones[0]!.add(bones[1]!);
  bones[1]!.add(bones[2]!);
  return { bones, skeleton: new ThreeSkeleton(bones) };
}

test("applyPoseToThree writes local TRS by joint; readPoseFromThree reads it back; unbound joints are left alone", () => {
  const ours = createSkeleton({ names: ["hips", "spine", "tail", "head"], parents: [-1, 0, 0, 1] });
  const { bones, skeleton } = chain();
  const { binding, diagnostics } = bindThreeSkeleton(ours, skeleton);
  assert.deepEqual(diagnostics.map((d) => [d.code, d.pointer]), [["E_THREE_UNBOUND_JOINT", "joints[2]"]]);
  assert.deepEqual([...binding.objectOfJoint], [0, 1, -1, 2]);
  const pose = createPose(4);
  for (let j = 0; j < 4; j++) {
    pose.t.set([j, 2 * j, -j], 3 * j);
    const q = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.3 * j);
    pose.r.set([q.x, q.y, q.z, q.w], 4 * j);
    pose.s.set([1, 1 + j, 1], 3 * j);
  }
  applyPoseToThree(binding, pose);
  assert.deepEqual(bones[2]!.position.toArray(), [3, 6, -3]);
  assert.ok(Math.abs(bones[1]!.quaternion.y - Math.sin(0.15)) < 1e-7);
  assert.deepEqual(bones[1]!.scale.toArray(), [1, 2, 1]);
  const back = readPoseFromThree(createPose(4), binding);
  for (const j of [0, 1, 3]) {
    assert.deepEqual([...back.t.subarray(3 * j, 3 * j + 3)], [...pose.t.subarray(3 * j, 3 * j + 3)]);
    assert.deepEqual([...back.r.subarray(4 * j, 4 * j + 4)], [...pose.r.subarray(4 * j, 4 * j + 4)]);
  }
  assert.deepEqual([...back.t.subarray(6, 9)], [0, 0, 0]); // unbound: the rest pose
  assert.throws(() => applyPoseToThree(binding, createPose(3)), { name: "AnimgraphError", code: "ERR_SKELETON_MISMATCH" });
});

test("applyRootMotionToObject3D moves along the object's facing and composes the turn", () => {
  const character = new Object3D();
  character.position.set(1, 0, 0);
  character.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), Math.PI / 2); // facing +Z turns to +X
  const turn = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), Math.PI / 2);
  applyRootMotionToObject3D(character, Float32Array.of(0, 0, 2), [turn.x, turn.y, turn.z, turn.w]);
  assert.ok(character.position.distanceTo(new Vector3(3, 0, 0)) < 1e-6, character.position.toArray().join());
  const expected = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), Math.PI);
  assert.ok(Math.abs(Math.abs(character.quaternion.dot(expected)) - 1) < 1e-7);
  // Offsets let a caller pass one packed buffer per frame.
  const packed = Float64Array.of(9, 9, 0, 0, 1, 0, 0, 0, 1);
  applyRootMotionToObject3D(character, packed, packed, 2, 5);
  assert.ok(character.position.distanceTo(new Vector3(3, 0, -1)) < 1e-6, character.position.toArray().join());
});

test("a SkinnedMesh target binds its skeleton's bones", () => {
  const { bones, skeleton } = chain();
  const mesh = new SkinnedMesh();
  mesh.add(bones[0]!);
  mesh.bind(skeleton);
  const ours = createSkeleton({ names: ["hips", "spine", "head"], parents: [-1, 0, 1] });
  const { binding, diagnostics } = bindThreeSkeleton(ours, mesh);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(binding.objects, bones);
});
