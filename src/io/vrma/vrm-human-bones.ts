// VRM 1.0's humanoid bone names (VRMC_vrm humanoid.md) and what each is in animgraph's role vocabulary
// (src/retarget/bone-roles.ts), so a .vrma drives any humanoid through the ordinary bone-map machinery.

/** The 55 humanoid bone names of VRM 1.0, parents before children. */
export const VRM_HUMAN_BONE_NAMES = [
  "hips", "spine", "chest", "upperChest", "neck", "head", "leftEye", "rightEye", "jaw",
  "leftUpperLeg", "leftLowerLeg", "leftFoot", "leftToes",
  "rightUpperLeg", "rightLowerLeg", "rightFoot", "rightToes",
  "leftShoulder", "leftUpperArm", "leftLowerArm", "leftHand",
  "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand",
  "leftThumbMetacarpal", "leftThumbProximal", "leftThumbDistal",
  "leftIndexProximal", "leftIndexIntermediate", "leftIndexDistal",
  "leftMiddleProximal", "leftMiddleIntermediate", "leftMiddleDistal",
  "leftRingProximal", "leftRingIntermediate", "leftRingDistal",
  "leftLittleProximal", "leftLittleIntermediate", "leftLittleDistal",
  "rightThumbMetacarpal", "rightThumbProximal", "rightThumbDistal",
  "rightIndexProximal", "rightIndexIntermediate", "rightIndexDistal",
  "rightMiddleProximal", "rightMiddleIntermediate", "rightMiddleDistal",
  "rightRingProximal", "rightRingIntermediate", "rightRingDistal",
  "rightLittleProximal", "rightLittleIntermediate", "rightLittleDistal",
] as const;

/** One of the 55 humanoid bone names of VRM 1.0 (`hips`, `leftUpperArm`, …), as `VRMC_vrm_animation` keys them. */
export type VrmHumanBoneName = (typeof VRM_HUMAN_BONE_NAMES)[number];

const BONE_NAMES: ReadonlySet<string> = new Set(VRM_HUMAN_BONE_NAMES);

/** Whether `name` is a VRM 1.0 humanoid bone name (case-sensitive, as the spec spells it). */
export function isVrmHumanBoneName(name: string): name is VrmHumanBoneName {
  return BONE_NAMES.has(name);
}

/** Bones VRM requires of a model (and so a .vrma must map): the torso, head, legs and arms. */
export const VRM_REQUIRED_BONES: readonly VrmHumanBoneName[] = [
  "hips", "spine", "head",
  "leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot",
  "leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand",
];

/** VRM_vrm_animation forbids animating the eyes (look-at does that). */
export const VRMA_FORBIDDEN_BONES: ReadonlySet<string> = new Set(["leftEye", "rightEye"]);

const MIDLINE: Readonly<Record<string, string>> = {
  hips: "hips", spine: "spine", chest: "chest", upperChest: "upperChest", neck: "neck", head: "head",
};
const LIMB: Readonly<Record<string, string>> = {
  Eye: "eye", UpperLeg: "upperLeg", LowerLeg: "lowerLeg", Foot: "foot", Toes: "toes",
  Shoulder: "clavicle", UpperArm: "upperArm", LowerArm: "lowerArm", Hand: "hand",
  // VRM 1.0 numbers the thumb from the metacarpal (Unity's Humanoid from the proximal): the first
  // thumb bone out of the hand is thumb1 either way.
  ThumbMetacarpal: "thumb1", ThumbProximal: "thumb2", ThumbDistal: "thumb3",
};
const FINGER_SEGMENT: Readonly<Record<string, number>> = { Proximal: 1, Intermediate: 2, Distal: 3 };
const FINGER: Readonly<Record<string, string>> = { Index: "index", Middle: "middle", Ring: "ring", Little: "pinky" };

/**
 * The role key (`hips`, `upperLeg.L`, `index2.R`; see `roleKey`) of a VRM humanoid bone, or undefined
 * for `jaw`, which animgraph's roles do not name.
 */
export function vrmBoneRole(name: VrmHumanBoneName): string | undefined {
  const midline = MIDLINE[name];
  if (midline !== undefined) return midline;
  const m = /^(left|right)(.+)$/.exec(name);
  if (!m) return undefined;
  const side = m[1] === "left" ? "L" : "R";
  const limb = LIMB[m[2]!];
  if (limb !== undefined) return `${limb}.${side}`;
  const f = /^(Index|Middle|Ring|Little)(Proximal|Intermediate|Distal)$/.exec(m[2]!);
  return f ? `${FINGER[f[1]!]!}${FINGER_SEGMENT[f[2]!]!}.${side}` : undefined;
}

/** VRM 1.0's preset expression names (VRMC_vrm expressions.md). */
export const VRM_EXPRESSION_PRESETS: ReadonlySet<string> = new Set([
  "happy", "angry", "sad", "relaxed", "surprised", "aa", "ih", "ou", "ee", "oh",
  "blink", "blinkLeft", "blinkRight", "lookUp", "lookDown", "lookLeft", "lookRight", "neutral",
]);

/** Presets a .vrma may not animate: look-at drives them. */
export const VRMA_FORBIDDEN_EXPRESSIONS: ReadonlySet<string> = new Set(["lookUp", "lookDown", "lookLeft", "lookRight"]);
