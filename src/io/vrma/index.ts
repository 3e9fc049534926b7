// VRM animation (.vrma) reading: bytes in, a skeleton with declared humanoid roles and clips out.
// The path-based loadVrmaFile lives in load-vrma-file.ts (Node only) and is not exported here.
export { loadVrma, type LoadVrmaOptions, type VrmaLoadResult } from "./load-vrma.ts";
export { VRMA_EXTENSION, type VrmaExpression, type VrmaLookAt } from "./read-vrma-extension.ts";
export { createHumanoidNormalizer, normalizeHumanoidPose, type HumanoidNormalizer } from "./normalize-humanoid.ts";
export { VRM_HUMAN_BONE_NAMES, VRM_REQUIRED_BONES, VRM_EXPRESSION_PRESETS, vrmBoneRole, isVrmHumanBoneName, type VrmHumanBoneName } from "./vrm-human-bones.ts";
