// loadVrma on the real .vrma (MIT, from pixiv/three-vrm): structure, float tracks, and what bad
// extensions get (each problem a diagnostic at its JSON pointer, never a throw).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createClipCursor } from "../../../src/clip/clip-cursor.ts";
import { sampleFloatTracks, floatTrackLength } from "../../../src/clip/sample-clip.ts";
import { loadVrma } from "../../../src/io/vrma/load-vrma.ts";
import { loadVrmaFile } from "../../../src/io/vrma/load-vrma-file.ts";
import { VRM_HUMAN_BONE_NAMES, vrmBoneRole } from "../../../src/io/vrma/vrm-human-bones.ts";
import { loadGltfFile } from "../../../src/io/gltf/load-gltf-file.ts";
import { proposeBoneMap } from "../../../src/retarget/propose-bone-map.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../../helpers/assets.ts";
import { TEST_VRMA, editedVrma, testVrmaBytes, type GltfJson } from "./vrma-fixtures.ts";

const skip = !HAVE_SHARED_ASSETS;
const EXT = "/extensions/VRMC_vrm_animation";
const codes = (r: { diagnostics: readonly { code: string }[] }): string[] => r.diagnostics.map((d) => d.code);
const find = (r: { diagnostics: readonly { code: string; pointer: string }[] }, code: string): { code: string; pointer: string } | undefined => r.diagnostics.find((d) => d.code === code);

test("test.vrma: the humanoid map, declared roles, one clip with its expression and look-at tracks", { skip }, async () => {
  const r = await loadVrmaFile(TEST_VRMA, "test.vrma");
  assert.ok(r.ok, JSON.stringify(r.diagnostics));
  assert.deepEqual(codes(r), ["I_GLTF_NO_SKIN"]);
  const sk = r.skeleton!;
  // 53 nodes: 51 humanoid bones, then the expression and look-at nodes, which are not joints.
  assert.equal(sk.jointCount, 51);
  assert.equal(r.humanBones.size, 51);
  for (const bone of ["hips", "spine", "chest", "neck", "head", "leftUpperLeg", "rightFoot", "leftHand", "rightLittleDistal"] as const) {
    assert.ok(r.humanBones.has(bone), bone);
  }
  assert.equal(sk.names[r.humanBones.get("hips")!], "hips");
  assert.equal(sk.roles!.get("hips"), r.humanBones.get("hips"));
  assert.equal(sk.roles!.get("upperLeg.L"), r.humanBones.get("leftUpperLeg"));
  assert.equal(sk.roles!.get("thumb1.R"), r.humanBones.get("rightThumbMetacarpal"));
  assert.equal(sk.roles!.get("pinky3.L"), r.humanBones.get("leftLittleDistal"));
  assert.deepEqual(r.expressions, [{ name: "happy", preset: true, node: 51 }]);
  assert.deepEqual(r.lookAt, { node: 52 });

  assert.equal(r.clips.length, 1);
  const clip = r.clips[0]!;
  assert.equal(clip.name, "test");
  assert.equal(clip.duration, 3);
  assert.deepEqual(clip.tracks.map((t) => [sk.names[t.joint], t.path]), [["rightUpperArm", "rotation"]]);
  assert.deepEqual(clip.floatTracks.map((f) => [f.target, f.node, f.count, f.quaternion === true]), [["expression:happy", 51, 1, false], ["lookAt", 52, 4, true]]);
  assert.deepEqual(Array.from(clip.floatTracks[0]!.values), [0, 0, 0, 1, 0, 0, 0]);
});

test("expression weights lerp, the look-at rotation slerps (unit length between keys)", { skip }, async () => {
  const r = await loadVrma(testVrmaBytes());
  const clip = r.clips[0]!;
  const out = new Float32Array(floatTrackLength(clip));
  assert.equal(out.length, 5);
  const cursor = createClipCursor(clip);
  sampleFloatTracks(out, clip, 1.25, cursor);
  assert.ok(Math.abs(out[0]! - 0.5) < 1e-6, `happy at 1.25 s: ${out[0]}`);
  const look = clip.floatTracks[1]!;
  // Between two keys that differ, the sampled gaze stays a unit quaternion.
  for (let i = 0; i + 1 < look.times.length; i++) {
    const t = 0.5 * (look.times[i]! + look.times[i + 1]!);
    sampleFloatTracks(out, clip, t, cursor);
    assert.ok(Math.abs(Math.hypot(out[1]!, out[2]!, out[3]!, out[4]!) - 1) < 1e-6, `|lookAt| at ${t}`);
  }
});

test("roles come from the extension, not node names: renamed nodes map onto RobotExpressive the same way", { skip }, async () => {
  const robot = (await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"))).skeletons[0]!;
  const plain = await loadVrma(testVrmaBytes());
  const renamed = await loadVrma(editedVrma((json: GltfJson) => {
    json.nodes.forEach((n: GltfJson, i: number) => (n.name = `J_Bip_${i}`));
  }));
  assert.ok(renamed.ok);
  const pairs = (sk: typeof robot, map: ReturnType<typeof proposeBoneMap>): string[] => map.entries.map((e) => `${sk.indexOf.get(e.source)}→${e.target}`).sort();
  const a = pairs(plain.skeleton!, proposeBoneMap(plain.skeleton!, robot));
  const b = pairs(renamed.skeleton!, proposeBoneMap(renamed.skeleton!, robot));
  assert.ok(a.length >= 30, `${a.length} pairs`);
  assert.deepEqual(b, a);
});

test("every VRM bone but the jaw has a distinct role", () => {
  const roles = VRM_HUMAN_BONE_NAMES.map(vrmBoneRole);
  assert.deepEqual(VRM_HUMAN_BONE_NAMES.filter((_, i) => roles[i] === undefined), ["jaw"]);
  const defined = roles.filter((x) => x !== undefined);
  assert.equal(new Set(defined).size, defined.length);
});

test("bad extensions: each an error or warning at its JSON pointer", { skip }, async () => {
  const missing = await loadVrma(editedVrma((j) => { delete j.extensions; delete j.extensionsUsed; }), { fileName: "plain.glb" });
  assert.equal(missing.ok, false);
  assert.equal(find(missing, "E_VRMA_MISSING")?.pointer, "/extensions");

  const version = await loadVrma(editedVrma((j) => { j.extensions.VRMC_vrm_animation.specVersion = "2.0"; }));
  assert.equal(version.ok, false);
  assert.equal(find(version, "E_VRMA_SPEC_VERSION")?.pointer, `${EXT}/specVersion`);

  const noVersion = await loadVrma(editedVrma((j) => { delete j.extensions.VRMC_vrm_animation.specVersion; }));
  assert.ok(noVersion.ok);
  assert.ok(codes(noVersion).includes("W_VRMA_SPEC_VERSION"));

  const outOfRange = await loadVrma(editedVrma((j) => { j.extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node = 99; }));
  assert.equal(outOfRange.ok, false);
  assert.equal(find(outOfRange, "E_VRMA_EXTENSION")?.pointer, `${EXT}/humanoid/humanBones/hips/node`);
  assert.equal(outOfRange.skeleton, undefined);

  const twice = await loadVrma(editedVrma((j) => { j.extensions.VRMC_vrm_animation.expressions.preset.happy.node = 0; }));
  assert.equal(twice.ok, false);
  assert.equal(find(twice, "E_VRMA_EXTENSION")?.pointer, `${EXT}/expressions/preset/happy/node`);

  const notObject = await loadVrma(editedVrma((j) => { j.extensions.VRMC_vrm_animation.humanoid.humanBones = [1, 2]; }));
  assert.equal(find(notObject, "E_VRMA_EXTENSION")?.pointer, `${EXT}/humanoid/humanBones`);

  const badOffset = await loadVrma(editedVrma((j) => { j.extensions.VRMC_vrm_animation.lookAt.offsetFromHeadBone = [0, "x", 0]; }));
  assert.equal(find(badOffset, "E_VRMA_EXTENSION")?.pointer, `${EXT}/lookAt/offsetFromHeadBone`);

  const skipped = await loadVrma(editedVrma((j) => {
    const bones = j.extensions.VRMC_vrm_animation.humanoid.humanBones;
    bones.tail = { node: 4 };
    bones.leftEye = { node: 4 };
    delete bones.leftFoot;
    j.extensions.VRMC_vrm_animation.expressions.preset.lookUp = { node: 52 };
  }));
  assert.ok(skipped.ok, JSON.stringify(skipped.diagnostics));
  const ignored = skipped.diagnostics.filter((d) => d.code === "W_VRMA_IGNORED").map((d) => d.pointer).sort();
  assert.deepEqual(ignored, [`${EXT}/expressions/preset/lookUp`, `${EXT}/humanoid/humanBones/leftEye`, `${EXT}/humanoid/humanBones/tail`]);
  assert.match(skipped.diagnostics.find((d) => d.code === "W_VRMA_MISSING_BONE")!.message, /leftFoot/);
  assert.equal(skipped.humanBones.has("leftFoot"), false);
});

test("channels the spec forbids are left out with W_VRMA_IGNORED; the rest of the clip loads", { skip }, async () => {
  const r = await loadVrma(editedVrma((j) => {
    const anim = j.animations[0];
    // The expression's translation sampler (VEC3) reused on a bone other than the hips, and on the look-at node.
    const exprSampler = anim.channels.find((c: GltfJson) => c.target.node === 51).sampler;
    const lookSampler = anim.channels.find((c: GltfJson) => c.target.node === 52).sampler;
    anim.channels.push({ sampler: exprSampler, target: { node: 6, path: "translation" } });
    anim.channels.push({ sampler: exprSampler, target: { node: 52, path: "translation" } });
    anim.channels.push({ sampler: lookSampler, target: { node: 51, path: "rotation" } });
  }));
  assert.ok(r.ok, JSON.stringify(r.diagnostics));
  assert.equal(r.diagnostics.filter((d) => d.code === "W_VRMA_IGNORED" && d.pointer === "/animations/0").length, 3);
  const clip = r.clips[0]!;
  assert.deepEqual(clip.tracks.map((t) => r.skeleton!.names[t.joint]), ["rightUpperArm"]);
  assert.deepEqual(clip.floatTracks.map((f) => f.target), ["expression:happy", "lookAt"]);
});

test("a hips rest at the origin is not the VRM T-pose: W_VRMA_REST_POSE", { skip }, async () => {
  const r = await loadVrma(editedVrma((j) => { j.nodes[0].translation = [0, 0, 0]; }));
  assert.ok(r.ok);
  assert.equal(find(r, "W_VRMA_REST_POSE")?.pointer, "/nodes/0");
});

test("an unreadable file or broken glTF is the glTF loader's diagnostic, never a throw", async () => {
  const gone = await loadVrmaFile("/nonexistent/x.vrma");
  assert.deepEqual([gone.ok, codes(gone)], [false, ["E_FILE_NOT_FOUND"]]);
  const junk = await loadVrma(new Uint8Array([1, 2, 3]), { fileName: "junk.vrma" });
  assert.equal(junk.ok, false);
  assert.ok(junk.diagnostics.every((d) => d.file === "junk.vrma" && d.severity !== "info"));
});

test("property: any JSON value as the extension gives a result or diagnostics under the extension, never a throw", { skip }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
      const r = await loadVrma(editedVrma((j) => { j.extensions.VRMC_vrm_animation = value; }));
      for (const d of r.diagnostics) {
        if (d.code.startsWith("E_VRMA") || d.code.startsWith("W_VRMA")) assert.ok(d.pointer.startsWith("/extensions") || d.pointer.startsWith("/nodes") || d.pointer.startsWith("/animations"), d.pointer);
      }
      if (r.ok) {
        assert.ok(r.skeleton);
        for (const j of r.humanBones.values()) assert.ok(j >= 0 && j < r.skeleton.jointCount);
      }
    }),
    { numRuns: 60 },
  );
});

test("property: a random humanoid subset keeps its declared roles on the joints of its nodes", { skip }, async () => {
  const bones: string[] = [...(await loadVrma(testVrmaBytes())).humanBones.keys()];
  await fc.assert(
    fc.asyncProperty(fc.subarray(bones, { minLength: 1 }), async (subset) => {
      const r = await loadVrma(editedVrma((j) => {
        const all = j.extensions.VRMC_vrm_animation.humanoid.humanBones;
        for (const k of Object.keys(all)) if (!subset.includes(k)) delete all[k];
      }));
      assert.ok(r.ok, JSON.stringify(r.diagnostics));
      assert.deepEqual([...r.humanBones.keys()].sort(), [...subset].sort());
      for (const [bone, joint] of r.humanBones) {
        assert.equal(r.skeleton!.names[joint], bone); // the asset's nodes are named by their bones
        const role = vrmBoneRole(bone);
        if (role !== undefined) assert.equal(r.skeleton!.roles!.get(role), joint);
      }
      assert.equal(r.skeleton!.roles!.size, subset.filter((b) => vrmBoneRole(b as never) !== undefined).length);
    }),
    { numRuns: 40 },
  );
});
