// A random skeleton whose reference (rest) pose is symmetric across x = 0 in position, with arbitrary
// joint frames on each side (as real rigs have: Blender's right-side bones roll the other way), for the
// property tests of mirroring.
import { quatConjugate, quatMultiply, quatNormalize, quatRotateVec3 } from "../../src/math/quat.ts";
import { createPose, type Pose } from "../../src/pose/pose.ts";
import { modelFrames } from "../../src/retarget/model-frames.ts";
import { createSkeleton, type Skeleton } from "../../src/skeleton/skeleton.ts";
import { mulberry32 } from "../helpers/seeded-random.ts";

export interface SymmetricRig {
  readonly skeleton: Skeleton;
  /** Per joint, its mirror joint. */
  readonly partner: Int32Array;
}

/** A random unit quaternion from a seeded generator. */
export function randomQuat(rand: () => number, out: Float32Array | Float64Array, o: number): void {
  for (let k = 0; k < 4; k++) out[o + k] = rand() * 2 - 1;
  if (Math.hypot(out[o]!, out[o + 1]!, out[o + 2]!, out[o + 3]!) < 1e-3) out[o + 3] = 1;
  quatNormalize(out, o, out, o);
}

/**
 * `centre` midline joints in a chain below the root, then `limbs` limbs of `depth` joints hanging from
 * random midline joints, one per side; model positions of right joints are the reflections of the left
 * ones'; every joint's model rotation is random.
 */
export function symmetricRig(seed: number, centre: number, limbs: number, depth: number): SymmetricRig {
  const rand = mulberry32(seed);
  const names: string[] = [];
  const parents: number[] = [];
  const modelP: number[][] = [];
  const side: number[] = [];
  for (let c = 0; c < centre; c++) {
    names.push(c === 0 ? "Root" : `Spine${c}`);
    parents.push(c - 1);
    modelP.push([0, rand() * 2 - 1, rand() * 2 - 1]);
    side.push(0);
  }
  for (let l = 0; l < limbs; l++) {
    const hang = Math.floor(rand() * centre);
    const left: number[][] = [];
    for (let d = 0; d < depth; d++) left.push([0.1 + rand(), rand() * 2 - 1, rand() * 2 - 1]);
    for (const [s, suffix] of [[1, "L"], [-1, "R"]] as const) {
      for (let d = 0; d < depth; d++) {
        names.push(`Limb${l}_${d}.${suffix}`);
        parents.push(d === 0 ? hang : names.length - 2);
        modelP.push([s * left[d]![0]!, left[d]![1]!, left[d]![2]!]);
        side.push(s);
      }
    }
  }
  const J = names.length;
  const q = new Float64Array(4 * J);
  for (let j = 0; j < J; j++) randomQuat(rand, q, 4 * j);
  const rest = createPose(J);
  const inv = new Float64Array(4);
  const d = new Float64Array(3);
  for (let j = 0; j < J; j++) {
    const p = parents[j]!;
    if (p < 0) {
      rest.t.set(modelP[j]!, 3 * j);
      rest.r.set(q.subarray(4 * j, 4 * j + 4), 4 * j);
      continue;
    }
    quatConjugate(inv, 0, q, 4 * p);
    for (let c = 0; c < 3; c++) d[c] = modelP[j]![c]! - modelP[p]![c]!;
    quatRotateVec3(d, 0, inv, 0, d, 0);
    rest.t.set(d, 3 * j);
    quatMultiply(inv, 0, inv, 0, q, 4 * j);
    rest.r.set(inv, 4 * j);
  }
  const skeleton = createSkeleton({ names, parents, rest });
  const partner = new Int32Array(J);
  for (let j = 0; j < J; j++) {
    const n = names[j]!;
    partner[j] = n.endsWith(".L") ? skeleton.indexOf.get(`${n.slice(0, -2)}.R`)! : n.endsWith(".R") ? skeleton.indexOf.get(`${n.slice(0, -2)}.L`)! : j;
  }
  return { skeleton, partner };
}

/** A random pose: every joint rotated at random, translations moved by up to `reach`, scales uniform in [0.5, 2]. */
export function randomPose(skeleton: Skeleton, seed: number, reach = 0.5, uniformScale = true): Pose {
  const rand = mulberry32(seed);
  const pose = createPose(skeleton.jointCount);
  for (let j = 0; j < skeleton.jointCount; j++) {
    randomQuat(rand, pose.r, 4 * j);
    for (let c = 0; c < 3; c++) pose.t[3 * j + c] = skeleton.rest.t[3 * j + c]! + reach * (rand() * 2 - 1);
    const k = 0.5 + 1.5 * rand();
    for (let c = 0; c < 3; c++) pose.s[3 * j + c] = uniformScale ? k : 0.5 + 1.5 * rand();
  }
  return pose;
}

/** Model positions (3 per joint, float64) of a pose. */
export function modelPositions(skeleton: Skeleton, pose: Pose): Float64Array {
  const J = skeleton.jointCount;
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  modelFrames(q, p, s, skeleton, pose);
  return p;
}
