import { expectArray, expectInteger, expectNumberArray, expectObject, expectOptionalObject, expectPose, expectSkeleton, expectTypedArray, invalidValue, rangeError } from "../errors/check-argument.ts";
import { createPose, type Pose } from "../pose/pose.ts";

/**
 * An immutable joint hierarchy: names, parents (parent-before-child order, -1 for a root), the rest
 * (bind-time local) pose and the inverse bind matrices. Shared by every character that uses it.
 */
export interface Skeleton {
  readonly jointCount: number;
  /** Joint names, unique (glTF node names; generated `#<node>` names for unnamed nodes). */
  readonly names: readonly string[];
  /** Parent joint index per joint, always smaller than the joint's own index; -1 for a root. */
  readonly parents: Int16Array;
  /** The local rest pose (glTF node TRS at load time). */
  readonly rest: Pose;
  /** Inverse bind matrices, 16 floats per joint, column-major (glTF); identity when a skin gives none. */
  readonly inverseBind: Float32Array;
  /** Name → joint index. */
  readonly indexOf: ReadonlyMap<string, number>;
  /**
   * Where each joint came from in its source file (glTF node index, BVH joint order); -1 when built
   * programmatically. Lets loaders and exporters map back.
   */
  readonly sourceIndex: Int32Array;
  /**
   * Humanoid roles the file declares (role key as `roleKey` gives it, `upperLeg.L` → joint), e.g. a VRM
   * animation's humanoid bones. Retargeting's role classification takes them as they are instead of
   * guessing roles from joint names. Absent for skeletons whose file declares none.
   */
  readonly roles?: ReadonlyMap<string, number>;
}

/** The input of `createSkeleton`: the joints in parent-before-child order, as plain arrays. */
export interface SkeletonInit {
  /** Joint names, one per joint, unique. */
  readonly names: readonly string[];
  /** Parent index per joint: -1 for a root, otherwise an index smaller than the joint's own. */
  readonly parents: ArrayLike<number>;
  /** Rest pose; identity transforms when omitted. */
  readonly rest?: Pose;
  /** 16 floats per joint, column-major; identity when omitted. */
  readonly inverseBind?: Float32Array;
  /** Index of each joint in its source file (glTF node, BVH joint order); -1 for every joint when omitted. */
  readonly sourceIndex?: ArrayLike<number>;
  /** Declared humanoid roles (see Skeleton.roles); each joint index must be in range. */
  readonly roles?: ReadonlyMap<string, number>;
}

/**
 * Builds a skeleton. Throws (a programmer error, not user data) when names repeat, a parent is not
 * before its child, or array lengths disagree; loaders validate user files before calling this.
 */
export function createSkeleton(init: SkeletonInit): Skeleton {
  const fn = "createSkeleton";
  expectObject(fn, "init", init);
  expectArray(fn, "init.names", init.names);
  expectNumberArray(fn, "init.parents", init.parents);
  const jointCount = init.names.length;
  if (jointCount > 0x7fff) throw rangeError(fn, "init.names", "at most 32767 joint names", init.names);
  if (init.parents.length !== jointCount) throw invalidValue(fn, "init.parents", `holds ${init.parents.length} parents for ${jointCount} names`);
  if (init.rest !== undefined) expectPose(fn, "init.rest", init.rest, jointCount);
  if (init.inverseBind !== undefined) expectTypedArray(fn, "init.inverseBind", init.inverseBind, Float32Array);
  if (init.sourceIndex !== undefined) expectNumberArray(fn, "init.sourceIndex", init.sourceIndex, jointCount);
  expectOptionalObject(fn, "init.roles", init.roles);
  const indexOf = new Map<string, number>();
  const parents = new Int16Array(jointCount);
  for (let j = 0; j < jointCount; j++) {
    const name = init.names[j];
    if (typeof name !== "string") throw invalidValue(fn, `init.names[${j}]`, "a joint name must be a string");
    if (indexOf.has(name)) throw invalidValue(fn, "init.names", `joint name "${name}" is used twice`);
    indexOf.set(name, j);
    const p = init.parents[j]!;
    if (!(p === -1 || (Number.isInteger(p) && p >= 0 && p < j))) {
      throw invalidValue(fn, "init.parents", `joint ${j} ("${name}") has parent ${p}; parents must come before children`);
    }
    parents[j] = p;
  }
  const rest = init.rest ?? createPose(jointCount);
  let inverseBind = init.inverseBind;
  if (!inverseBind) {
    inverseBind = new Float32Array(16 * jointCount);
    for (let j = 0; j < jointCount; j++) {
      inverseBind[16 * j] = inverseBind[16 * j + 5] = inverseBind[16 * j + 10] = inverseBind[16 * j + 15] = 1;
    }
  }
  if (inverseBind.length !== 16 * jointCount) throw invalidValue(fn, "init.inverseBind", `must hold 16 floats per joint (${16 * jointCount}), not ${inverseBind.length}`);
  const sourceIndex = new Int32Array(jointCount).fill(-1);
  if (init.sourceIndex) sourceIndex.set(Array.from(init.sourceIndex));
  let roles: ReadonlyMap<string, number> | undefined;
  if (init.roles) {
    if (!(init.roles instanceof Map)) throw invalidValue(fn, "init.roles", "must be a Map from role to joint index");
    for (const [key, j] of init.roles) {
      if (!(Number.isInteger(j) && j >= 0 && j < jointCount)) throw invalidValue(fn, "init.roles", `role "${String(key)}" names joint ${String(j)}, out of range`);
    }
    roles = new Map(init.roles);
  }
  return Object.freeze({ jointCount, names: Object.freeze([...init.names]), parents, rest, inverseBind, indexOf, sourceIndex, ...(roles ? { roles } : {}) });
}

/** Joint indices of `root` and all its descendants (for bone masks: upper body, one arm, …). */
export function descendantsOf(skeleton: Skeleton, root: number): number[] {
  expectSkeleton("descendantsOf", "skeleton", skeleton);
  expectInteger("descendantsOf", "root", root, 0, Math.max(0, skeleton.jointCount - 1));
  const inSubtree = new Uint8Array(skeleton.jointCount);
  const out: number[] = [];
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j]!;
    if (j === root || (p >= 0 && inSubtree[p])) {
      inSubtree[j] = 1;
      out.push(j);
    }
  }
  return out;
}
