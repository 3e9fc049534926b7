import { test } from "node:test";
import assert from "node:assert/strict";
import type { Clip } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { loadBvh } from "../../src/io/bvh/index.ts";
import { loadGltf } from "../../src/io/gltf/load-gltf.ts";
import { quatRotateVec3 } from "../../src/math/quat.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { copyPose, createPose } from "../../src/pose/pose.ts";
import { compileBoneMap, proposeBoneMap, retargetClip, type CompiledBoneMap } from "../../src/retarget/index.ts";
import { createSkeleton, type Skeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;

function copySkeleton(sk: Skeleton): Skeleton {
  return createSkeleton({ names: sk.names, parents: sk.parents, rest: copyPose(createPose(sk.jointCount), sk.rest), inverseBind: sk.inverseBind.slice() });
}

/** Model-space joint positions per key time: positions[key][3 * joint + c]. */
function modelPositions(clip: Clip, times: ArrayLike<number>): Float32Array[] {
  const sk = clip.skeleton;
  const pose = createPose(sk.jointCount);
  const cursor = createClipCursor(clip);
  const model = new Float32Array(16 * sk.jointCount);
  const out: Float32Array[] = [];
  for (let i = 0; i < times.length; i++) {
    sampleClip(pose, clip, times[i]!, cursor);
    localToModel(model, sk, pose);
    const p = new Float32Array(3 * sk.jointCount);
    for (let j = 0; j < sk.jointCount; j++) for (let c = 0; c < 3; c++) p[3 * j + c] = model[16 * j + 12 + c]!;
    out.push(p);
  }
  return out;
}

/** Max difference of two clips' sampled local poses at the given times (rotations compared up to sign). */
function maxPoseDifference(a: Clip, b: Clip, times: ArrayLike<number>): number {
  const pa = createPose(a.skeleton.jointCount), pb = createPose(b.skeleton.jointCount);
  const ca = createClipCursor(a), cb = createClipCursor(b);
  let max = 0;
  for (let i = 0; i < times.length; i++) {
    sampleClip(pa, a, times[i]!, ca);
    sampleClip(pb, b, times[i]!, cb);
    for (let k = 0; k < pa.t.length; k++) max = Math.max(max, Math.abs(pa.t[k]! - pb.t[k]!));
    for (let j = 0; j < pa.jointCount; j++) {
      const dot = pa.r[4 * j]! * pb.r[4 * j]! + pa.r[4 * j + 1]! * pb.r[4 * j + 1]! + pa.r[4 * j + 2]! * pb.r[4 * j + 2]! + pa.r[4 * j + 3]! * pb.r[4 * j + 3]!;
      const sign = dot < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) max = Math.max(max, Math.abs(pa.r[4 * j + c]! - sign * pb.r[4 * j + c]!));
    }
  }
  return max;
}

test("retargeting 131_01 onto a copy of its own skeleton reproduces it within 1e-5", { skip }, () => {
  const { skeleton, clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  const copy = copySkeleton(skeleton!);
  const map = proposeBoneMap(skeleton!, copy);
  assert.equal(map.entries.length, 31);
  assert.ok(map.entries.every((e) => e.confidence === 1 && e.source === e.target));
  const out = retargetClip(clip!, skeleton!, copy, map);
  assert.equal(out.skeleton, copy);
  assert.equal(out.tracks[0]!.times.length, 994);
  const rebound = { ...out, skeleton: skeleton! } as Clip;
  assert.ok(maxPoseDifference(clip!, rebound, clip!.tracks[0]!.times) < 1e-5);
});

test("retargeting RobotExpressive's Walking onto a copy of its skeleton reproduces it within 1e-5", { skip }, async () => {
  const robot = await loadGltf(sharedAsset("robot-expressive/RobotExpressive.glb"));
  const sk = robot.skeletons[0]!;
  const walking = robot.clips.find((c) => c.name === "Walking")!;
  const copy = copySkeleton(sk);
  const out = retargetClip(walking, sk, copy, proposeBoneMap(sk, copy));
  const rebound = { ...out, skeleton: sk } as Clip;
  const times = new Float32Array(60).map((_, i) => (walking.duration * i) / 59);
  assert.ok(maxPoseDifference(walking, rebound, times) < 1e-5);
});

interface RobotWalk {
  source: Skeleton;
  target: Skeleton;
  clip: Clip;
  out: Clip;
  compiled: CompiledBoneMap;
  src: Float32Array[];
  dst: Float32Array[];
}

let cached: RobotWalk | undefined;
async function robotWalk(): Promise<RobotWalk> {
  if (cached) return cached;
  const { skeleton, clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  const target = (await loadGltf(sharedAsset("robot-expressive/RobotExpressive.glb"))).skeletons[0]!;
  const { compiled, diagnostics } = compileBoneMap(proposeBoneMap(skeleton!, target), skeleton!, target);
  assert.deepEqual(diagnostics, []);
  const out = retargetClip(clip!, skeleton!, target, compiled!);
  const times = clip!.tracks[0]!.times;
  cached = { source: skeleton!, target, clip: clip!, out, compiled: compiled!, src: modelPositions(clip!, times), dst: modelPositions(out, times) };
  return cached;
}

/** Source model vector mapped into the target's model axes (C · v). */
function toTarget(c: CompiledBoneMap, v: ArrayLike<number>, at: number): number[] {
  const out = new Float64Array(3);
  quatRotateVec3(out, 0, c.frame, 0, v, at);
  return Array.from(out);
}

test("131_01 → RobotExpressive: finite keys, Y-up capture turned into the robot's Z-up armature, unmapped bones at rest", { skip }, async () => {
  const { out, compiled, target } = await robotWalk();
  for (const track of out.tracks) for (const v of track.values) assert.ok(Number.isFinite(v));
  // C takes the capture's up (+Y) to the robot skeleton's up (+Z inside its ×100 armature).
  const up = toTarget(compiled, [0, 1, 0], 0);
  assert.ok(Math.abs(up[2]! - 1) < 1e-9, String(up));
  for (const name of ["Bone", "Body", "PoleTarget.L", "Palm1.L"]) {
    const j = target.indexOf.get(name)!;
    assert.equal(out.trackIndex[3 * j], -1, name);
    assert.equal(out.trackIndex[3 * j + 1], -1, name);
  }
  // Bones point where the capture's do (after C): within 1° where both ends follow the FK chain (rest
  // alignment at work), within 3° for knee → IK foot (the robot's foot is placed at k × the capture's ankle,
  // its knee by the robot's own thigh length, so the two proportions disagree slightly).
  const { src, dst, source } = await robotWalk();
  for (const [a, b, c, d, tol] of [["LeftHip", "LeftKnee", "UpperLeg.L", "LowerLeg.L", 1], ["LeftShoulder", "LeftElbow", "UpperArm.L", "LowerArm.L", 1], ["lowerback", "Chest", "Abdomen", "Torso", 1], ["RightKnee", "RightAnkle", "LowerLeg.R", "Foot.R", 3]] as const) {
    let worst = 0;
    for (let f = 0; f < src.length; f += 7) {
      const s = src[f]!, t = dst[f]!;
      const sa = source.indexOf.get(a)!, sb = source.indexOf.get(b)!, ta = target.indexOf.get(c)!, tb = target.indexOf.get(d)!;
      const vs = toTarget(compiled, [0, 1, 2].map((k) => s[3 * sb + k]! - s[3 * sa + k]!), 0);
      const vt = [0, 1, 2].map((k) => t[3 * tb + k]! - t[3 * ta + k]!);
      const cos = (vs[0]! * vt[0]! + vs[1]! * vt[1]! + vs[2]! * vt[2]!) / Math.hypot(...vs) / Math.hypot(...vt);
      worst = Math.max(worst, (Math.acos(Math.min(1, cos)) * 180) / Math.PI);
    }
    assert.ok(worst < tol, `${c}: ${worst}°`);
  }
});

test("131_01 → RobotExpressive: root height and stride scale by the hip-height ratio; feet keep contact", { skip }, async () => {
  const { src, dst, compiled, source, target } = await robotWalk();
  const k = compiled.rootMotionScale;
  // RobotExpressive's hips stand about 1.3 m high in a 100× armature (0.013 units); CMU 131's about 15.5.
  assert.ok(k > 0.0007 && k < 0.001, String(k));
  const hs = source.indexOf.get("Hips")!, ht = target.indexOf.get("Hips")!;
  for (let f = 0; f < src.length; f += 13) {
    const expected = toTarget(compiled, src[f]!, 3 * hs).map((x) => k * x);
    for (let c = 0; c < 3; c++) assert.ok(Math.abs(dst[f]![3 * ht + c]! - expected[c]!) < 1e-6, `frame ${f}`);
  }
  for (const [sName, tName] of [["LeftAnkle", "Foot.L"], ["RightAnkle", "Foot.R"]] as const) {
    const sj = source.indexOf.get(sName)!, tj = target.indexOf.get(tName)!;
    const hsrc = src.map((p) => p[3 * sj + 1]!); // capture: Y up
    const htgt = dst.map((p) => p[3 * tj + 2]!); // robot skeleton: Z up
    const minS = Math.min(...hsrc), minT = Math.min(...htgt);
    // Contact: within 0.5 capture units (~3% of the hip height) of the lowest point; the target foot must
    // then be within k × 0.5 (+ float32 slack) of its own lowest point.
    const contact = hsrc.map((h) => h - minS < 0.5);
    assert.ok(contact.filter(Boolean).length > 100);
    contact.forEach((c, f) => {
      if (c) assert.ok(htgt[f]! - minT < k * 0.5 + 1e-6, `${tName} frame ${f}: ${htgt[f]! - minT}`);
    });
    // Stride: the horizontal distance between successive contact phases scales by k.
    const plants: number[][] = [];
    let run: number[] = [];
    contact.forEach((c, f) => {
      if (c) run.push(f);
      if ((!c || f === contact.length - 1) && run.length > 0) {
        plants.push(run);
        run = [];
      }
    });
    assert.ok(plants.length >= 3, `${plants.length} plants`);
    const centre = (frames: Float32Array[], j: number, r: number[], axes: number[]): number[] => axes.map((c) => r.reduce((s, f) => s + frames[f]![3 * j + c]!, 0) / r.length);
    for (let i = 1; i < plants.length; i++) {
      const a = centre(src, sj, plants[i - 1]!, [0, 2]), b = centre(src, sj, plants[i]!, [0, 2]);
      const c = centre(dst, tj, plants[i - 1]!, [0, 1]), d = centre(dst, tj, plants[i]!, [0, 1]);
      const strideS = Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!);
      const strideT = Math.hypot(d[0]! - c[0]!, d[1]! - c[1]!);
      if (strideS > 1) assert.ok(Math.abs(strideT / (k * strideS) - 1) < 1e-3, `stride ${i}: ${strideT} vs ${k * strideS}`);
    }
  }
});

test("pirouette → 131 skeleton (BVH to BVH) gives finite keys and the 131 rig's rest where unmapped", { skip }, () => {
  const pir = loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh"));
  const walk = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!;
  const out = retargetClip(pir.clip!, pir.skeleton!, walk, proposeBoneMap(pir.skeleton!, walk), { sampleRate: 30, name: "pirouette-on-131" });
  assert.equal(out.name, "pirouette-on-131");
  assert.equal(out.tracks[0]!.times.length, Math.round(pir.clip!.duration * 30) + 1);
  for (const track of out.tracks) for (const v of track.values) assert.ok(Number.isFinite(v));
  assert.equal(out.trackIndex[3 * walk.indexOf.get("LFingers")! + 1], -1);
});

test("groundFeet puts the robot's feet on its ground where the capture's are lowest, and its hips near its own standing height", { skip }, async () => {
  const { source, target, clip, compiled } = await robotWalk();
  const grounded = retargetClip(clip, source, target, compiled, { groundFeet: true });
  const times = clip.tracks[0]!.times;
  const dst = modelPositions(grounded, times);
  const feet = [target.indexOf.get("Foot.L")!, target.indexOf.get("Foot.R")!];
  const lowest = Math.min(...dst.flatMap((p) => feet.map((j) => p[3 * j + 2]!)));
  // RobotExpressive's foot joints sit near its soles: 3 cm (0.0003 armature units) above its lowest joint.
  assert.ok(compiled.targetFootHeight >= 0 && compiled.targetFootHeight < 0.0005, String(compiled.targetFootHeight));
  assert.ok(Math.abs(lowest - compiled.targetFootHeight) < 1e-6, String(lowest));
  // Without it the feet float by k × the capture's lowest ankle height (CMU's ankle joints are ~9 cm up).
  const { dst: absolute } = await robotWalk();
  const floating = Math.min(...absolute.flatMap((p) => feet.map((j) => p[3 * j + 2]!)));
  assert.ok(floating - lowest > 0.0005, `${floating} vs ${lowest}`);
  // The hips then walk at 0.85–1.1 × the robot's rest hip height (0.0128 armature units = 1.28 m).
  const hips = target.indexOf.get("Hips")!;
  const mean = dst.reduce((s, p) => s + p[3 * hips + 2]!, 0) / dst.length;
  assert.ok(mean > 0.85 * 0.0128 && mean < 1.1 * 0.0128, String(mean));
  // Horizontal motion is unchanged by the vertical offset.
  for (let f = 0; f < dst.length; f += 50) {
    assert.ok(Math.abs(dst[f]![3 * hips]! - absolute[f]![3 * hips]!) < 1e-7);
    assert.ok(Math.abs(dst[f]![3 * hips + 1]! - absolute[f]![3 * hips + 1]!) < 1e-7);
  }
});
