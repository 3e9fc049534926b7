import type { Skeleton } from "../skeleton/skeleton.ts";
import { classifySkeleton } from "./bone-roles.ts";
import { modelFrames } from "./model-frames.ts";

/** Roles the name-based classification must find for it to be trusted alone. */
const CORE_ROLES = ["hips", "upperLeg.L", "upperLeg.R", "lowerLeg.L", "lowerLeg.R", "foot.L", "foot.R"];

/**
 * Humanoid roles of a skeleton: from its joint names (`classifySkeleton`), or, when the names do not give
 * the hips and both legs (CesiumMan's joints are unnamed), from its topology and rest geometry
 * (`classifyByTopology`), names still winning for the joints they recognise.
 */
export function skeletonRoles(skeleton: Skeleton): Map<string, number> {
  const byName = classifySkeleton(skeleton);
  if (CORE_ROLES.every((k) => byName.has(k))) return byName;
  const roles = classifyByTopology(skeleton);
  const claimed = new Set(byName.values());
  for (const [key, j] of roles) if (claimed.has(j)) roles.delete(key);
  for (const [key, j] of byName) roles.set(key, j);
  return roles;
}

/**
 * Humanoid roles from topology and rest geometry alone (role key → joint, keys as `roleKey`):
 * - the pelvis is the joint with two similar long chains within 60° of each other (the legs) and a third branch going the
 *   opposite way (the spine); up is from the legs' ends towards the spine's;
 * - each leg is its chain of longest descent: upper leg, lower leg, foot, toes (joints closer than 5 % of
 *   the leg to the previous one, such as twist helpers, are skipped);
 * - the spine climbs to the first joint where branches leave to both sides (the arms): spine, chest; the
 *   branch that keeps going up is neck then head; each arm is upper arm, lower arm, hand (a short first
 *   segment is a clavicle);
 * - left and right by the character's facing: forward is where the toes point from the ankles (or the knees
 *   from the legs' line), left = up × forward (glTF: facing +Z with +Y up puts the left at +X).
 * Returns an empty map when no joint looks like a pelvis.
 */
export function classifyByTopology(skeleton: Skeleton): Map<string, number> {
  const J = skeleton.jointCount;
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  modelFrames(q, p, s, skeleton, skeleton.rest);
  const children: number[][] = Array.from({ length: J }, () => []);
  for (let j = 0; j < J; j++) if (skeleton.parents[j]! >= 0) children[skeleton.parents[j]!]!.push(j);
  const at = (j: number): number[] => [p[3 * j]!, p[3 * j + 1]!, p[3 * j + 2]!];
  const sub = (a: number[], b: number[]): number[] => a.map((x, i) => x - b[i]!);
  const len = (a: number[]): number => Math.hypot(a[0]!, a[1]!, a[2]!);
  const dot = (a: number[], b: number[]): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  const cross = (a: number[], b: number[]): number[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  const unit = (a: number[]): number[] => {
    const l = len(a);
    return l > 0 ? a.map((x) => x / l) : a;
  };
  // Per joint, the end of the longest path (summed bone lengths) through its subtree: one reverse pass,
  // so a 30,000-joint chain costs 30,000 steps, not their square.
  const longest = new Float64Array(J);
  const end = Int32Array.from({ length: J }, (_, i) => i);
  const next = new Int32Array(J).fill(-1);
  for (let j = J - 1; j >= 0; j--) {
    for (const k of children[j]!) {
      const l = len(sub(at(k), at(j))) + longest[k]!;
      if (l > longest[j]! || next[j]! < 0) {
        longest[j] = l;
        end[j] = end[k]!;
        next[j] = k;
      }
    }
  }
  const deepest = (j: number): number => end[j]!;
  // Per joint, the centroid of its subtree: where a branch as a whole goes (a spine whose longest path
  // ends in a hand still has its mass above the pelvis).
  const sum = new Float64Array(p), count = new Float64Array(J).fill(1);
  for (let j = J - 1; j >= 0; j--) {
    const parent = skeleton.parents[j]!;
    if (parent < 0) continue;
    for (let c = 0; c < 3; c++) sum[3 * parent + c] = sum[3 * parent + c]! + sum[3 * j + c]!;
    count[parent] = count[parent]! + count[j]!;
  }
  const centroid = (j: number): number[] => [0, 1, 2].map((c) => sum[3 * j + c]! / count[j]!);
  const chainFrom = (c: number): number[] => {
    const chain = [c];
    for (let j = next[c]!; j >= 0; j = next[j]!) chain.push(j);
    return chain;
  };

  // 1. The pelvis: two parallel, similar branches and one opposite.
  let pelvis = -1, legA = -1, legB = -1, spineChild = -1, bestLegs = 0;
  for (let j = 0; j < J; j++) {
    if (children[j]!.length < 3) continue;
    const origin = at(j);
    const ends = children[j]!.map((c) => sub(at(deepest(c)), origin));
    const masses = children[j]!.map((c) => sub(centroid(c), origin));
    for (let a = 0; a < ends.length; a++) {
      for (let b = a + 1; b < ends.length; b++) {
        const la = len(ends[a]!), lb = len(ends[b]!);
        if (!(la > 0 && lb > 0) || Math.min(la, lb) / Math.max(la, lb) < 0.8) continue;
        if (dot(ends[a]!, ends[b]!) / (la * lb) < 0.5) continue; // CMU's rest legs splay 43° apart
        const down = unit(ends[a]!.map((x, i) => x + ends[b]![i]!));
        let spine = -1, spineCos = -0.5;
        masses.forEach((e, c) => {
          if (c === a || c === b || !(len(e) > 0)) return;
          const cos = dot(e, down) / len(e);
          if (cos < spineCos) {
            spineCos = cos;
            spine = c;
          }
        });
        if (spine < 0 || la + lb <= bestLegs) continue;
        bestLegs = la + lb;
        pelvis = j;
        legA = children[j]![a]!;
        legB = children[j]![b]!;
        spineChild = children[j]![spine]!;
      }
    }
  }
  const roles = new Map<string, number>();
  if (pelvis < 0) return roles;
  const origin = at(pelvis);
  const legEnds = [legA, legB].map((c) => sub(at(deepest(c)), origin));
  const spineMass = unit(sub(centroid(spineChild), origin));
  const up = unit(sub(spineMass, unit(legEnds[0]!.map((x, i) => x + legEnds[1]![i]!))));

  // 2. Legs: significant joints along the chain of longest descent.
  const significant = (chain: number[], from: number[]): number[] => {
    const total = chain.reduce((acc, j, i) => acc + len(sub(at(j), i === 0 ? from : at(chain[i - 1]!))), 0);
    const out: number[] = [];
    let last = from;
    for (const j of chain) {
      if (len(sub(at(j), last)) < 0.05 * total) continue; // zero-length helpers (CMU's LHipJoint), twist bones
      out.push(j);
      last = at(j);
    }
    return out;
  };
  const legs = [legA, legB].map((c) => significant(chainFrom(c), origin));
  if (legs.some((leg) => leg.length < 2)) return roles;
  // 3. Facing from the feet (toes ahead of ankles), else from the knees.
  const horizontal = (v: number[]): number[] => sub(v, up.map((x) => x * dot(v, up)));
  let forward = [0, 0, 0];
  for (const leg of legs) {
    if (leg.length >= 4) forward = forward.map((x, i) => x + horizontal(sub(at(leg[3]!), at(leg[2]!)))[i]!);
  }
  if (len(forward) === 0) {
    for (const leg of legs) {
      if (leg.length < 3) continue;
      const mid = at(leg[0]!).map((x, i) => 0.5 * (x + at(leg[2]!)[i]!));
      forward = forward.map((x, i) => x + horizontal(sub(at(leg[1]!), mid))[i]!);
    }
  }
  let left = unit(cross(up, unit(forward)));
  if (!(len(left) > 0.5)) {
    // No feet and straight legs: the sides are told apart, but which is left is a guess.
    left = unit(horizontal(sub(at(legA), at(legB))));
  }
  const sideOf = (j: number, from: number[]): "L" | "R" => (dot(sub(at(j), from), left) >= 0 ? "L" : "R");
  for (const leg of legs) {
    const side = sideOf(leg[0]!, origin);
    ["upperLeg", "lowerLeg", "foot", "toes"].forEach((role, i) => {
      if (leg[i] !== undefined) roles.set(`${role}.${side}`, leg[i]!);
    });
  }
  if (roles.has("upperLeg.L") !== roles.has("upperLeg.R")) return new Map(); // both legs on one side: not a biped
  roles.set("hips", pelvis);

  // 4. Spine up to the joint the arms leave from.
  const spine: number[] = [];
  let j = spineChild;
  let chest = -1;
  for (;;) {
    spine.push(j);
    const kids = children[j]!;
    // Arms leave sideways, one to each side (CMU's rest arms hang 65° below the horizontal).
    const sides = kids.map((k) => {
      const d = sub(at(deepest(k)), at(j));
      return len(d) > 0 ? dot(unit(d), left) : 0;
    });
    if (sides.some((x) => x > 0.3) && sides.some((x) => x < -0.3)) {
      chest = j;
      break;
    }
    if (kids.length === 0) break;
    // Keep climbing along the child that goes most upwards.
    let next = -1, bestUp = -Infinity;
    for (const k of kids) {
      const d = dot(sub(centroid(k), at(j)), up);
      if (d > bestUp) {
        bestUp = d;
        next = k;
      }
    }
    j = next;
  }
  if (spine.length > 0) roles.set("spine", spine[0]!);
  if (chest >= 0 && chest !== spine[0]) roles.set("chest", chest);
  if (chest < 0) return roles;
  for (const k of children[chest]!) {
    const d = sub(at(deepest(k)), at(chest));
    if (!(len(d) > 0)) continue;
    if (Math.abs(dot(unit(d), left)) > 0.3) {
      const arm = significant(chainFrom(k), at(chest));
      const side = sideOf(arm[0]!, at(chest));
      let roleList = ["upperArm", "lowerArm", "hand"];
      if (arm.length >= 4 && len(sub(at(arm[1]!), at(arm[0]!))) < 0.6 * len(sub(at(arm[2]!), at(arm[1]!)))) roleList = ["clavicle", ...roleList];
      roleList.forEach((role, i) => {
        if (arm[i] !== undefined) roles.set(`${role}.${side}`, arm[i]!);
      });
    } else if (dot(unit(d), up) > 0.5) {
      const neck = significant(chainFrom(k), at(chest));
      if (neck[0] !== undefined) roles.set("neck", neck[0]);
      if (neck[1] !== undefined) roles.set("head", neck[1]);
    }
  }
  return roles;
}
