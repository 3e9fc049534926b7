import type { Object3D, Skeleton as ThreeSkeleton } from "three";
import { createPose } from "../pose/pose.ts";
import { createSkeleton, type Skeleton } from "../skeleton/skeleton.ts";
import type { ThreeBinding } from "./three-binding.ts";
import { argumentError, rangeError } from "../errors/check-argument.ts";

/** What `skeletonFromThree` returns: the new skeleton and its binding to the bones it came from. */
export interface SkeletonFromThreeResult {
  /** The skeleton built from the bones' hierarchy, names and current transforms. */
  readonly skeleton: Skeleton;
  /** The skeleton bound to the very bones it was built from (joint j ↔ `binding.objects[j]`). */
  readonly binding: ThreeBinding;
}

/**
 * Builds an animgraph skeleton from three.js bones (a three `Skeleton`, or any list of Object3Ds):
 * joints sorted parent-before-child (a joint's parent is its nearest ancestor in the list), names from
 * `object.name` (empty or repeated names become `#<index in the list>`), the rest pose from the objects'
 * **current** local position/quaternion/scale (call it before anything animates them), inverse bind
 * matrices from `Skeleton.boneInverses` (three and glTF both store them column-major), `sourceIndex`
 * the index in the given list. Allocates; throws only for more than 32767 bones.
 */
export function skeletonFromThree(source: ThreeSkeleton | readonly Object3D[]): SkeletonFromThreeResult {
  const list = Array.isArray(source) ? source : (source as Partial<ThreeSkeleton> | null)?.bones;
  if (typeof source !== "object" || source === null || !Array.isArray(list)) throw argumentError("skeletonFromThree", "source", "a three Skeleton or an array of Object3Ds", source);
  list.forEach((o: unknown, i) => {
    if (typeof o !== "object" || o === null || (o as Partial<Object3D>).isObject3D !== true) {
      throw argumentError("skeletonFromThree", Array.isArray(source) ? `source[${i}]` : `source.bones[${i}]`, "a three Object3D", o);
    }
  });
  if (list.length > 0x7fff) throw rangeError("skeletonFromThree", "source", "at most 32767 bones", source);
  const bones: readonly Object3D[] = Array.isArray(source) ? (source as readonly Object3D[]) : (source as ThreeSkeleton).bones;
  const inverses = Array.isArray(source) ? undefined : (source as ThreeSkeleton).boneInverses;
  const indexInList = new Map<Object3D, number>();
  bones.forEach((b, i) => indexInList.set(b, i));
  const listParent = bones.map((b) => {
    for (let p = b.parent; p !== null; p = p.parent) {
      const i = indexInList.get(p);
      if (i !== undefined) return i;
    }
    return -1;
  });
  const depth = (i: number): number => (listParent[i]! < 0 ? 0 : 1 + depth(listParent[i]!));
  // Stable sort by depth: parents (shallower) first, siblings in list order.
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
  order.forEach((i, j) => {
    const b = bones[i]!;
    rest.t.set([b.position.x, b.position.y, b.position.z], 3 * j);
    rest.r.set([b.quaternion.x, b.quaternion.y, b.quaternion.z, b.quaternion.w], 4 * j);
    rest.s.set([b.scale.x, b.scale.y, b.scale.z], 3 * j);
    const m = inverses?.[i];
    if (m) inverseBind.set(m.elements, 16 * j);
    else inverseBind[16 * j] = inverseBind[16 * j + 5] = inverseBind[16 * j + 10] = inverseBind[16 * j + 15] = 1;
  });
  const skeleton = createSkeleton({
    names,
    parents: order.map((i) => (listParent[i]! < 0 ? -1 : jointOf.get(listParent[i]!)!)),
    rest,
    inverseBind,
    sourceIndex: order,
  });
  const identity = Int16Array.from(order, (_, j) => j);
  const binding: ThreeBinding = Object.freeze({
    skeleton,
    objects: Object.freeze(order.map((i) => bones[i]!)),
    objectOfJoint: identity,
    jointOfObject: identity.slice(),
  });
  return { skeleton, binding };
}
