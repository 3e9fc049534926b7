import { quatIdentity, quatInvert, quatMultiply, quatRotateVec3 } from "../../math/quat.ts";
import type { Pose } from "../../pose/pose.ts";
import { modelFrames } from "../../retarget/model-frames.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";
import { VRM_HUMAN_BONE_NAMES, type VrmHumanBoneName } from "./vrm-human-bones.ts";
import { argumentError, expectPose, expectSkeleton, expectTypedArray, invalidValue, rangeError } from "../../errors/check-argument.ts";

/**
 * Precomputed rest frames that turn a pose of a .vrma's skeleton into VRM's "normalized" humanoid pose:
 * each bone's rotation as it would be on a model whose T-pose has no rotation at all (what three-vrm's
 * normalized bones and UniVRM's ControlRig take, whatever the animation's own rest rotations).
 */
export interface HumanoidNormalizer {
  readonly skeleton: Skeleton;
  /** The bones the file maps, in VRM_HUMAN_BONE_NAMES order: the order of `normalizeHumanoidPose`'s output. */
  readonly bones: readonly VrmHumanBoneName[];
  /** Joint per entry of `bones`. */
  readonly joints: Int16Array;
  /** Per bone: the parent's world rest rotation (4 floats). */
  readonly pre: Float64Array;
  /** Per bone: the inverse of its own world rest rotation (4 floats). */
  readonly post: Float64Array;
  /** The hips' parent's world rest frame: rotation (4), position (3), uniform scale (1); identity without hips. */
  readonly hipsParent: Float64Array;
  /** Index of the hips in `bones`, -1 when unmapped. */
  readonly hips: number;
  readonly scratch: Float64Array;
}

/**
 * Builds the normalizer of a .vrma's skeleton and humanoid bone map (`VrmaLoadResult`'s `humanBones`,
 * or a plain object such as `{ hips: 0, spine: 1 }`): VRM bone name → joint index of `skeleton`.
 */
export function createHumanoidNormalizer(
  skeleton: Skeleton,
  humanBones: ReadonlyMap<VrmHumanBoneName, number> | Readonly<Partial<Record<VrmHumanBoneName, number>>>,
): HumanoidNormalizer {
  const fn = "createHumanoidNormalizer";
  expectSkeleton(fn, "skeleton", skeleton);
  const J = skeleton.jointCount;
  const boneMap = humanBoneMap(fn, humanBones, J);
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  modelFrames(q, p, s, skeleton, skeleton.rest);
  const bones = VRM_HUMAN_BONE_NAMES.filter((b) => boneMap.has(b));
  const joints = Int16Array.from(bones, (b) => boneMap.get(b)!);
  const pre = new Float64Array(4 * bones.length), post = new Float64Array(4 * bones.length);
  const hipsParent = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1]);
  joints.forEach((j, i) => {
    const parent = skeleton.parents[j]!;
    if (parent >= 0) pre.set(q.subarray(4 * parent, 4 * parent + 4), 4 * i);
    else quatIdentity(pre, 4 * i);
    quatInvert(post, 4 * i, q, 4 * j);
    if (bones[i] === "hips" && parent >= 0) {
      hipsParent.set(q.subarray(4 * parent, 4 * parent + 4), 0);
      hipsParent.set(p.subarray(3 * parent, 3 * parent + 3), 4);
      hipsParent[7] = s[parent]!;
    }
  });
  return { skeleton, bones, joints, pre, post, hipsParent, hips: bones.indexOf("hips"), scratch: new Float64Array(4) };
}

/** `humanBones` as a Map, checked: VRM bone names only, each mapped to a joint index below `J`. */
function humanBoneMap(fn: string, humanBones: unknown, J: number): ReadonlyMap<VrmHumanBoneName, number> {
  const plain = typeof humanBones === "object" && humanBones !== null && !Array.isArray(humanBones) && !(humanBones instanceof Map);
  if (!(humanBones instanceof Map) && !plain) {
    throw argumentError(fn, "humanBones", "a Map or an object from VRM bone name to joint index (VrmaLoadResult.humanBones)", humanBones);
  }
  const entries: Iterable<[unknown, unknown]> = humanBones instanceof Map ? humanBones : Object.entries(humanBones as object);
  const map = new Map<VrmHumanBoneName, number>();
  for (const [name, joint] of entries) {
    if (typeof name !== "string" || !(VRM_HUMAN_BONE_NAMES as readonly string[]).includes(name)) {
      throw invalidValue(fn, "humanBones", `${typeof name === "string" ? JSON.stringify(name) : String(name)} is not a VRM humanoid bone name (see VRM_HUMAN_BONE_NAMES)`);
    }
    if (typeof joint !== "number" || !Number.isInteger(joint)) throw argumentError(fn, `humanBones.${name}`, "a joint index (an integer)", joint);
    if (!(joint >= 0 && joint < J)) throw rangeError(fn, `humanBones.${name}`, `a joint index of the skeleton, in [0, ${J - 1}]`, joint);
    map.set(name as VrmHumanBoneName, joint);
  }
  return map;
}

/**
 * Writes the normalized pose of `pose` (a pose of `n.skeleton`, e.g. from sampleClip): per bone of
 * `n.bones`, 4 floats of `rotations` (x, y, z, w) = Wp · q · W⁻¹ (Wp the world rest rotation of the
 * bone's parent node, q its local rotation, W its own world rest rotation: VRM's "pose data
 * compatibility" formula), and in `hipsPosition` the hips' local translation carried into world space
 * by its parent's rest frame (left at 0 without hips). The bone's actual parent node is used, so a
 * non-humanoid node between two bones counts (three-vrm uses the nearest humanoid parent: the same for
 * every usual file). No allocation.
 */
export function normalizeHumanoidPose(rotations: Float32Array, hipsPosition: Float32Array, n: HumanoidNormalizer, pose: Pose): void {
  const fn = "normalizeHumanoidPose";
  const h = n as Partial<HumanoidNormalizer> | null;
  if (typeof h !== "object" || h === null || !Array.isArray(h.bones) || !(h.joints instanceof Int16Array) || !(h.pre instanceof Float64Array)
    || !(h.post instanceof Float64Array) || !(h.hipsParent instanceof Float64Array) || !(h.scratch instanceof Float64Array) || typeof h.skeleton !== "object" || h.skeleton === null) {
    throw argumentError(fn, "n", "a HumanoidNormalizer (from createHumanoidNormalizer)", n);
  }
  expectTypedArray(fn, "rotations", rotations, Float32Array, 4 * n.bones.length);
  expectTypedArray(fn, "hipsPosition", hipsPosition, Float32Array, 3);
  expectPose(fn, "pose", pose, n.skeleton.jointCount);
  const tmp = n.scratch;
  for (let i = 0; i < n.joints.length; i++) {
    const j = n.joints[i]!;
    quatMultiply(tmp, 0, n.pre, 4 * i, pose.r, 4 * j);
    quatMultiply(tmp, 0, tmp, 0, n.post, 4 * i);
    rotations[4 * i] = tmp[0]!;
    rotations[4 * i + 1] = tmp[1]!;
    rotations[4 * i + 2] = tmp[2]!;
    rotations[4 * i + 3] = tmp[3]!;
  }
  if (n.hips < 0) {
    hipsPosition.fill(0, 0, 3);
    return;
  }
  const j = n.joints[n.hips]!;
  const hp = n.hipsParent;
  const k = hp[7]!;
  tmp[0] = k * pose.t[3 * j]!;
  tmp[1] = k * pose.t[3 * j + 1]!;
  tmp[2] = k * pose.t[3 * j + 2]!;
  quatRotateVec3(tmp, 0, hp, 0, tmp, 0);
  hipsPosition[0] = tmp[0]! + hp[4]!;
  hipsPosition[1] = tmp[1]! + hp[5]!;
  hipsPosition[2] = tmp[2]! + hp[6]!;
}
