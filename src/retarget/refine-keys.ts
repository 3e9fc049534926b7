// Where a retargeted clip's interpolation between keys breaks what its keys hold: retargetClip keeps every
// foot joint at or above its reference height at the keys (groundFeet) and places IK-style feet (joints
// that do not hang from their lower leg, RobotExpressive's) at the end of the lower leg, but a player
// interpolates each joint's rotation and translation between keys, and a large turn between two keys (a
// capture whose first frame is a reference pose) swings a foot through the floor, or away from its shin,
// in between.
import type { Clip } from "../clip/clip.ts";
import { createClipCursor } from "../clip/clip-cursor.ts";
import { sampleClip } from "../clip/sample-clip.ts";
import { createPose } from "../pose/pose.ts";
import type { CompiledBoneMap } from "./compile-bone-map.ts";
import { modelFrames } from "./model-frames.ts";

/** Where between two keys a dip is looked for (fractions of the gap). */
const PROBES = [0.25, 0.5, 0.75];

/**
 * For each gap between consecutive keys of `result` (bound to `map.target`) where, sampled at a quarter,
 * half and three quarters of the gap, (with `ground`) a leg's foot or any joint below it (toes, toe ends)
 * is lower than its reference height by more than `tolerance` × that leg's length, or an IK-style foot is
 * farther from or nearer to its lower leg than in the reference pose by more than `tolerance` × that
 * distance: the probe time where it is worst. Gaps shorter than `minGap` seconds are skipped. Sorted; empty when no gap needs a key. Heights are along
 * the target's up axis in model space, against the reference pose's, as the ground clamp keeps them.
 */
export function gapsToRefine(result: Clip, map: CompiledBoneMap, tolerance: number, minGap: number, ground: boolean): Float32Array {
  const T = map.target, J = T.jointCount, up = map.targetUp, legs = map.legs;
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  const along = (j: number): number => p[3 * j]! * up[0]! + p[3 * j + 1]! * up[1]! + p[3 * j + 2]! * up[2]!;
  const dist = (a: number, b: number): number => Math.hypot(p[3 * a]! - p[3 * b]!, p[3 * a + 1]! - p[3 * b + 1]!, p[3 * a + 2]! - p[3 * b + 2]!);
  modelFrames(q, p, s, T, T.rest);
  const restHeight = new Float64Array(J);
  for (let j = 0; j < J; j++) restHeight[j] = along(j);
  // Joints kept above the ground, with their leg's length; IK-style feet with their lower leg and distance.
  const watched: Array<[number, number]> = [];
  const placed: Array<[number, number, number]> = [];
  for (let side = 0; side < 2; side++) {
    const [upper, lower, foot] = [legs[4 * side]!, legs[4 * side + 1]!, legs[4 * side + 2]!];
    if (upper < 0 || lower < 0 || foot < 0) continue;
    const leg = dist(upper, lower) + dist(lower, foot);
    if (ground && leg > 0) for (let j = 0; j < J; j++) if (j === foot || below(T.parents, j, foot)) watched.push([j, leg]);
    const shin = dist(lower, foot);
    if (T.parents[foot] !== lower && shin > 0) placed.push([foot, lower, shin]);
  }
  const times = keyTimesOf(result);
  const out: number[] = [];
  if (watched.length === 0 && placed.length === 0) return new Float32Array(0);
  const pose = createPose(J), cursor = createClipCursor(result);
  for (let f = 0; f + 1 < times.length; f++) {
    const t0 = times[f]!, t1 = times[f + 1]!;
    if (!(t1 - t0 >= minGap)) continue;
    let worst = tolerance, at = NaN;
    for (const k of PROBES) {
      const t = t0 + k * (t1 - t0);
      if (!(t > t0 && t < t1)) continue;
      sampleClip(pose, result, t, cursor);
      modelFrames(q, p, s, T, pose);
      for (const [j, leg] of watched) {
        const depth = (restHeight[j]! - along(j)) / leg;
        if (depth > worst) {
          worst = depth;
          at = t;
        }
      }
      for (const [foot, lower, length] of placed) {
        const change = Math.abs(dist(foot, lower) - length) / length;
        if (change > worst) {
          worst = change;
          at = t;
        }
      }
    }
    if (at === at) out.push(at);
  }
  return Float32Array.from(out);
}

/** The union of a clip's key times, sorted. */
function keyTimesOf(clip: Clip): Float32Array {
  const all = new Set<number>();
  for (const tr of clip.tracks) for (const x of tr.times) all.add(x);
  return Float32Array.from(all).sort();
}

/** Whether joint j lies below joint a (parents come before children). */
function below(parents: Int16Array, j: number, a: number): boolean {
  for (let x = parents[j]!; x >= 0; x = parents[x]!) if (x === a) return true;
  return false;
}
