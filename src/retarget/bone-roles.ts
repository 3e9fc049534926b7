import { expectSkeleton, expectString } from "../errors/check-argument.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

/** Which side of the body a bone is on, from its name; "" for the midline. */
export type BoneSide = "L" | "R" | "";

/**
 * Humanoid bone roles that name-based mapping understands. Limb roles are per side (`upperLeg.L`);
 * finger roles number the segments from the hand (`index1` is the knuckle).
 */
export type BoneRole =
  | "hips" | "spine" | "chest" | "upperChest" | "neck" | "head"
  | "eye" | "hipJoint" | "upperLeg" | "lowerLeg" | "foot" | "toes"
  | "clavicle" | "upperArm" | "lowerArm" | "hand"
  | `${"thumb" | "index" | "middle" | "ring" | "pinky"}${1 | 2 | 3}`;

/**
 * Core words (lower case, punctuation removed, side removed) → role. Midline words apply only to names
 * without a side, limb words only to names with one, so CMU's `LeftHip` is a thigh and `Hips` the pelvis.
 * `shoulder` is ambiguous (Mixamo and RobotExpressive: clavicle; CMU: upper arm) and is resolved per
 * skeleton in `classifySkeleton`.
 */
export const MIDLINE_ALIASES: Readonly<Record<string, BoneRole>> = {
  hips: "hips", hip: "hips", pelvis: "hips", hipsbone: "hips", bip01pelvis: "hips",
  spine: "spine", abdomen: "spine", lowerback: "spine", spine0: "spine", spine00: "spine", spine01: "spine", waist: "spine",
  chest: "chest", torso: "chest", spine1: "chest", spine02: "chest", thorax: "chest", spine2: "upperChest",
  upperchest: "upperChest", chest2: "upperChest", upperback: "upperChest", spine03: "upperChest",
  neck: "neck", lowerneck: "neck", neck1: "neck", neck01: "neck",
  head: "head", skull: "head",
};

export const SIDE_ALIASES: Readonly<Record<string, BoneRole>> = {
  eye: "eye",
  hipjoint: "hipJoint", buttock: "hipJoint",
  upleg: "upperLeg", upperleg: "upperLeg", thigh: "upperLeg", hip: "upperLeg", femur: "upperLeg", leg01: "upperLeg", leg1: "upperLeg",
  leg: "lowerLeg", lowerleg: "lowerLeg", shin: "lowerLeg", knee: "lowerLeg", calf: "lowerLeg", leg02: "lowerLeg", leg2: "lowerLeg",
  foot: "foot", ankle: "foot", foot01: "foot",
  toe: "toes", toes: "toes", toebase: "toes", ball: "toes", foot02: "toes",
  collar: "clavicle", clavicle: "clavicle",
  upperarm: "upperArm", arm: "upperArm", shldr: "upperArm", humerus: "upperArm",
  forearm: "lowerArm", lowerarm: "lowerArm", elbow: "lowerArm",
  hand: "hand", wrist: "hand",
};

const FINGER = /^(?:hand)?(thumb|index|middle|mid|ring|pinky|little)(?:finger)?0?([1-3])?$/;
const FINGER_NAME: Record<string, string> = { thumb: "thumb", index: "index", middle: "middle", mid: "middle", ring: "ring", pinky: "pinky", little: "pinky" };

/** Prefixes that exporters put in front of every bone name. */
const NAME_PREFIX = /^(?:mixamorig\d*[:_]|bip0?1[ _]?|b_|def[-_]|org[-_]|armature[|_:]|character\d*[:_]|j_|jnt_|bn_)/i;

/** What a bone name says: its side, core word and (if recognised) role. */
export interface NameInfo {
  /** `L`, `R`, or "" for a midline bone (or one whose side the name does not tell). */
  readonly side: BoneSide;
  /** Lower-case core word without side, prefix, separators or a trailing `_012` node index. */
  readonly core: string;
  /** The role, or undefined when the word is not in the alias tables ("shoulder" resolves later). */
  readonly role: BoneRole | undefined;
}

function normalise(word: string): string {
  return word.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Splits a name into side and core word (`LeftUpLeg`, `UpperLeg.L`, `thigh_l`, `lThigh`, `L_Hip`, `lhand`). */
export function splitSide(name: string): { side: BoneSide; core: string } {
  let n = name.replace(NAME_PREFIX, "");
  // Fox-style trailing node indices: b_LeftLeg01_015 → LeftLeg01.
  n = n.replace(/_\d{2,}$/, "");
  let m: RegExpExecArray | null;
  if ((m = /^(left|right)[ _.:-]?(.+)$/i.exec(n))) return { side: m[1]!.toLowerCase() === "left" ? "L" : "R", core: normalise(m[2]!) };
  if ((m = /^(.+?)[ _.:-]?(left|right)$/i.exec(n)) && /[ _.:-]|[a-z](Left|Right)$/.test(n)) {
    return { side: m[2]!.toLowerCase() === "left" ? "L" : "R", core: normalise(m[1]!) };
  }
  if ((m = /^([LRlr])[ _.:-](.+)$/.exec(n))) return { side: m[1]!.toUpperCase() as BoneSide, core: normalise(m[2]!) };
  if ((m = /^(.+?)[ _.:-]([LRlr])$/.exec(n))) return { side: m[2]!.toUpperCase() as BoneSide, core: normalise(m[1]!) };
  // lThigh, rShldr, LHipJoint, RThumb: one side letter then a capital.
  if ((m = /^([LRlr])([A-Z].*)$/.exec(n))) return { side: m[1]!.toUpperCase() as BoneSide, core: normalise(m[2]!) };
  // lhand, rhand (CMU): one lower-case side letter glued to a known limb word.
  const low = normalise(n);
  if (/^[lr]/.test(low) && (SIDE_ALIASES[low.slice(1)] !== undefined || FINGER.test(low.slice(1)))) {
    return { side: low[0] === "l" ? "L" : "R", core: low.slice(1) };
  }
  return { side: "", core: low };
}

/** Side, core word and role of one bone name. */
export function classifyName(name: string): NameInfo {
  expectString("classifyName", "name", name);
  return classifyNameUnchecked(name);
}

function classifyNameUnchecked(name: string): NameInfo {
  const { side, core } = splitSide(name);
  if (side === "") return { side, core, role: MIDLINE_ALIASES[core] };
  const finger = FINGER.exec(core);
  if (finger) return { side, core, role: `${FINGER_NAME[finger[1]!]!}${finger[2] ?? "1"}` as BoneRole };
  return { side, core, role: SIDE_ALIASES[core] };
}

/** A role with its side: `hips`, `upperLeg.L`. */
export function roleKey(role: BoneRole, side: BoneSide): string {
  return side === "" ? role : `${role}.${side}`;
}

/**
 * Roles of a whole skeleton: role key → joint index, each role given to one joint. `shoulder` is the
 * upper arm when the same side also has a collar/clavicle bone, else the clavicle. When two joints claim
 * one role (CMU's `LeftWrist` and `lhand`; `lowerneck` and `Neck`), the one nearest the root keeps it.
 * A skeleton whose file declares its roles (`skeleton.roles`: a VRM animation's humanoid bones) gets
 * those, names aside.
 */
export function classifySkeleton(skeleton: Skeleton): Map<string, number> {
  expectSkeleton("classifySkeleton", "skeleton", skeleton);
  if (skeleton.roles) return new Map(skeleton.roles);
  const infos = skeleton.names.map(classifyNameUnchecked);
  const depth = new Int32Array(skeleton.jointCount);
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j]!;
    depth[j] = p >= 0 ? depth[p]! + 1 : 0;
  }
  const hasClavicle = (side: BoneSide): boolean => infos.some((i) => i.side === side && i.role === "clavicle");
  const roles = new Map<string, number>();
  infos.forEach((info, j) => {
    let role = info.role;
    if (role === undefined && info.side !== "" && info.core === "shoulder") role = hasClavicle(info.side) ? "upperArm" : "clavicle";
    if (role === undefined) return;
    const key = roleKey(role, info.side);
    const held = roles.get(key);
    if (held === undefined || depth[j]! < depth[held]!) roles.set(key, j);
  });
  return roles;
}
