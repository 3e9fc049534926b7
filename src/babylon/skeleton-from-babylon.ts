import type { Bone } from "@babylonjs/core/Bones/bone.js";
import type { Skeleton as BabylonSkeleton } from "@babylonjs/core/Bones/skeleton.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { createPose } from "../pose/pose.ts";
import { createSkeleton, type Skeleton } from "../skeleton/skeleton.ts";
import { gltfNodeIndexOf, type BabylonBinding } from "./babylon-binding.ts";
import { argumentError, rangeError } from "../errors/check-argument.ts";

/** What `skeletonFromBabylon` returns: an animgraph skeleton built from a Babylon one, and its binding. */
export interface SkeletonFromBabylonResult {
  readonly skeleton: Skeleton;
  /**
   * The skeleton bound to the TransformNodes its bones are linked to (`bone.getTransformNode()`, what
   * Babylon's glTF loader animates). Joints whose bone has no linked node are unbound (-1).
   */
  readonly binding: BabylonBinding;
}

/**
 * Builds an animgraph skeleton from a Babylon.js `Skeleton`: joints sorted parent-before-child (siblings
 * in bone order), names from `bone.name` (empty or repeated names become `#<bone index>`), the rest
 * pose from the linked TransformNodes' **current** position / rotationQuaternion / scaling (the bone's
 * own local matrix when it has no node; call this before anything animates them), inverse bind
 * matrices from `bone.getAbsoluteInverseBindMatrix()` (Babylon's `Matrix.m` has glTF's column-major
 * layout, so a glTF skin's matrices come back as they were), `sourceIndex` the glTF node index
 * Babylon's loader recorded on the linked node (-1 otherwise). Allocates; throws only for more than
 * 32767 bones.
 */
export function skeletonFromBabylon(source: BabylonSkeleton): SkeletonFromBabylonResult {
  const fn = "skeletonFromBabylon";
  const list = (source as Partial<BabylonSkeleton> | null)?.bones;
  if (typeof source !== "object" || source === null || !Array.isArray(list)) throw argumentError(fn, "source", "a Babylon Skeleton", source);
  list.forEach((b: unknown, i) => {
    const bone = b as Partial<Bone> | null;
    if (typeof bone !== "object" || bone === null || typeof bone.getParent !== "function" || typeof bone.getTransformNode !== "function") {
      throw argumentError(fn, `source.bones[${i}]`, "a Babylon Bone", b);
    }
  });
  if (list.length > 0x7fff) throw rangeError(fn, "source", "a Babylon Skeleton of at most 32767 bones", source);
  const bones = source.bones;
  const indexInList = new Map<Bone, number>();
  bones.forEach((b, i) => indexInList.set(b, i));
  const listParent = bones.map((b) => {
    const p = b.getParent();
    return p ? (indexInList.get(p) ?? -1) : -1;
  });
  const depth = (i: number): number => (listParent[i]! < 0 ? 0 : 1 + depth(listParent[i]!));
  const order = bones.map((_, i) => i).sort((a, b) => depth(a) - depth(b) || a - b);
  const jointOf = new Map<number, number>();
  order.forEach((i, j) => jointOf.set(i, j));
  const seen = new Set<string>();
  const names = order.map((i) => {
    const name = bones[i]!.name;
    const unique = name !== "" && !seen.has(name) ? name : `#${i}`;
    seen.add(unique);
    return unique;
  });
  const J = order.length;
  const rest = createPose(J);
  const inverseBind = new Float32Array(16 * J);
  const nodes: TransformNode[] = [];
  const nodeOfJoint = new Int16Array(J).fill(-1);
  const jointOfNode: number[] = [];
  const sourceIndex = new Int32Array(J).fill(-1);
  order.forEach((i, j) => {
    const bone = bones[i]!;
    const node = bone.getTransformNode();
    // A bone's own getters decompose its local matrix; a linked node holds what the loader animates.
    const p = node ? node.position : bone.position;
    const q = node ? (node.rotationQuaternion ?? node.rotation.toQuaternion()) : bone.rotationQuaternion;
    const s = node ? node.scaling : bone.scaling;
    rest.t.set([p.x, p.y, p.z], 3 * j);
    rest.r.set([q.x, q.y, q.z, q.w], 4 * j);
    rest.s.set([s.x, s.y, s.z], 3 * j);
    inverseBind.set(bone.getAbsoluteInverseBindMatrix().m, 16 * j);
    if (node) {
      sourceIndex[j] = gltfNodeIndexOf(node) ?? -1;
      node.rotationQuaternion ??= node.rotation.toQuaternion(); // so applying poses never allocates
      nodeOfJoint[j] = nodes.length;
      nodes.push(node);
      jointOfNode.push(j);
    }
  });
  const skeleton = createSkeleton({
    names,
    parents: order.map((i) => (listParent[i]! < 0 ? -1 : jointOf.get(listParent[i]!)!)),
    rest,
    inverseBind,
    sourceIndex,
  });
  const binding: BabylonBinding = Object.freeze({ skeleton, nodes: Object.freeze(nodes), nodeOfJoint, jointOfNode: Int16Array.from(jointOfNode) });
  return { skeleton, binding };
}
