import type { Skeleton } from "../skeleton/skeleton.ts";
import { classifySkeleton } from "./bone-roles.ts";
import { skeletonRoles } from "./classify-by-topology.ts";
import { expectSkeleton } from "../errors/check-argument.ts";

/** How a pair was found. */
export type BoneMatchReason = "explicit" | "exact-name" | "role" | "topology" | "hierarchy";

/** One source bone driving one target bone. */
export interface BoneMapEntry {
  readonly source: string;
  readonly target: string;
  /** 0–1: 1 explicit or identical names, 0.9 same role and same core word, 0.8 same role, 0.6 a role found from topology and geometry (unnamed joints), ≤ 0.5 hierarchy only. */
  readonly confidence: number;
  readonly reason: BoneMatchReason;
  /** The role both bones were recognised as (`upperLeg.L`), when known. */
  readonly role?: string;
}

/** A bone map by names: each source and each target bone appears at most once. */
export interface BoneMap {
  readonly entries: readonly BoneMapEntry[];
}

/** A proposed map plus the bones it could not place. */
export interface BoneMapProposal extends BoneMap {
  /** Source bones that drive nothing, in skeleton order. */
  readonly unmappedSource: readonly string[];
  /** Target bones left at their rest pose, in skeleton order. */
  readonly unmappedTarget: readonly string[];
}

/**
 * Proposes a bone map from names, topology and hierarchy. Steps: (1) bones recognised as the same humanoid role
 * (`bone-roles.ts`: Hips/hip/pelvis, LeftUpLeg/UpperLeg.L/thigh_l/lThigh/LeftHip, …) are paired; identical
 * names give confidence 1, same role 0.8 (0.9 when the core words also agree); a skeleton whose names do
 * not give the hips and both legs (CesiumMan's unnamed joints) has its roles found from topology and rest
 * geometry (`classifyByTopology`), paired with confidence 0.6; (2) identical names that
 * no role claims are paired (confidence 1); (3) chains are followed: an unmapped target bone whose parent
 * is mapped, and which is its parent's only unmapped child, takes the only unmapped child of the
 * parent's source bone (confidence = 0.5 × the parent's). Each bone is used once.
 */
export function proposeBoneMap(source: Skeleton, target: Skeleton): BoneMapProposal {
  expectSkeleton("proposeBoneMap", "source", source);
  expectSkeleton("proposeBoneMap", "target", target);
  const sourceRoles = skeletonRoles(source);
  const targetRoles = skeletonRoles(target);
  const byName = (roles: Map<string, number>, named: Map<string, number>, key: string): boolean => named.get(key) === roles.get(key);
  const sourceNamed = classifySkeleton(source), targetNamed = classifySkeleton(target);
  const targetRoleOf = new Map<number, string>();
  for (const [key, j] of targetRoles) targetRoleOf.set(j, key);
  const sourceRoleOf = new Map<number, string>();
  for (const [key, j] of sourceRoles) sourceRoleOf.set(j, key);

  const sourceFor = new Int32Array(target.jointCount).fill(-1);
  const used = new Uint8Array(source.jointCount);
  const confidence = new Float64Array(target.jointCount);
  const reason: (BoneMatchReason | undefined)[] = new Array(target.jointCount);
  const pair = (s: number, t: number, c: number, why: BoneMatchReason): void => {
    sourceFor[t] = s;
    used[s] = 1;
    confidence[t] = c;
    reason[t] = why;
  };
  const core = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, "");

  for (const [key, t] of targetRoles) {
    const s = sourceRoles.get(key);
    if (s === undefined || used[s]) continue;
    const sn = source.names[s]!;
    const tn = target.names[t]!;
    if (!byName(sourceRoles, sourceNamed, key) || !byName(targetRoles, targetNamed, key)) pair(s, t, 0.6, "topology");
    else pair(s, t, sn === tn ? 1 : core(sn) === core(tn) ? 0.9 : 0.8, sn === tn ? "exact-name" : "role");
  }
  for (let t = 0; t < target.jointCount; t++) {
    if (sourceFor[t]! >= 0) continue;
    const s = source.indexOf.get(target.names[t]!);
    // Same name but different recognised roles (CMU's LeftShoulder is an upper arm, Mixamo's a clavicle): no.
    if (s === undefined || used[s] || sourceRoleOf.has(s) || targetRoleOf.has(t)) continue;
    pair(s, t, 1, "exact-name");
  }
  const sourceChildren = childrenOf(source);
  const targetChildren = childrenOf(target);
  for (let t = 0; t < target.jointCount; t++) {
    if (sourceFor[t]! >= 0 || targetRoleOf.has(t)) continue;
    const tp = target.parents[t]!;
    if (tp < 0 || sourceFor[tp]! < 0) continue;
    const freeTargetSiblings = targetChildren[tp]!.filter((c) => sourceFor[c]! < 0 && !targetRoleOf.has(c));
    const freeSource = sourceChildren[sourceFor[tp]!]!.filter((c) => !used[c] && !sourceRoleOf.has(c));
    if (freeTargetSiblings.length === 1 && freeSource.length === 1) pair(freeSource[0]!, t, 0.5 * confidence[tp]!, "hierarchy");
  }

  const entries: BoneMapEntry[] = [];
  for (let t = 0; t < target.jointCount; t++) {
    const s = sourceFor[t]!;
    if (s < 0) continue;
    const role = targetRoleOf.get(t);
    entries.push({
      source: source.names[s]!,
      target: target.names[t]!,
      confidence: confidence[t]!,
      reason: reason[t]!,
      ...(role !== undefined && sourceRoleOf.get(s) === role ? { role } : {}),
    });
  }
  return {
    entries,
    unmappedSource: source.names.filter((_, s) => !used[s]),
    unmappedTarget: target.names.filter((_, t) => sourceFor[t]! < 0),
  };
}

function childrenOf(skeleton: Skeleton): number[][] {
  const out: number[][] = Array.from({ length: skeleton.jointCount }, () => []);
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j]!;
    if (p >= 0) out[p]!.push(j);
  }
  return out;
}
