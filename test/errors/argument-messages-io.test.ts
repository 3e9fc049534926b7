// Loaders and engine adapters: a wrong argument TYPE is an AnimgraphError (a rejected promise for the
// async loaders), while bad file CONTENT stays what it was — diagnostics naming the file and where.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Object3D } from "three";
import { AnimgraphError, createPose, createSkeleton, loadGltf, loadVrma, parseBvh } from "../../src/index.ts";
import { loadGltfFile, loadRig, normalizeSkinWeights } from "../../src/node.ts";
import { fromThreeGltf, readPoseFromThree, skeletonFromThree, smoothToCubicSpline, threeObjectsOf } from "../../src/three/index.ts";
import { gltfNodeIndexOf, readPoseFromBabylon, skeletonFromBabylon } from "../../src/babylon/index.ts";

function isArgumentError(code: string, message: RegExp): (error: unknown) => boolean {
  return (error: unknown) => {
    assert.ok(error instanceof AnimgraphError, `expected AnimgraphError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  };
}

test("parsers and loaders: argument types throw (or reject), content is diagnostics", async () => {
  assert.throws(() => parseBvh(new Uint8Array(4) as never, "a.bvh"), isArgumentError("ERR_ARGUMENT", /^parseBvh: text must be a string; got a Uint8Array of length 4$/));
  assert.throws(() => parseBvh("HIERARCHY", "a.bvh", { scale: -1 }), isArgumentError("ERR_OUT_OF_RANGE", /parseBvh: options\.scale must be a number in/));
  const bad = parseBvh("HIERARCHY\nROOT Hips\n{", "walk.bvh");
  assert.ok(bad.diagnostics.length > 0 && bad.diagnostics.every((d) => d.file === "walk.bvh" && d.pointer.startsWith("line ")));
  await assert.rejects(loadGltf("model.glb" as never), isArgumentError("ERR_ARGUMENT", /^loadGltf: bytes must be a Uint8Array \(the file's bytes\); got the string "model\.glb"$/));
  await assert.rejects(loadGltf(new Uint8Array(4), null as never), isArgumentError("ERR_ARGUMENT", /loadGltf: options must be an object; got null/));
  await assert.rejects(loadGltf(new Uint8Array(4), { fileName: 3 } as never), isArgumentError("ERR_ARGUMENT", /loadGltf: options\.fileName must be a string/));
  const truncated = await loadGltf(new Uint8Array([0x67, 0x6c, 0x54, 0x46]), { fileName: "robot.glb" });
  assert.ok(truncated.diagnostics.some((d) => d.severity === "error" && d.file === "robot.glb"));
  await assert.rejects(loadVrma(undefined as never), isArgumentError("ERR_ARGUMENT", /^loadVrma: bytes must be a Uint8Array/));
  await assert.rejects(loadGltfFile(42 as never), isArgumentError("ERR_ARGUMENT", /loadGltfFile: source must be a path or a Uint8Array/));
  await assert.rejects(loadGltfFile("", {}), isArgumentError("ERR_ARGUMENT", /loadGltfFile: source must be a non-empty string/));
  const missing = await loadGltfFile("no-such-file.glb");
  assert.equal(missing.diagnostics[0]?.code, "E_FILE_NOT_FOUND");
  await assert.rejects(loadRig(undefined as never), isArgumentError("ERR_ARGUMENT", /^loadRig: path must be a non-empty string; got undefined$/));
  assert.throws(() => normalizeSkinWeights({} as never), isArgumentError("ERR_ARGUMENT", /normalizeSkinWeights: doc must be a glTF-Transform Document/));
});

test("three.js and Babylon adapters name the engine object they expected", async () => {
  await assert.rejects(fromThreeGltf({ scene: new Object3D() } as never), isArgumentError("ERR_ARGUMENT", /^fromThreeGltf: gltf must be GLTFLoader's result; got an object$/));
  assert.throws(() => skeletonFromThree([new Object3D(), {}] as never), isArgumentError("ERR_ARGUMENT", /skeletonFromThree: source\[1\] must be a three Object3D; got an object/));
  assert.throws(() => threeObjectsOf(7 as never), isArgumentError("ERR_ARGUMENT", /threeObjectsOf: target must be a three Skeleton, SkinnedMesh, Object3D or array of Object3Ds/));
  const root = new Object3D();
  root.add(new Object3D());
  assert.equal(threeObjectsOf(root).length, 2);
  const { binding } = skeletonFromThree([root, root.children[0]!]);
  assert.throws(() => readPoseFromThree(createPose(5), binding), isArgumentError("ERR_SKELETON_MISMATCH", /readPoseFromThree: out has 5 joints but the skeleton has 2/));
  assert.throws(() => readPoseFromThree(createPose(2), {} as never), isArgumentError("ERR_ARGUMENT", /readPoseFromThree: binding must be a ThreeBinding/));
  assert.throws(() => smoothToCubicSpline(new Float32Array([0, 1]), [0, 1, 2], 2), isArgumentError("ERR_OUT_OF_RANGE", /smoothToCubicSpline: values must be 2 values per key \(4\)/));
  assert.throws(() => skeletonFromBabylon({ bones: [{}] } as never), isArgumentError("ERR_ARGUMENT", /skeletonFromBabylon: source\.bones\[0\] must be a Babylon Bone/));
  assert.throws(() => readPoseFromBabylon(createPose(3), { skeleton: createSkeleton({ names: ["a"], parents: [-1] }), nodes: [], nodeOfJoint: new Int16Array(1) } as never), isArgumentError("ERR_SKELETON_MISMATCH", /readPoseFromBabylon: out has 3 joints but the skeleton has 1/));
  assert.throws(() => gltfNodeIndexOf(null as never), isArgumentError("ERR_ARGUMENT", /gltfNodeIndexOf: node must be a Babylon Node; got null/));
  assert.equal(gltfNodeIndexOf({ _internalMetadata: { gltf: { pointers: ["/nodes/7"] } } } as never), 7);
});
