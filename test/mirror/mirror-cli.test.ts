// `animgraph mirror` end to end: the written GLB and BVH files are read back and measured.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli as run } from "../helpers/run-cli.ts";
import type { Clip } from "../../src/clip/clip.ts";
import { createClipCursor, sampleClip } from "../../src/clip/index.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { mirrorClip } from "../../src/mirror/mirror-clip.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { quatTwistAngle } from "../../src/math/quat.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS && "no shared assets";
const ROBOT = sharedAsset("robot-expressive/RobotExpressive.glb");
const FOX = sharedAsset("fox/Fox.glb");
const WALK = sharedAsset("bvh-cmu-131/131_03.bvh");
const PIROUETTE = sharedAsset("bvh-cmu-pirouette/pirouette.bvh");

interface ValidatorReport {
  issues: { numErrors: number; messages: { code: string; severity: number; pointer?: string }[] };
}
// gltf-validator ships no type declarations: import it through a plain string and type what is used.
const VALIDATOR: string = "gltf-validator";
const { validateBytes } = (await import(VALIDATOR)) as { validateBytes(bytes: Uint8Array, options: { maxIssues: number }): Promise<ValidatorReport> };

const dir = mkdtempSync(join(tmpdir(), "animgraph-mirror-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Largest difference of two clips sampled at n + 1 times: translations relative, rotations as an angle (radians). */
function clipDistance(a: Clip, b: Clip, n = 60): number {
  const J = a.skeleton.jointCount;
  const pa = createPose(J), pb = createPose(J);
  let d = 0;
  for (let i = 0; i <= n; i++) {
    const t = (a.duration * i) / n;
    sampleClip(pa, a, t, createClipCursor(a));
    sampleClip(pb, b, t, createClipCursor(b));
    for (let k = 0; k < 3 * J; k++) d = Math.max(d, Math.abs(pa.t[k]! - pb.t[k]!) / (1 + Math.abs(pa.t[k]!)), Math.abs(pa.s[k]! - pb.s[k]!));
    for (let j = 0; j < J; j++) {
      let dot = 0, na = 0, nb = 0;
      for (let c = 0; c < 4; c++) {
        dot += pa.r[4 * j + c]! * pb.r[4 * j + c]!;
        na += pa.r[4 * j + c]! ** 2;
        nb += pb.r[4 * j + c]! ** 2;
      }
      d = Math.max(d, 2 * Math.acos(Math.min(1, Math.abs(dot) / Math.sqrt(na * nb))));
    }
  }
  return d;
}

/**
 * Over a clip and its mirror as written, the largest world-space distance between the mirrored clip's
 * `left` joint and the reflection (x → −x in the skeleton's model space) of the source's `right`,
 * as a fraction of the leg length (`hip` to `left` at rest).
 */
function followError(src: Clip, mirrored: Clip, left: string, right: string, hip: string, root?: Float32Array): number {
  const sk = src.skeleton;
  const L = sk.indexOf.get(left)!, R = sk.indexOf.get(right)!, H = sk.indexOf.get(hip)!;
  const J = sk.jointCount;
  const a = createPose(J), b = createPose(J);
  const ma = new Float32Array(16 * J), mb = new Float32Array(16 * J);
  const world = (m: Float32Array, j: number, flip: number): number[] => {
    const x = flip * m[16 * j + 12]!, y = m[16 * j + 13]!, z = m[16 * j + 14]!;
    if (!root) return [x, y, z];
    return [0, 1, 2].map((r) => root[r]! * x + root[4 + r]! * y + root[8 + r]! * z + root[12 + r]!);
  };
  let worst = 0;
  for (let i = 0; i <= 60; i++) {
    const t = (src.duration * i) / 60;
    sampleClip(a, src, t, createClipCursor(src));
    sampleClip(b, mirrored, t, createClipCursor(mirrored));
    localToModel(ma, sk, a);
    localToModel(mb, mirrored.skeleton, b);
    const want = world(ma, R, -1), got = world(mb, L, 1);
    worst = Math.max(worst, Math.hypot(want[0]! - got[0]!, want[1]! - got[1]!, want[2]! - got[2]!));
  }
  localToModel(ma, sk, sk.rest);
  const hipW = world(ma, H, 1), footW = world(ma, L, 1);
  return worst / Math.hypot(hipW[0]! - footW[0]!, hipW[1]! - footW[1]!, hipW[2]! - footW[2]!);
}

test("mirror on the robot writes a valid GLB whose Walking puts the left foot on the source's right foot, reflected", { skip }, async () => {
  const out = join(dir, "robot-mirrored.glb");
  const r = await run(["mirror", ROBOT, "--out", out]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /mirrored 14 clips .* across x = 0, relative to the bind pose/);
  assert.match(r.out, /18 pairs: Foot\.L ↔ Foot\.R/);
  // The validator finds nothing the source does not have (RobotExpressive's own skin weights do not sum to 1).
  const errors = async (file: string) => (await validateBytes(new Uint8Array(readFileSync(file)), { maxIssues: 0 })).issues.messages
    .filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ""}`);
  const before = new Set(await errors(ROBOT));
  assert.deepEqual((await errors(out)).filter((e) => !before.has(e)), []);
  const source = await loadGltfFile(ROBOT);
  const written = await loadGltfFile(out);
  assert.deepEqual(written.clips.map((c) => c.name), source.clips.map((c) => c.name));
  const walk = source.clips.find((c) => c.name === "Walking")!;
  const mirroredWalk = written.clips.find((c) => c.name === "Walking")!;
  const err = followError(walk, mirroredWalk, "Foot.L", "Foot.R", "UpperLeg.L", source.rootTransforms[0]);
  assert.ok(err < 0.006, `the mirrored left foot is ${(100 * err).toFixed(3)} % of leg length off the reflected right foot`);
  // The check measures something: the left foot's own path is far from the reflected right foot's.
  assert.ok(followError(walk, walk, "Foot.L", "Foot.R", "UpperLeg.L", source.rootTransforms[0]) > 20 * err);
  // Mirroring the written file again gives the robot's clips back.
  const twice = join(dir, "robot-twice.glb");
  assert.equal((await run(["mirror", out, "--out", twice])).code, 0);
  const back = await loadGltfFile(twice);
  for (const clip of source.clips) {
    const d = clipDistance(clip, back.clips.find((c) => c.name === clip.name)!);
    assert.ok(d < 2e-5, `${clip.name}: ${d}`);
  }
});

test("mirror --clip mirrors one clip of the Fox and leaves the others as they were; --json reports it", { skip }, async () => {
  const out = join(dir, "fox-walk.glb");
  const r = await run(["mirror", FOX, "--out", out, "--clip", "Walk", "--json"]);
  assert.equal(r.code, 0, r.err);
  const json = JSON.parse(r.out) as { axis: string; reference: string; pairs: [string, string][]; onPlane: string[]; clips: { name: string }[] };
  assert.equal(json.axis, "x");
  assert.equal(json.reference, "bind");
  assert.equal(json.pairs.length, 7);
  assert.ok(json.onPlane.includes("b_Tail02_013"));
  assert.deepEqual(json.clips.map((c) => c.name), ["Walk"]);
  const source = await loadGltfFile(FOX);
  const written = await loadGltfFile(out);
  const pick = (clips: readonly Clip[], n: string) => clips.find((c) => c.name === n)!;
  assert.equal(clipDistance(pick(source.clips, "Survey"), pick(written.clips, "Survey")), 0);
  assert.equal(clipDistance(pick(source.clips, "Run"), pick(written.clips, "Run")), 0);
  const err = followError(pick(source.clips, "Walk"), pick(written.clips, "Walk"), "b_LeftFoot02_018", "b_RightFoot02_022", "b_LeftLeg01_015", source.rootTransforms[0]);
  assert.ok(err < 0.001, `${err}`);
});

test("mirror on CMU BVH writes the same hierarchy with a reflected walk, and twice gives the take back", { skip }, () => {
  const out = join(dir, "walk-mirrored.bvh");
  return (async () => {
    const r = await run(["mirror", WALK, "--out", out]);
    assert.equal(r.code, 0, r.err);
    const src = loadBvh(WALK);
    const got = loadBvh(out);
    assert.deepEqual(got.diagnostics, []);
    assert.deepEqual(got.bvh!.joints.map((j) => [j.name, j.offset, j.channels]), src.bvh!.joints.map((j) => [j.name, j.offset, j.channels]));
    assert.equal(got.bvh!.frameCount, src.bvh!.frameCount);
    assert.equal(got.bvh!.endSites.length, src.bvh!.endSites.length);
    // The walk travels; its mirror travels the same way with x reflected.
    const hips = (b: typeof src, f: number) => [0, 1, 2].map((c) => b.bvh!.motion[f * b.bvh!.channelCount + c]!);
    const last = src.bvh!.frameCount - 1;
    const travel = [0, 1, 2].map((c) => hips(src, last)[c]! - hips(src, 0)[c]!);
    const mirroredTravel = [0, 1, 2].map((c) => hips(got, last)[c]! - hips(got, 0)[c]!);
    assert.ok(Math.hypot(...travel) > 10);
    assert.ok(Math.abs(mirroredTravel[0]! + travel[0]!) < 1e-4 && Math.abs(mirroredTravel[2]! - travel[2]!) < 1e-4, `${travel} vs ${mirroredTravel}`);
    // The left toe follows the right toe's reflection, within what the calibrated skeleton's own
    // left/right offset differences allow (2.5 % of the leg, see mirror-assets.test.ts).
    assert.ok(followError(src.clip!, got.clip!, "LeftToe", "RightToe", "LeftHip") < 0.03);
    const twice = join(dir, "walk-twice.bvh");
    assert.equal((await run(["mirror", out, "--out", twice])).code, 0);
    const back = loadBvh(twice);
    const d = clipDistance(src.clip!, back.clip!);
    // Six decimals of degrees in the file: 1e-6° ≈ 2e-8 rad per value, summed over three angles.
    assert.ok(d < 1e-5, `${d}`);
  })();
});

test("the mirrored pirouette spins the other way, as continuously as the source (no Euler wrap jumps in the written angles)", { skip }, async () => {
  const out = join(dir, "pirouette-mirrored.bvh");
  const r = await run(["mirror", PIROUETTE, "--out", out]);
  assert.equal(r.code, 0, r.err);
  const src = loadBvh(PIROUETTE), got = loadBvh(out);
  const hip = src.skeleton!.indexOf.get("hip")!;
  const pa = createPose(src.skeleton!.jointCount), pb = createPose(src.skeleton!.jointCount);
  for (let i = 0; i <= 50; i++) {
    const t = (src.clip!.duration * i) / 50;
    sampleClip(pa, src.clip!, t, createClipCursor(src.clip!));
    sampleClip(pb, got.clip!, t, createClipCursor(got.clip!));
    const a = quatTwistAngle(pa.r, 4 * hip, 0, 1, 0), b = quatTwistAngle(pb.r, 4 * hip, 0, 1, 0);
    assert.ok(Math.abs(a + b) < 1e-4 || Math.abs(Math.abs(a + b) - 2 * Math.PI) < 1e-4, `sample ${i}: ${a} vs ${b}`);
  }
  // No Euler wrap jumps: the largest frame-to-frame step of any written angle is the source's (the
  // take's first frame is a pose of its own, so steps count from frame 2).
  const largestStep = (bvh: NonNullable<typeof src.bvh>): number => {
    let jump = 0;
    for (const j of bvh.joints) {
      j.channels.forEach((c, k) => {
        if (!c.endsWith("rotation")) return;
        for (let f = 2; f < bvh.frameCount; f++) {
          jump = Math.max(jump, Math.abs(bvh.motion[f * bvh.channelCount + j.firstChannel + k]! - bvh.motion[(f - 1) * bvh.channelCount + j.firstChannel + k]!));
        }
      });
    }
    return jump;
  };
  assert.ok(largestStep(got.bvh!) <= largestStep(src.bvh!) + 1, `largest step ${largestStep(got.bvh!)}° vs the source's ${largestStep(src.bvh!)}°`);
});

test("a pairs file overrides the names; its mistakes are reported at their JSON pointer and nothing is written", { skip }, async () => {
  const pairs = join(dir, "pairs.json");
  writeFileSync(pairs, JSON.stringify({ pairs: [["leftEye", "leftEye"], ["rightEye", "rightEye"]] }));
  const ok = await run(["mirror", PIROUETTE, "--out", join(dir, "eyes.bvh"), "--pairs", pairs, "--json"]);
  assert.equal(ok.code, 0, ok.err);
  const json = JSON.parse(ok.out) as { pairs: unknown[]; onPlane: string[] };
  assert.equal(json.pairs.length, 18);
  assert.ok(json.onPlane.includes("leftEye") && json.onPlane.includes("rightEye"));

  const cases: [unknown, RegExp][] = [
    [{ pairs: [["leftEye"]] }, /pairs\.json: \/pairs\/0: a pair names exactly two joints .* \[E_MIRROR_PAIR_ARITY\]/],
    [{ pairs: [["Ghost", "hip"]] }, /pairs\.json: \/pairs\/0\/0: the skeleton has no joint "Ghost" \[E_MIRROR_UNKNOWN_JOINT\]/],
    [{ axis: "w" }, /pairs\.json: \/axis: axis must be "x", "y" or "z", found "w" \[E_MIRROR_AXIS\]/],
    [{ pairs: [["lFoot", "lFoot"]] }, /pirouette\.bvh: joint "rFoot" would pair with "lFoot", which the given pairs pair with "lFoot".* \[E_MIRROR_UNPAIRED\]/],
  ];
  for (const [content, message] of cases) {
    writeFileSync(pairs, JSON.stringify(content));
    const out = join(dir, "never.bvh");
    const r = await run(["mirror", PIROUETTE, "--out", out, "--pairs", pairs]);
    assert.equal(r.code, 2, JSON.stringify(content));
    assert.match(r.err, message);
    assert.equal(existsSync(out), false);
  }
});

// Review of issue 18 (held-out): a pairs file may be the bare list; a joint it names that the skeleton
// lacks, or a joint paired twice, was reported at /pairs/0/1 and /pairs/1, pointers into a file with no "pairs".
test("a pairs file that is the bare list [[left, right]…] has its mistakes reported at that list's pointers", { skip }, async () => {
  const pairs = join(dir, "bare-pairs.json");
  const cases: [unknown, RegExp][] = [
    [[["Foot.L", "Nope"]], /bare-pairs\.json: \/0\/1: the skeleton has no joint "Nope" \[E_MIRROR_UNKNOWN_JOINT\]/],
    [[["Foot.L", "Foot.R"], ["Foot.L", "Hips"]], /bare-pairs\.json: \/1: joint "Foot\.L" is already paired by pair 0 \[E_MIRROR_PAIR_TWICE\]/],
    [{ pairs: [["Foot.L", "Nope"]] }, /bare-pairs\.json: \/pairs\/0\/1: the skeleton has no joint "Nope" \[E_MIRROR_UNKNOWN_JOINT\]/],
  ];
  for (const [content, message] of cases) {
    writeFileSync(pairs, JSON.stringify(content));
    const out = join(dir, "never.glb");
    const r = await run(["mirror", ROBOT, "--clip", "Walking", "--out", out, "--pairs", pairs]);
    assert.equal(r.code, 2, JSON.stringify(content));
    assert.match(r.err, message);
    if (Array.isArray(content)) assert.doesNotMatch(r.err, /bare-pairs\.json: \/pairs/);
    assert.equal(existsSync(out), false);
  }
  // The bare list that is right mirrors as the object form does.
  writeFileSync(pairs, JSON.stringify([["Foot.L", "Foot.R"]]));
  const ok = await run(["mirror", ROBOT, "--clip", "Walking", "--out", join(dir, "bare.glb"), "--pairs", pairs, "--json"]);
  assert.equal(ok.code, 0, ok.err);
  assert.ok((JSON.parse(ok.out) as { pairs: string[][] }).pairs.some(([a, b]) => a === "Foot.L" && b === "Foot.R"));
});

// Review of issue 18 (held-out): a second --clip replaced the first (Walking, then Idle: only Idle was
// mirrored, exit 0); each --clip now adds its clip, and every name the file lacks is reported.
test("--clip repeated mirrors every clip it names and leaves the others as they were; unknown names are each an error", { skip }, async () => {
  const out = join(dir, "two-clips.glb");
  const r = await run(["mirror", ROBOT, "--clip", "Walking", "--clip", "Idle", "--out", out, "--json"]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual((JSON.parse(r.out) as { clips: { name: string }[] }).clips.map((c) => c.name).sort(), ["Idle", "Walking"]);
  const [src, got] = await Promise.all([loadGltfFile(ROBOT), loadGltfFile(readFileSync(out))]);
  const skeleton = src.skeletons[0]!;
  const clipOf = (g: typeof src, name: string): Clip => g.clips.find((c) => c.name === name && c.skeleton === g.skeletons[0])!;
  // Largest |rotation component| difference (up to sign) between two clips sampled at 21 times.
  const differ = (a: Clip, b: Clip): number => {
    const pa = createPose(skeleton.jointCount), pb = createPose(skeleton.jointCount);
    let d = 0;
    for (let i = 0; i <= 20; i++) {
      const t = (a.duration * i) / 20;
      sampleClip(pa, a, t, createClipCursor(a));
      sampleClip(pb, b, t, createClipCursor(b));
      for (let k = 0; k < pa.r.length; k++) d = Math.max(d, Math.abs(Math.abs(pa.r[k]!) - Math.abs(pb.r[k]!)));
    }
    return d;
  };
  for (const name of ["Walking", "Idle"]) {
    const mirrored = mirrorClip(clipOf(src, name), skeleton);
    assert.ok(differ(clipOf(got, name), mirrored) <= 1e-6, `${name} is mirrored`);
    assert.ok(differ(clipOf(got, name), clipOf(src, name)) > 0.1, `${name} changed`);
  }
  for (const name of ["Running", "Wave"]) assert.ok(differ(clipOf(got, name), clipOf(src, name)) <= 1e-6, `${name} is left as it was`);

  const never = join(dir, "never-clips.glb");
  const bad = await run(["mirror", ROBOT, "--clip", "Walking", "--clip", "Nope", "--clip", "Nah", "--out", never]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /RobotExpressive\.glb: no clip named "Nope" \(clips: Dance, .*\) \[E_MIRROR_NO_CLIP\]/);
  assert.match(bad.err, /no clip named "Nah"/);
  assert.equal(existsSync(never), false);
});

test("unusable input: unpaired names, a BVH whose channels cannot hold the mirror, a missing clip, bad options, the input as output", { skip }, async () => {
  const bvh = (right: string) => [
    "HIERARCHY", "ROOT Hips", "{", "\tOFFSET 0 0 0", "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation",
    "\tJOINT LeftArm", "\t{", "\t\tOFFSET 1 0 0", "\t\tCHANNELS 3 Zrotation Xrotation Yrotation", "\t\tEnd Site", "\t\t{", "\t\t\tOFFSET 1 0 0", "\t\t}", "\t}",
    ...(right === "" ? [] : ["\tJOINT RightArm", "\t{", "\t\tOFFSET -1 0 0", `\t\tCHANNELS ${right}`, "\t\tEnd Site", "\t\t{", "\t\t\tOFFSET -1 0 0", "\t\t}", "\t}"]),
    "}", "MOTION", "Frames: 2", "Frame Time: 0.1",
    `0 0 0 0 0 0 10 20 30${right === "" ? "" : right.startsWith("1") ? " 5" : " 1 2 3"}`,
    `0 0 1 0 5 0 15 25 35${right === "" ? "" : right.startsWith("1") ? " 6" : " 1 2 3"}`, "",
  ].join("\n");
  const lonely = join(dir, "lonely.bvh");
  writeFileSync(lonely, bvh(""));
  const r1 = await run(["mirror", lonely, "--out", join(dir, "a.bvh")]);
  assert.equal(r1.code, 2);
  assert.match(r1.err, /lonely\.bvh: joint "LeftArm" is on the left side but the skeleton has no "RightArm".* \[E_MIRROR_UNPAIRED\]/);
  const narrow = join(dir, "narrow.bvh");
  writeFileSync(narrow, bvh("1 Zrotation"));
  const r2 = await run(["mirror", narrow, "--out", join(dir, "b.bvh")]);
  assert.equal(r2.code, 2);
  assert.match(r2.err, /joint "RightArm" rotates about an axis it has no channel for .* \[E_MIRROR_BVH_CHANNELS\]/);
  assert.equal(existsSync(join(dir, "b.bvh")), false);
  const full = join(dir, "full.bvh");
  writeFileSync(full, bvh("3 Zrotation Xrotation Yrotation"));
  assert.equal((await run(["mirror", full, "--out", join(dir, "c.bvh")])).code, 0);

  const noClip = await run(["mirror", FOX, "--out", join(dir, "d.glb"), "--clip", "Fly"]);
  assert.equal(noClip.code, 2);
  assert.match(noClip.err, /no clip named "Fly" \(clips: Survey, Walk, Run\) \[E_MIRROR_NO_CLIP\]/);
  for (const args of [["--axis", "w"], ["--out", join(dir, "e.bvh")]]) {
    const r = await run(["mirror", FOX, "--out", join(dir, "e.glb"), ...args]);
    assert.equal(r.code, 2, args.join(" "));
    assert.doesNotMatch(r.err, /\n\s+at /, "no stack trace");
  }
  const same = await run(["mirror", full, "--out", full]);
  assert.equal(same.code, 2);
  assert.match(same.err, /\[E_OUT_IS_INPUT\]/);
  const missing = await run(["mirror", join(dir, "nope.glb"), "--out", join(dir, "f.glb")]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /\[E_FILE_NOT_FOUND\]/);
});

test("mirror reads a .vrma and writes a .vrma: humanoid pairs by VRM bone names, the raised right arm becomes the left, the gaze reflected, pixiv's loader reads it", { skip }, async () => {
  const { loadVrmaFile } = await import("../../src/io/vrma/load-vrma-file.ts");
  const { editedVrma, TEST_VRMA } = await import("../io/vrma/vrma-fixtures.ts");
  const out = join(dir, "test-mirrored.vrma");
  const r = await run(["mirror", TEST_VRMA, "--out", out]);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /mirrored 1 clip \(test\) across x = 0/);
  assert.match(r.out, /23 pairs: leftShoulder ↔ rightShoulder, leftUpperArm ↔ rightUpperArm/);
  const source = await loadVrmaFile(TEST_VRMA);
  const written = await loadVrmaFile(out);
  assert.ok(written.ok, JSON.stringify(written.diagnostics));
  assert.deepEqual([...written.humanBones], [...source.humanBones]);
  const [src, mirrored] = [source.clips[0]!, written.clips[0]!];
  // The file animates the right upper arm only: the mirror's left hand follows its right hand, reflected.
  const err = followError(src, mirrored, "leftHand", "rightHand", "leftUpperArm", source.rootTransform);
  assert.ok(err < 1e-5, `${err}`);
  assert.ok(followError(src, src, "leftHand", "rightHand", "leftUpperArm", source.rootTransform) > 0.1);
  // The gaze (a quaternion float track) reflected across x = 0: x kept, y and z negated.
  const look = (c: typeof src) => c.floatTracks.find((t) => t.target === "lookAt")!.values;
  const a = look(src), b = look(mirrored);
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(b[i]! - (i % 4 === 1 || i % 4 === 2 ? -a[i]! : a[i]!)) < 1e-7, `lookAt value ${i}`);
  assert.deepEqual(mirrored.floatTracks.find((t) => t.target === "expression:happy")!.values, src.floatTracks.find((t) => t.target === "expression:happy")!.values);
  // pixiv's own loader (three.js GLTFLoader + VRMAnimationLoaderPlugin) reads the written file, the left arm animated.
  const { GLTFLoader } = await import("three/examples/jsm/loaders/GLTFLoader.js");
  const { VRMAnimationLoaderPlugin } = await import("@pixiv/three-vrm-animation");
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const bytes = readFileSync(out);
  const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, "");
  const vrmAnimations = gltf.userData["vrmAnimations"] as { humanoidTracks: { rotation: Map<string, unknown> } }[];
  assert.deepEqual([...vrmAnimations[0]!.humanoidTracks.rotation.keys()], ["leftUpperArm"]);
  // Mirroring the written file again gives the source back.
  const twice = join(dir, "test-twice.vrma");
  assert.equal((await run(["mirror", out, "--out", twice])).code, 0);
  const back = (await loadVrmaFile(twice)).clips[0]!;
  assert.ok(clipDistance(src, back) < 2e-5);
  for (const t of src.floatTracks) assert.deepEqual(back.floatTracks.find((x) => x.target === t.target)!.values, t.values);

  // Node names that say nothing about sides: the humanoid bones still pair (what the names alone cannot).
  const anonymous = join(dir, "anonymous.vrma");
  writeFileSync(anonymous, editedVrma((json) => json.nodes.forEach((n: { name?: string }, i: number) => void (n.name = `bone${i}`))));
  const anon = await run(["mirror", anonymous, "--out", join(dir, "anonymous-mirrored.vrma"), "--json"]);
  assert.equal(anon.code, 0, anon.out + anon.err);
  assert.deepEqual((JSON.parse(anon.out) as { pairs: string[][] }).pairs.slice(0, 2), [["bone5", "bone24"], ["bone6", "bone25"]]);

  // Sided expressions swap nodes: the file's "happy" renamed blinkLeft, with a blinkRight beside it.
  const sided = join(dir, "blink.vrma");
  writeFileSync(sided, editedVrma((json) => {
    const node = json.nodes.push({ name: "blinkRight" }) - 1;
    json.scenes[0].nodes.push(node);
    json.nodes[51].name = "blinkLeft";
    json.extensions.VRMC_vrm_animation.expressions.preset = { blinkLeft: { node: 51 }, blinkRight: { node } };
  }));
  const blinkOut = join(dir, "blink-mirrored.vrma");
  assert.equal((await run(["mirror", sided, "--out", blinkOut])).code, 0);
  const blinked = (await loadVrmaFile(blinkOut)).clips[0]!;
  assert.deepEqual(blinked.floatTracks.map((t) => t.target).sort(), ["expression:blinkRight", "lookAt"]);
  const { loadVrma } = await import("../../src/io/vrma/load-vrma.ts");
  const sidedSource = (await loadVrma(new Uint8Array(readFileSync(sided)))).clips[0]!;
  assert.deepEqual(blinked.floatTracks.find((t) => t.target === "expression:blinkRight")!.values, sidedSource.floatTracks.find((t) => t.target === "expression:blinkLeft")!.values);
});

test("mirror refuses a .vrma input with another --out extension, before reading anything", async () => {
  const r = await run(["mirror", "in.vrma", "--out", join(dir, "x.glb")]);
  assert.equal(r.code, 2);
  assert.match(r.err, /--out must be a \.vrma file for a \.vrma input/);
});

// Review of issue 18: CesiumMan's joints have no names; mirror found no pairs and needed --pairs.
test("mirror on CesiumMan without --pairs pairs its joints by the bind pose's symmetry (across y, its left), says so as info, and writes a valid GLB that mirrors back to the source", { skip }, async () => {
  const CESIUM = sharedAsset("cesium-man/CesiumMan.glb");
  const out = join(dir, "cesium-mirrored.glb");
  const r = await run(["mirror", CESIUM, "--out", out, "--json"]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /CesiumMan\.glb: info: no joint name tells its side: 7 pairs found by the bind pose's symmetry across y = 0: .*\[I_MIRROR_PAIRS_BY_SYMMETRY\]/);
  const json = JSON.parse(r.out) as { axis: string; pairs: [string, string][]; asymmetry: number };
  assert.equal(json.axis, "y");
  assert.equal(json.pairs.length, 7);
  assert.ok(json.asymmetry < 0.01, `${json.asymmetry}`);
  // CesiumMan's own skin weights do not sum to 1 (validator errors in the source): the output adds none.
  const errorsOf = async (file: string): Promise<string[]> => (await validateBytes(new Uint8Array(readFileSync(file)), { maxIssues: 10_000 })).issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer}`).sort();
  assert.deepEqual(await errorsOf(out), await errorsOf(CESIUM));
  const back = join(dir, "cesium-back.glb");
  assert.equal((await run(["mirror", out, "--out", back])).code, 0);
  const source = await loadGltfFile(CESIUM), twice = await loadGltfFile(back);
  for (const clip of source.clips) {
    const d = clipDistance(clip, twice.clips.find((c) => c.name === clip.name)!);
    assert.ok(d < 2e-5, `${clip.name}: mirrored twice differs by ${d}`);
  }
  // --axis x is kept as given: no symmetry there, so the warning says which plane would pair the joints.
  const x = await run(["mirror", CESIUM, "--out", join(dir, "cesium-x.glb"), "--axis", "x"]);
  assert.equal(x.code, 1, x.err);
  assert.match(x.err, /give the pairs, or no axis: the pose is symmetric across y = 0 \[W_MIRROR_ASYMMETRIC\]/);
});
