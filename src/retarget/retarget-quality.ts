import type { Clip } from "../clip/clip.ts";
import { createClipCursor } from "../clip/clip-cursor.ts";
import { sampleClipUnchecked } from "../clip/sample-clip.ts";
import { quatRotateVec3 } from "../math/quat.ts";
import { createPose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { skeletonRoles } from "./classify-by-topology.ts";
import { ownBasis, type CompiledBoneMap } from "./compile-bone-map.ts";
import { detectFootContacts, type FootContactOptions } from "./foot-contacts.ts";
import { modelFrames } from "./model-frames.ts";

/** Direction error of one limb against the source, in degrees. */
export interface LimbDirectionError {
  /** thigh.L, shin.R, upperArm.L, forearm.R, spine. */
  readonly limb: string;
  readonly medianDeg: number;
  readonly maxDeg: number;
}

/** How well a retargeted clip keeps the target's shape and the source's motion (docs/retargeting.md). */
export interface RetargetQuality {
  /** Max over keys and bones of |length − reference length| / reference length, in %. */
  readonly boneLengthErrorPercent: number;
  /**
   * The same over the source's mapped bones: a rig that animates translations (a cartoon head that
   * bobs off its neck) stretches its own bones, and the target's scaled copy stretches as much.
   */
  readonly sourceBoneLengthChangePercent: number;
  /** Max over keys of |root–pelvis distance − its reference|, in % of the target's hip height (0 when the root is the pelvis). */
  readonly rootAttachmentPercent: number;
  /**
   * Max depth of a foot joint, its toes or any joint below them (toe ends) under its reference height above
   * the floor, at the result's keys and halfway between them, in % of the target's leg length.
   */
  readonly footPenetrationPercent: number;
  /** Mean horizontal speed of the target's feet while the source's are planted, in target hip heights per second. */
  readonly footSlidingTarget: number;
  /** The same for the source, in source hip heights per second. */
  readonly footSlidingSource: number;
  /** Share of keys with at least one planted foot in the source (0–1). */
  readonly plantedShare: number;
  /** Over all limbs below: the median and the max direction error, in degrees. */
  readonly limbDirectionMedianDeg: number;
  readonly limbDirectionMaxDeg: number;
  /** Per limb (thigh, shin, upper arm, forearm per side, and the spine from pelvis to neck). */
  readonly limbs: readonly LimbDirectionError[];
}

/**
 * Measures a retargeted clip `result` (bound to `map.target`) against the `source` clip it came from, at
 * the result's key times. Ground: the target's model origin along its up axis, where groundFeet puts it;
 * a foot or toe joint penetrates when it is lower than its reference height above the floor.
 * Contacts: `detectFootContacts` on the source's feet (the same thresholds as the retarget). Limb
 * directions: the source's bone directions carried into the target's axes by C, against the target's.
 */
export function measureRetargetQuality(source: Clip, result: Clip, map: CompiledBoneMap, contactOptions?: FootContactOptions): RetargetQuality {
  const S = map.source, T = map.target;
  const times = result.tracks[0]?.times ?? Float32Array.of(result.startTime);
  const n = times.length;
  const srcPos = samplePositions(source, S, times);
  const dstPos = samplePositions(result, T, times);
  const rest = samplePositions(undefined, T, Float32Array.of(0));
  const mid = new Float32Array(Math.max(0, n - 1));
  for (let f = 0; f + 1 < n; f++) mid[f] = 0.5 * (times[f]! + times[f + 1]!);
  const midPos = samplePositions(result, T, mid);
  const dist = (p: Float64Array, o: number, a: number, b: number): number =>
    Math.hypot(p[o + 3 * a]! - p[o + 3 * b]!, p[o + 3 * a + 1]! - p[o + 3 * b + 1]!, p[o + 3 * a + 2]! - p[o + 3 * b + 2]!);
  const JT = T.jointCount, JS = S.jointCount;
  const { legs, sourceLegs, targetGround, rootTarget, targetPelvis, positionDriven, sourceOf } = map;
  // Without a frame (W_RETARGET_NO_FRAME) the map knows no up axis: heights are measured along the target's
  // own (RobotExpressive's skeleton is Z-up inside its armature; along Y its sunk feet read 0 %).
  const up = map.targetHipHeight > 0 ? map.targetUp : ownBasis(T)?.subarray(3, 6) ?? map.targetUp;

  // Bones: each joint and its parent, except placed joints (the root, IK-style feet, whose bone is their
  // lower leg, in a leg the map drives or not).
  const targetRoles = skeletonRoles(T);
  const lowerOf = new Map<number, number>();
  for (const side of ["L", "R"]) {
    const [lower, foot] = [targetRoles.get(`lowerLeg.${side}`), targetRoles.get(`foot.${side}`)];
    if (lower !== undefined && foot !== undefined) lowerOf.set(foot, lower);
  }
  for (let side = 0; side < 2; side++) if (legs[4 * side + 2]! >= 0) lowerOf.set(legs[4 * side + 2]!, legs[4 * side + 1]!);
  const bones: Array<[number, number]> = [];
  for (let t = 0; t < JT; t++) {
    const p = T.parents[t]!;
    if (p < 0 || t === rootTarget) continue;
    const lower = lowerOf.get(t);
    if (lower !== undefined && p !== lower) bones.push([t, lower]);
    else if (!(sourceOf[t]! >= 0 && positionDriven[t])) bones.push([t, p]);
  }
  const hipHeight = map.targetHipHeight > 0 ? map.targetHipHeight : 1;
  let boneLength = 0;
  for (const [a, b] of bones) {
    const l0 = dist(rest, 0, a, b);
    if (!(l0 > 1e-6 * hipHeight)) continue;
    for (let f = 0; f < n; f++) boneLength = Math.max(boneLength, Math.abs(dist(dstPos, 3 * JT * f, a, b) - l0) / l0);
  }
  const restS = samplePositions(undefined, S, Float32Array.of(0));
  let sourceBoneLength = 0;
  for (let t = 0; t < JT; t++) {
    const s0 = sourceOf[t]!, ps = s0 >= 0 ? S.parents[s0]! : -1;
    if (ps < 0 || t === rootTarget) continue;
    const l0 = dist(restS, 0, s0, ps);
    if (!(l0 > 1e-6 * (map.sourceHipHeight > 0 ? map.sourceHipHeight : 1))) continue;
    for (let f = 0; f < n; f++) sourceBoneLength = Math.max(sourceBoneLength, Math.abs(dist(srcPos, 3 * JS * f, s0, ps) - l0) / l0);
  }
  let attachment = 0;
  if (rootTarget >= 0 && targetPelvis >= 0 && rootTarget !== targetPelvis) {
    const d0 = dist(rest, 0, rootTarget, targetPelvis);
    for (let f = 0; f < n; f++) attachment = Math.max(attachment, Math.abs(dist(dstPos, 3 * JT * f, rootTarget, targetPelvis) - d0) / hipHeight);
  }

  // Feet: penetration and sliding. The floor: the model origin, or the lowest joint of the reference pose.
  const along = (p: Float64Array, j: number): number => p[3 * j]! * up[0]! + p[3 * j + 1]! * up[1]! + p[3 * j + 2]! * up[2]!;
  let floor = 0;
  for (let t = 0; t < JT; t++) floor = Math.min(floor, along(rest, t));
  const restHeight = (t: number): number => along(rest, t) - floor;
  let penetration = 0, legLength = 0, slideT = 0, slideS = 0, planted = 0, anyPlanted = 0;
  const plantedAny = new Uint8Array(n);
  const sUp = map.sourceUp;
  for (let side = 0; side < 2; side++) {
    let [upper, lower, foot, toes] = [legs[4 * side]!, legs[4 * side + 1]!, legs[4 * side + 2]!, legs[4 * side + 3]!];
    const mapped = upper >= 0;
    if (!mapped) {
      // A leg the map does not drive whole still stands on the ground in the written file: its feet are
      // measured too (against their rest heights), so the figure cannot read 0 while a foot is far under it.
      const key = side === 0 ? "L" : "R";
      [upper, lower, foot, toes] = ["upperLeg", "lowerLeg", "foot", "toes"].map((r) => targetRoles.get(`${r}.${key}`) ?? -1) as [number, number, number, number];
      if (upper < 0 || lower < 0 || foot < 0) continue;
    }
    legLength = Math.max(legLength, dist(rest, 0, upper, lower) + dist(rest, 0, lower, foot));
    // The foot, its toes and every joint below them (toe ends), against their reference heights above the
    // floor, at the keys and halfway between them (where a player's interpolation could dip).
    const framed = mapped && map.targetHipHeight > 0;
    const joints: Array<[number, number]> = [[foot, framed ? targetGround[2 * side]! : restHeight(foot)]];
    if (toes >= 0) joints.push([toes, framed ? targetGround[2 * side + 1]! : restHeight(toes)]);
    for (let t = foot + 1; t < JT; t++) if (t !== toes && descends(T.parents, t, foot)) joints.push([t, restHeight(t)]);
    for (const [positions, count] of [[dstPos, n], [midPos, n - 1]] as const) {
      for (const [j, ground] of joints) {
        for (let f = 0; f < count; f++) {
          const o = 3 * JT * f + 3 * j;
          const h = positions[o]! * up[0]! + positions[o + 1]! * up[1]! + positions[o + 2]! * up[2]!;
          penetration = Math.max(penetration, ground - h);
        }
      }
    }
    if (!mapped) continue;
    const sf = sourceLegs[4 * side + 2]!;
    const track = new Float64Array(3 * n);
    for (let f = 0; f < n; f++) for (let c = 0; c < 3; c++) track[3 * f + c] = srcPos[3 * JS * f + 3 * sf + c]!;
    const contacts = new Uint8Array(n);
    detectFootContacts(contacts, track, times, sUp, map.sourceHipHeight, contactOptions);
    for (let f = 0; f + 1 < n; f++) {
      if (!(contacts[f] && contacts[f + 1])) continue;
      const dt = times[f + 1]! - times[f]!;
      if (!(dt > 0)) continue;
      slideS += horizontal(srcPos, 3 * JS * f + 3 * sf, 3 * JS * (f + 1) + 3 * sf, sUp) / dt / map.sourceHipHeight;
      slideT += horizontal(dstPos, 3 * JT * f + 3 * foot, 3 * JT * (f + 1) + 3 * foot, up) / dt / hipHeight;
      planted++;
    }
    for (let f = 0; f < n; f++) if (contacts[f]) plantedAny[f] = 1;
  }
  for (let f = 0; f < n; f++) anyPlanted += plantedAny[f]!;

  // Limb directions.
  const roles = skeletonRoles(S);
  const targetOf = new Int32Array(JS).fill(-1);
  for (let t = 0; t < JT; t++) if (sourceOf[t]! >= 0) targetOf[sourceOf[t]!] = t;
  const limbs: Array<[string, number, number, number, number]> = [];
  const pairs: Array<[string, string, string]> = [];
  for (const side of ["L", "R"]) {
    pairs.push([`thigh.${side}`, `upperLeg.${side}`, `lowerLeg.${side}`], [`shin.${side}`, `lowerLeg.${side}`, `foot.${side}`]);
    pairs.push([`upperArm.${side}`, `upperArm.${side}`, `lowerArm.${side}`], [`forearm.${side}`, `lowerArm.${side}`, `hand.${side}`]);
  }
  for (const [limb, from, to] of pairs) {
    const a = roles.get(from), b = roles.get(to);
    if (a !== undefined && b !== undefined && targetOf[a]! >= 0 && targetOf[b]! >= 0) limbs.push([limb, a, b, targetOf[a]!, targetOf[b]!]);
  }
  const hips = roles.get("hips");
  const top = ["neck", "upperChest", "chest"].map((k) => roles.get(k)).find((j) => j !== undefined && targetOf[j]! >= 0);
  if (hips !== undefined && top !== undefined && targetPelvis >= 0) limbs.push(["spine", hips, top, targetPelvis, targetOf[top]!]);
  const all: number[] = [];
  const perLimb: LimbDirectionError[] = [];
  const vs = new Float64Array(3), vt = new Float64Array(3);
  for (const [limb, a, b, ta, tb] of limbs) {
    const angles: number[] = [];
    for (let f = 0; f < n; f++) {
      for (let c = 0; c < 3; c++) {
        vs[c] = srcPos[3 * JS * f + 3 * b + c]! - srcPos[3 * JS * f + 3 * a + c]!;
        vt[c] = dstPos[3 * JT * f + 3 * tb + c]! - dstPos[3 * JT * f + 3 * ta + c]!;
      }
      quatRotateVec3(vs, 0, map.frame, 0, vs, 0);
      const ls = Math.hypot(vs[0]!, vs[1]!, vs[2]!), lt = Math.hypot(vt[0]!, vt[1]!, vt[2]!);
      // A zero-length bone (a BVH joint at its parent's place) has no direction to compare: 0/0 would
      // make the whole figure NaN, so such a frame is left out, and a limb with none left is not listed.
      if (!(ls > 1e-9 * map.sourceHipHeight && lt > 1e-9 * hipHeight)) continue;
      const cos = (vs[0]! * vt[0]! + vs[1]! * vt[1]! + vs[2]! * vt[2]!) / (ls * lt);
      angles.push((Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI);
    }
    if (angles.length === 0) continue;
    all.push(...angles.slice(0, 100_000));
    perLimb.push({ limb, medianDeg: median(angles), maxDeg: angles.reduce((m, x) => Math.max(m, x), 0) });
  }
  return {
    boneLengthErrorPercent: 100 * boneLength,
    sourceBoneLengthChangePercent: 100 * sourceBoneLength,
    rootAttachmentPercent: 100 * attachment,
    footPenetrationPercent: legLength > 0 ? (100 * Math.max(0, penetration)) / legLength : 0,
    footSlidingTarget: planted > 0 ? slideT / planted : 0,
    footSlidingSource: planted > 0 ? slideS / planted : 0,
    plantedShare: n > 0 ? anyPlanted / n : 0,
    limbDirectionMedianDeg: all.length > 0 ? median(all) : 0,
    limbDirectionMaxDeg: all.length > 0 ? all.reduce((m, x) => Math.max(m, x), 0) : 0,
    limbs: perLimb,
  };
}

/** Model positions of every joint at each time (3·J per key); the rest pose when `clip` is undefined. */
function samplePositions(clip: Clip | undefined, skeleton: Skeleton, times: ArrayLike<number>): Float64Array {
  const J = skeleton.jointCount;
  const pose = createPose(J);
  const q = new Float64Array(4 * J), s = new Float64Array(J), p = new Float64Array(3 * J);
  const out = new Float64Array(3 * J * times.length);
  const cursor = clip ? createClipCursor(clip) : undefined;
  for (let f = 0; f < times.length; f++) {
    if (clip && cursor) sampleClipUnchecked(pose, clip, times[f]!, cursor);
    modelFrames(q, p, s, skeleton, clip ? pose : skeleton.rest);
    out.set(p, 3 * J * f);
  }
  return out;
}

/** Whether joint t lies below joint a (parents come before children). */
function descends(parents: Int16Array, t: number, a: number): boolean {
  for (let p = parents[t]!; p >= 0; p = parents[p]!) if (p === a) return true;
  return false;
}

function horizontal(p: Float64Array, a: number, b: number, up: ArrayLike<number>): number {
  const dx = p[b]! - p[a]!, dy = p[b + 1]! - p[a + 1]!, dz = p[b + 2]! - p[a + 2]!;
  const du = dx * up[0]! + dy * up[1]! + dz * up[2]!;
  return Math.hypot(dx - du * up[0]!, dy - du * up[1]!, dz - du * up[2]!);
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : 0.5 * (sorted[m - 1]! + sorted[m]!);
}
