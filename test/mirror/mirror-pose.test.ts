import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { createClip, type JointTrack } from "../../src/clip/clip.ts";
import { createClipCursor, sampleClip } from "../../src/clip/index.ts";
import { compileMirrorMap, findMirrorPairs, mirrorClip, mirrorClipWithMap, mirrorPose, type MirrorMap } from "../../src/mirror/index.ts";
import { copyPose, createPose, type Pose } from "../../src/pose/pose.ts";
import { mulberry32 } from "../helpers/seeded-random.ts";
import { modelPositions, randomPose, randomQuat, symmetricRig } from "./symmetric-rig.ts";

const rigArb = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  centre: fc.integer({ min: 1, max: 5 }),
  limbs: fc.integer({ min: 0, max: 4 }),
  depth: fc.integer({ min: 1, max: 4 }),
});

function mapOf(rig: ReturnType<typeof symmetricRig>): MirrorMap {
  const r = compileMirrorMap(rig.skeleton, { reference: "rest" });
  assert.deepEqual(r.diagnostics, []);
  return r.map!;
}

/** |a − b| over all joints, rotations compared up to sign. */
function poseDistance(a: Pose, b: Pose): number {
  let d = 0;
  for (let i = 0; i < a.t.length; i++) d = Math.max(d, Math.abs(a.t[i]! - b.t[i]!), Math.abs(a.s[i]! - b.s[i]!));
  for (let j = 0; j < a.jointCount; j++) {
    const dot = a.r[4 * j]! * b.r[4 * j]! + a.r[4 * j + 1]! * b.r[4 * j + 1]! + a.r[4 * j + 2]! * b.r[4 * j + 2]! + a.r[4 * j + 3]! * b.r[4 * j + 3]!;
    d = Math.max(d, 1 - Math.abs(dot));
  }
  return d;
}

test("property: on a rig symmetric in position, every joint of the mirrored pose sits at the reflection of its partner", () => {
  fc.assert(fc.property(rigArb, fc.integer({ min: 1, max: 1e6 }), ({ seed, centre, limbs, depth }, poseSeed) => {
    const rig = symmetricRig(seed, centre, limbs, depth);
    const map = mapOf(rig);
    assert.deepEqual(Array.from(map.partner), Array.from(rig.partner));
    const pose = randomPose(rig.skeleton, poseSeed);
    const mirrored = mirrorPose(createPose(pose.jointCount), map, pose);
    const p = modelPositions(rig.skeleton, pose);
    const m = modelPositions(rig.skeleton, mirrored);
    for (let k = 0; k < pose.jointCount; k++) {
      const j = rig.partner[k]!;
      const err = Math.hypot(m[3 * k]! + p[3 * j]!, m[3 * k + 1]! - p[3 * j + 1]!, m[3 * k + 2]! - p[3 * j + 2]!);
      assert.ok(err < 1e-4 * (1 + Math.hypot(p[3 * j]!, p[3 * j + 1]!, p[3 * j + 2]!)), `joint ${rig.skeleton.names[k]}: ${err}`);
    }
  }));
});

test("property: mirroring a pose twice gives it back within float rounding, and the rest pose maps to itself", () => {
  fc.assert(fc.property(rigArb, fc.integer({ min: 1, max: 1e6 }), fc.boolean(), ({ seed, centre, limbs, depth }, poseSeed, uniform) => {
    const rig = symmetricRig(seed, centre, limbs, depth);
    const map = mapOf(rig);
    const pose = randomPose(rig.skeleton, poseSeed, 0.5, uniform);
    const twice = mirrorPose(createPose(pose.jointCount), map, mirrorPose(createPose(pose.jointCount), map, pose));
    // Non-uniform scale is exact only where the frames are axis-aligned; the rotations and translations always are.
    if (uniform) assert.ok(poseDistance(pose, twice) < 1e-5, `${poseDistance(pose, twice)}`);
    const restMirror = mirrorPose(createPose(pose.jointCount), map, rig.skeleton.rest);
    assert.ok(poseDistance(restMirror, rig.skeleton.rest) < 1e-5);
    // Rotations stay unit.
    for (let j = 0; j < pose.jointCount; j++) {
      const r = twice.r;
      assert.ok(Math.abs(Math.hypot(r[4 * j]!, r[4 * j + 1]!, r[4 * j + 2]!, r[4 * j + 3]!) - 1) < 1e-5);
    }
  }));
});

test("property: mirrorPose may write in place (out = src) with the same result", () => {
  fc.assert(fc.property(rigArb, fc.integer({ min: 1, max: 1e6 }), ({ seed, centre, limbs, depth }, poseSeed) => {
    const rig = symmetricRig(seed, centre, limbs, depth);
    const map = mapOf(rig);
    const pose = randomPose(rig.skeleton, poseSeed);
    const apart = mirrorPose(createPose(pose.jointCount), map, pose);
    const inPlace = mirrorPose(pose, map, pose);
    assert.deepEqual(inPlace, apart);
  }));
});

test("property: a mirrored clip samples to the mirrored pose, at any time, for LINEAR, STEP and CUBICSPLINE keys", () => {
  fc.assert(fc.property(rigArb, fc.integer({ min: 1, max: 1e6 }), fc.constantFrom("LINEAR", "STEP", "CUBICSPLINE") , fc.double({ min: 0, max: 1, noNaN: true }),
    ({ seed, centre, limbs, depth }, clipSeed, interpolation, u) => {
      const rig = symmetricRig(seed, centre, limbs, depth);
      const map = mapOf(rig);
      const rand = mulberry32(clipSeed);
      const times = Float32Array.of(0, 0.3, 0.7, 1.1);
      const tracks: JointTrack[] = [];
      for (let j = 0; j < rig.skeleton.jointCount; j++) {
        if (rand() < 0.3) continue; // some joints keep their rest pose
        const perKey = interpolation === "CUBICSPLINE" ? 3 : 1;
        const r = new Float32Array(4 * perKey * times.length);
        const t = new Float32Array(3 * perKey * times.length);
        for (let k = 0; k < perKey * times.length; k++) {
          randomQuat(rand, r, 4 * k);
          for (let c = 0; c < 3; c++) t[3 * k + c] = rig.skeleton.rest.t[3 * j + c]! + rand() - 0.5;
        }
        tracks.push({ joint: j, path: "rotation", interpolation, stride: 4, times, values: r });
        if (rand() < 0.5) tracks.push({ joint: j, path: "translation", interpolation, stride: 3, times, values: t });
      }
      const clip = createClip({ name: "random", skeleton: rig.skeleton, tracks });
      const mirrored = mirrorClipWithMap(clip, map);
      const time = u * 1.1;
      const src = createPose(rig.skeleton.jointCount);
      sampleClip(src, clip, time, createClipCursor(clip));
      const expected = mirrorPose(createPose(src.jointCount), map, src);
      const got = createPose(src.jointCount);
      sampleClip(got, mirrored, time, createClipCursor(mirrored));
      // CUBICSPLINE rotations are normalised after the Hermite step, which commutes with the linear map.
      assert.ok(poseDistance(got, expected) < 2e-5, `${poseDistance(got, expected)}`);
      // mirror(mirror(clip)) = clip, sampled.
      const back = mirrorClip(mirrored, rig.skeleton, { reference: "rest" });
      const again = createPose(src.jointCount);
      sampleClip(again, back, time, createClipCursor(back));
      assert.ok(poseDistance(again, src) < 2e-5, `${poseDistance(again, src)}`);
    }));
});

test("mirrorClip keeps key times, duration, loop mode and name (or takes a new name)", () => {
  const rig = symmetricRig(7, 3, 2, 3);
  const times = Float32Array.of(0, 0.5, 2);
  const values = new Float32Array(12);
  for (let k = 0; k < 3; k++) randomQuat(mulberry32(k + 1), values, 4 * k);
  const clip = createClip({ name: "Wave", skeleton: rig.skeleton, tracks: [{ joint: 3, path: "rotation", interpolation: "LINEAR", stride: 4, times, values }], loopMode: "pingpong", duration: 2.5 });
  const m = mirrorClip(clip, rig.skeleton, { reference: "rest", name: "Wave (mirrored)" });
  assert.equal(m.name, "Wave (mirrored)");
  assert.equal(m.duration, 2.5);
  assert.equal(m.loopMode, "pingpong");
  const moved = m.tracks.find((t) => t.path === "rotation" && t.times.length === 3)!;
  assert.equal(moved.joint, rig.partner[3]);
  assert.equal(moved.times, times);
  assert.equal(mirrorClip(clip, rig.skeleton, { reference: "rest" }).name, "Wave");
});

test("mirrorClip throws, listing every problem, when the joints cannot be paired", () => {
  const rig = symmetricRig(3, 2, 1, 1);
  const clip = createClip({ name: "c", skeleton: rig.skeleton, tracks: [] });
  assert.throws(() => mirrorClip(clip, rig.skeleton, { pairs: [["Ghost", "Root"]] }), { name: "AnimgraphError", code: "ERR_INVALID_VALUE", message: /no joint "Ghost"/ });
  const other = symmetricRig(4, 3, 1, 1);
  assert.throws(() => mirrorClip(clip, other.skeleton), { name: "AnimgraphError", code: "ERR_SKELETON_MISMATCH", message: /does not match/ });
});

test("wrong-typed arguments throw AnimgraphError naming the argument, never a raw TypeError", () => {
  const rig = symmetricRig(3, 2, 1, 1);
  const map = mapOf(rig);
  const clip = createClip({ name: "c", skeleton: rig.skeleton, tracks: [] });
  const pose = createPose(rig.skeleton.jointCount);
  const cases: [() => unknown, string, string][] = [
    [() => mirrorPose(pose, {} as MirrorMap, pose), "ERR_ARGUMENT", "map"],
    [() => mirrorPose(createPose(1), map, pose), "ERR_SKELETON_MISMATCH", "out"],
    [() => mirrorPose(pose, map, null as unknown as Pose), "ERR_ARGUMENT", "src"],
    [() => mirrorClip(null as unknown as typeof clip, rig.skeleton), "ERR_ARGUMENT", "clip"],
    [() => mirrorClip(clip, rig.skeleton, { axis: "w" as "x" }), "ERR_ARGUMENT", "options.axis"],
    [() => mirrorClip(clip, rig.skeleton, { pairs: [["a"]] as unknown as [string, string][] }), "ERR_ARGUMENT", "options.pairs[0]"],
    [() => mirrorClip(clip, rig.skeleton, { reference: createPose(1) }), "ERR_SKELETON_MISMATCH", "options.reference"],
    [() => mirrorClipWithMap(clip, map, 3 as unknown as string), "ERR_ARGUMENT", "name"],
    [() => compileMirrorMap({} as typeof rig.skeleton), "ERR_ARGUMENT", "skeleton"],
    [() => findMirrorPairs([1] as unknown as string[], undefined), "ERR_ARGUMENT", "names[0]"],
    [() => findMirrorPairs(["a", "b"], [0]), "ERR_OUT_OF_RANGE", "parents"],
  ];
  for (const [call, code, argument] of cases) assert.throws(call, { name: "AnimgraphError", code, argument }, argument);
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

test("mirrorPose allocates nothing: the heap stays flat over 50,000 mirrored poses", () => {
  const rig = symmetricRig(11, 5, 4, 4);
  const map = mapOf(rig);
  const pose = randomPose(rig.skeleton, 5);
  const out = createPose(pose.jointCount);
  const run = (n: number): void => {
    for (let i = 0; i < n; i++) {
      mirrorPose(out, map, pose);
      copyPose(pose, out);
    }
  };
  run(5000);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  run(50_000);
  gc();
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  assert.ok(growth < 64 * 1024, `heap grew by ${growth} bytes`);
});
