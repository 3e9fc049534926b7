// Mirroring on the real rigs: the pairs each naming convention gives, mirror(mirror(c)) = c on every
// clip, and a mirrored walk's left foot on the source's right foot's reflected path.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Clip } from "../../src/clip/clip.ts";
import { createClipCursor, sampleClip } from "../../src/clip/index.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { loadVrmaFile } from "../../src/io/vrma/load-vrma-file.ts";
import { compileMirrorMap, findMirrorPairs, mirrorClip, mirrorClipWithMap, type MirrorMap } from "../../src/mirror/index.ts";
import { quatTwistAngle } from "../../src/math/quat.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton, type Skeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { skeletonRoles } from "../../src/retarget/classify-by-topology.ts";

const skip = !HAVE_SHARED_ASSETS && "no shared assets";

async function gltfRig(path: string): Promise<{ skeleton: Skeleton; clips: Clip[]; root: Float32Array }> {
  const r = await loadGltfFile(sharedAsset(path));
  const skeleton = r.skeletons[0]!;
  return { skeleton, clips: r.clips.filter((c) => c.skeleton === skeleton), root: r.rootTransforms[0]! };
}

function bvhRig(path: string): { skeleton: Skeleton; clips: Clip[] } {
  const r = loadBvh(sharedAsset(path));
  return { skeleton: r.skeleton!, clips: [r.clip!] };
}

const pairsOf = (map: MirrorMap): string[] => map.pairs.map(([a, b]) => `${a}|${b}`);

test("pairs found on every bundled and shared rig, by each one's naming convention", { skip }, async () => {
  const robot = compileMirrorMap((await gltfRig("robot-expressive/RobotExpressive.glb")).skeleton);
  assert.equal(robot.map!.pairs.length, 18);
  for (const p of ["Foot.L|Foot.R", "PoleTarget.L|PoleTarget.R", "UpperArm.L|UpperArm.R", "Ring2.L|Ring2.R"]) assert.ok(pairsOf(robot.map!).includes(p), p);
  assert.equal(robot.map!.referenceKind, "bind");

  const fox = compileMirrorMap((await gltfRig("fox/Fox.glb")).skeleton);
  // The Fox numbers its nodes per side (b_LeftLeg01_015 / b_RightLeg01_019): paired by name stem.
  assert.deepEqual(pairsOf(fox.map!).sort(), [
    "b_LeftFoot01_017|b_RightFoot01_021", "b_LeftFoot02_018|b_RightFoot02_022", "b_RightForeArm_07|b_LeftForeArm_010",
    "b_RightHand_08|b_LeftHand_011", "b_LeftLeg01_015|b_RightLeg01_019", "b_LeftLeg02_016|b_RightLeg02_020",
    "b_RightUpperArm_06|b_LeftUpperArm_09",
  ].sort());

  const cmu = compileMirrorMap(bvhRig("bvh-cmu-131/131_01.bvh").skeleton);
  assert.equal(cmu.map!.pairs.length, 12);
  for (const p of ["LHipJoint|RHipJoint", "LeftHip|RightHip", "lhand|rhand", "LFingers|RFingers", "LThumb|RThumb", "LeftCollar|RightCollar"]) {
    assert.ok(pairsOf(cmu.map!).includes(p), p);
  }
  assert.equal(cmu.map!.referenceKind, "rest");
  assert.ok(cmu.map!.partner[cmu.map!.skeleton.indexOf.get("lowerback")!] === cmu.map!.skeleton.indexOf.get("lowerback"));

  const pirouette = compileMirrorMap(bvhRig("bvh-cmu-pirouette/pirouette.bvh").skeleton);
  assert.equal(pirouette.map!.pairs.length, 19);
  for (const p of ["leftEye|rightEye", "rCollar|lCollar", "rThigh|lThigh", "rPinky2|lPinky2", "rButtock|lButtock"]) assert.ok(pairsOf(pirouette.map!).includes(p), p);

  const vrma = await loadVrmaFile(sharedAsset("vrma/test.vrma"));
  const vr = compileMirrorMap(vrma.skeleton!);
  assert.equal(vr.map!.pairs.length, 23);
  assert.ok(pairsOf(vr.map!).includes("leftUpperLeg|rightUpperLeg"));

  // CesiumMan's joints are unnamed (#2, #11, …): no name pairs them, so its bind pose's symmetry does. It
  // stands along +Z facing +X, its left at +Y: the plane is y = 0, found because no axis was given.
  const cesiumRig = await gltfRig("cesium-man/CesiumMan.glb");
  const cesium = compileMirrorMap(cesiumRig.skeleton, { file: "CesiumMan.glb" });
  assert.equal(cesium.map!.axis, "y");
  assert.equal(cesium.map!.pairs.length, 7);
  assert.deepEqual(cesium.diagnostics.map((d) => [d.code, d.severity, d.file]), [["I_MIRROR_PAIRS_BY_SYMMETRY", "info", "CesiumMan.glb"]]);
  assert.match(cesium.diagnostics[0]!.message, /^no joint name tells its side: 7 pairs found by the bind pose's symmetry across y = 0: "#\d+" ↔ "#\d+", /);
  const roles = skeletonRoles(cesiumRig.skeleton);
  for (const limb of ["upperLeg", "lowerLeg", "foot", "upperArm", "lowerArm", "hand"]) {
    assert.equal(cesium.map!.partner[roles.get(`${limb}.L`)!], roles.get(`${limb}.R`), limb);
  }
  assert.ok(cesium.map!.asymmetry < 0.01, `${cesium.map!.asymmetry}`);
  // An axis given is kept: across x the pose is not symmetric, so nothing pairs and the warning says so.
  const acrossX = compileMirrorMap(cesiumRig.skeleton, { file: "CesiumMan.glb", axis: "x" });
  assert.equal(acrossX.map!.pairs.length, 0);
  assert.equal(acrossX.diagnostics[0]?.code, "W_MIRROR_ASYMMETRIC");
  assert.match(acrossX.diagnostics[0]!.message, /no joint name tells its side, so give the pairs, or no axis: the pose is symmetric across y = 0/);

  // RiggedSimple: a two-bone column on the plane, nothing to pair, nothing to warn about.
  const simple = compileMirrorMap((await gltfRig("rigged-simple/RiggedSimple.glb")).skeleton);
  assert.equal(simple.map!.pairs.length, 0);
  assert.deepEqual(simple.diagnostics, []);
});

test("a Mixamo rig (mixamorig: names) pairs every limb, finger and eye", () => {
  const names: string[] = [];
  const parents: number[] = [];
  const add = (name: string, parent: string | null): void => {
    names.push(`mixamorig:${name}`);
    parents.push(parent === null ? -1 : names.indexOf(`mixamorig:${parent}`));
  };
  add("Hips", null);
  for (const [n, p] of [["Spine", "Hips"], ["Spine1", "Spine"], ["Spine2", "Spine1"], ["Neck", "Spine2"], ["Head", "Neck"], ["HeadTop_End", "Head"]] as const) add(n, p);
  for (const side of ["Left", "Right"]) {
    add(`${side}Eye`, "Head");
    add(`${side}Shoulder`, "Spine2");
    add(`${side}Arm`, `${side}Shoulder`);
    add(`${side}ForeArm`, `${side}Arm`);
    add(`${side}Hand`, `${side}ForeArm`);
    for (const finger of ["Thumb", "Index", "Middle", "Ring", "Pinky"]) {
      for (let k = 1; k <= 4; k++) add(`${side}Hand${finger}${k}`, k === 1 ? `${side}Hand` : `${side}Hand${finger}${k - 1}`);
    }
    add(`${side}UpLeg`, "Hips");
    add(`${side}Leg`, `${side}UpLeg`);
    add(`${side}Foot`, `${side}Leg`);
    add(`${side}ToeBase`, `${side}Foot`);
    add(`${side}Toe_End`, `${side}ToeBase`);
  }
  const r = findMirrorPairs(names, parents, { file: "mixamo.fbx" });
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.pairs.length, 30);
  for (const [a, b] of r.pairs) assert.equal(a.replace("Left", "Right"), b);
  const skeleton = createSkeleton({ names, parents });
  assert.ok(compileMirrorMap(skeleton).map);
});

/** Largest difference between two clips' sampled local poses (translations relative, rotations as an angle), over `n` + 1 times. */
function clipDistance(a: Clip, b: Clip, n = 40): number {
  const J = a.skeleton.jointCount;
  const pa = createPose(J), pb = createPose(J);
  let d = 0;
  for (let i = 0; i <= n; i++) {
    const t = a.startTime + ((a.duration - a.startTime) * i) / n;
    sampleClip(pa, a, t, createClipCursor(a));
    sampleClip(pb, b, t, createClipCursor(b));
    for (let k = 0; k < 3 * J; k++) {
      const scale = 1 + Math.abs(pa.t[k]!);
      d = Math.max(d, Math.abs(pa.t[k]! - pb.t[k]!) / scale, Math.abs(pa.s[k]! - pb.s[k]!));
    }
    for (let j = 0; j < J; j++) {
      // The angle between the two rotations, radians (each normalised: stored keys are unit to float32 only).
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

test("mirror(mirror(c)) = c within float rounding on every clip of the robot, the Fox, CMU 131 and the pirouette", { skip }, async () => {
  const rigs = [
    await gltfRig("robot-expressive/RobotExpressive.glb"), await gltfRig("fox/Fox.glb"),
    bvhRig("bvh-cmu-131/131_01.bvh"), bvhRig("bvh-cmu-131/131_03.bvh"), bvhRig("bvh-cmu-pirouette/pirouette.bvh"),
  ];
  let clips = 0;
  for (const rig of rigs) {
    const map = compileMirrorMap(rig.skeleton).map!;
    for (const clip of rig.clips) {
      const twice = mirrorClipWithMap(mirrorClipWithMap(clip, map), map);
      const d = clipDistance(clip, twice);
      assert.ok(d < 2e-5, `${clip.name}: ${d}`);
      clips++;
    }
  }
  assert.equal(clips, 14 + 3 + 3);
});

/**
 * World positions of two joints over a clip and its mirror: the largest distance between the mirrored
 * clip's `left` and the reflection of the source's `right` (and the other way round), world space.
 */
function footFollowError(clip: Clip, mirrored: Clip, map: MirrorMap, left: number, right: number, root: Float32Array | undefined): number {
  const sk = clip.skeleton;
  const J = sk.jointCount;
  const a = createPose(J), b = createPose(J);
  const ma = new Float32Array(16 * J), mb = new Float32Array(16 * J), reflected = new Float32Array(16 * J);
  const axis = "xyz".indexOf(map.axis);
  let worst = 0;
  for (let i = 0; i <= 60; i++) {
    const t = (clip.duration * i) / 60;
    sampleClip(a, clip, t, createClipCursor(clip));
    sampleClip(b, mirrored, t, createClipCursor(mirrored));
    localToModel(ma, sk, a);
    localToModel(mb, sk, b, root);
    // The plane is x = 0 in the skeleton's model space: reflect there, then carry to world like the rest.
    for (let e = 0; e < 16 * J; e++) reflected[e] = ma[e]!;
    for (let j = 0; j < J; j++) reflected[16 * j + 12 + axis] = -reflected[16 * j + 12 + axis]!;
    const world = (m: Float32Array, j: number): number[] => {
      const x = m[16 * j + 12]!, y = m[16 * j + 13]!, z = m[16 * j + 14]!;
      if (!root) return [x, y, z];
      return [0, 1, 2].map((r) => root[r]! * x + root[4 + r]! * y + root[8 + r]! * z + root[12 + r]!);
    };
    for (const [src, dst] of [[right, left], [left, right]] as const) {
      const want = world(reflected, src);
      const got = [mb[16 * dst + 12]!, mb[16 * dst + 13]!, mb[16 * dst + 14]!];
      worst = Math.max(worst, Math.hypot(want[0]! - got[0]!, want[1]! - got[1]!, want[2]! - got[2]!));
    }
  }
  return worst;
}

/** The sum of the bone-offset asymmetries from the root to joint `j`: how far the skeleton itself lets a mirrored joint miss. */
function chainAsymmetry(map: MirrorMap, j: number): number {
  let sum = 0;
  for (let k = j; k >= 0; k = map.skeleton.parents[k]!) {
    const p = map.partner[k]!;
    const T = map.translation;
    const ref = map.reference.t;
    let d2 = 0;
    for (let r = 0; r < 3; r++) {
      let v = -ref[3 * k + r]!;
      for (let c = 0; c < 3; c++) v += T[12 * k + 3 * r + c]! * ref[3 * p + c]!;
      d2 += v * v;
    }
    sum += Math.sqrt(d2);
  }
  return sum;
}

test("a mirrored walk's left foot follows the source's right foot, reflected across the mirror plane", { skip }, async () => {
  const cases: { rig: { skeleton: Skeleton; clips: Clip[]; root?: Float32Array }; clip: string; feet: [string, string]; hip: string; bound: number }[] = [
    { rig: await gltfRig("robot-expressive/RobotExpressive.glb"), clip: "Walking", feet: ["Foot.L", "Foot.R"], hip: "UpperLeg.L", bound: 0.006 },
    { rig: await gltfRig("fox/Fox.glb"), clip: "Walk", feet: ["b_LeftFoot02_018", "b_RightFoot02_022"], hip: "b_LeftLeg01_015", bound: 0.001 },
    { rig: bvhRig("bvh-cmu-pirouette/pirouette.bvh"), clip: "pirouette", feet: ["lFoot", "rFoot"], hip: "lThigh", bound: 1e-6 },
    // CMU's calibrated skeleton is itself asymmetric (LeftHip 1.25 vs RightHip −1.18 units across), so a
    // mirrored foot can miss by what the skeleton's own offsets differ: the bound is that, summed up the chain.
    { rig: bvhRig("bvh-cmu-131/131_03.bvh"), clip: "131_03", feet: ["LeftToe", "RightToe"], hip: "LeftHip", bound: 0.03 },
  ];
  for (const c of cases) {
    const { skeleton } = c.rig;
    const clip = c.rig.clips.find((k) => k.name === c.clip)!;
    const map = compileMirrorMap(skeleton).map!;
    const mirrored = mirrorClipWithMap(clip, map);
    const left = skeleton.indexOf.get(c.feet[0])!;
    const right = skeleton.indexOf.get(c.feet[1])!;
    const err = footFollowError(clip, mirrored, map, left, right, c.rig.root);
    // Leg length in the same (world) units.
    const model = new Float32Array(16 * skeleton.jointCount);
    localToModel(model, skeleton, skeleton.rest, c.rig.root);
    const h = skeleton.indexOf.get(c.hip)!;
    const leg = Math.hypot(model[16 * h + 12]! - model[16 * left + 12]!, model[16 * h + 13]! - model[16 * left + 13]!, model[16 * h + 14]! - model[16 * left + 14]!);
    assert.ok(err <= c.bound * leg, `${c.clip}: the mirrored left foot is ${(100 * err / leg).toFixed(3)} % of leg length off the reflected right foot`);
    // …and never further than the skeleton's own asymmetry allows.
    const modelLeg = leg / (c.rig.root ? Math.hypot(c.rig.root[0]!, c.rig.root[1]!, c.rig.root[2]!) : 1);
    const allowed = Math.max(chainAsymmetry(map, left), chainAsymmetry(map, right)) + 1e-5 * modelLeg;
    assert.ok(err / (c.rig.root ? Math.hypot(c.rig.root[0]!, c.rig.root[1]!, c.rig.root[2]!) : 1) <= allowed, `${c.clip}: ${err} > ${allowed}`);
    // The feet actually move, so the check is not vacuous.
    const again = footFollowError(clip, clip, map, left, left, c.rig.root);
    assert.ok(again > 20 * err, `${c.clip}: the foot path does not move away from its reflection (${again} vs ${err})`);
  }
});

test("root motion is mirrored: the CMU walk travels reflected, the pirouette turns the other way", { skip }, () => {
  const walk = bvhRig("bvh-cmu-131/131_03.bvh");
  const hips = walk.skeleton.indexOf.get("Hips")!;
  const clip = walk.clips[0]!;
  const mirrored = mirrorClip(clip, walk.skeleton);
  const src = clip.tracks[clip.trackIndex[3 * hips]!]!;
  const dst = mirrored.tracks[mirrored.trackIndex[3 * hips]!]!;
  const last = src.values.length - 3;
  const travel = [0, 1, 2].map((c) => src.values[last + c]! - src.values[c]!);
  const mirroredTravel = [0, 1, 2].map((c) => dst.values[last + c]! - dst.values[c]!);
  assert.ok(Math.hypot(...travel) > 10, "the walk travels");
  assert.ok(Math.abs(mirroredTravel[0]! + travel[0]!) < 1e-3 && Math.abs(mirroredTravel[1]! - travel[1]!) < 1e-3 && Math.abs(mirroredTravel[2]! - travel[2]!) < 1e-3, `${travel} → ${mirroredTravel}`);

  // The pirouette spins about the vertical (y) axis; its mirror spins the other way by the same angle.
  const spin = bvhRig("bvh-cmu-pirouette/pirouette.bvh");
  const hip = spin.skeleton.indexOf.get("hip")!;
  const spun = mirrorClip(spin.clips[0]!, spin.skeleton);
  const yaw = (c: Clip): number[] => {
    const pose = createPose(spin.skeleton.jointCount);
    const out: number[] = [];
    for (let i = 0; i <= 50; i++) {
      sampleClip(pose, c, (c.duration * i) / 50, createClipCursor(c));
      out.push(quatTwistAngle(pose.r, 4 * hip, 0, 1, 0));
    }
    return out;
  };
  const a = yaw(spin.clips[0]!), b = yaw(spun);
  assert.ok(a.some((v) => Math.abs(v) > 1), "the pirouette turns");
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! + b[i]!) < 1e-4, `sample ${i}: ${a[i]} vs ${b[i]}`);
});

// Review of issue 18: CesiumMan's joints have no names, so `mirror` found no pairs and needed --pairs. Its
// pairs now come from its bind pose's symmetry (I_MIRROR_PAIRS_BY_SYMMETRY).
test("CesiumMan, paired by symmetry: mirror(mirror(c)) = c, and the mirrored walk's left foot follows the source's right foot, reflected", { skip }, async () => {
  const rig = await gltfRig("cesium-man/CesiumMan.glb");
  const map = compileMirrorMap(rig.skeleton).map!;
  const roles = skeletonRoles(rig.skeleton);
  const [left, right, hip] = [roles.get("foot.L")!, roles.get("foot.R")!, roles.get("upperLeg.L")!];
  assert.ok(rig.clips.length > 0);
  const model = new Float32Array(16 * rig.skeleton.jointCount);
  localToModel(model, rig.skeleton, rig.skeleton.rest, rig.root);
  const leg = Math.hypot(model[16 * hip + 12]! - model[16 * left + 12]!, model[16 * hip + 13]! - model[16 * left + 13]!, model[16 * hip + 14]! - model[16 * left + 14]!);
  for (const clip of rig.clips) {
    const mirrored = mirrorClipWithMap(clip, map);
    const twice = mirrorClipWithMap(mirrored, map);
    assert.ok(clipDistance(clip, twice) < 2e-5, `${clip.name}: ${clipDistance(clip, twice)}`);
    const err = footFollowError(clip, mirrored, map, left, right, rig.root);
    const scale = Math.hypot(rig.root[0]!, rig.root[1]!, rig.root[2]!);
    const allowed = Math.max(chainAsymmetry(map, left), chainAsymmetry(map, right)) * scale + 1e-5 * leg;
    // Like CMU's, CesiumMan's bind pose is not exactly symmetric (0.68 % of its size): a mirrored foot may
    // miss by what its own bone offsets differ, summed up the chain (1.9 % of the leg), and no more.
    assert.ok(err <= allowed && err <= 0.02 * leg, `${clip.name}: the mirrored left foot is ${(100 * err / leg).toFixed(3)} % of leg length off the reflected right foot (the skeleton's own asymmetry allows ${(100 * allowed / leg).toFixed(3)} %)`);
    const still = footFollowError(clip, clip, map, left, left, rig.root);
    assert.ok(still > 10 * err, `${clip.name}: the foot path does not move away from its reflection (${still} vs ${err})`);
  }
});
