export { classifyName, classifySkeleton, splitSide, roleKey, MIDLINE_ALIASES, SIDE_ALIASES, type BoneRole, type BoneSide, type NameInfo } from "./bone-roles.ts";
export { proposeBoneMap, type BoneMap, type BoneMapEntry, type BoneMapProposal, type BoneMatchReason } from "./propose-bone-map.ts";
export { readBoneMap, readBoneMapFile, type BoneMapReadResult, type BoneMapSettings } from "./read-bone-map.ts";
export { compileBoneMap, type CompileBoneMapOptions, type CompileBoneMapResult, type CompiledBoneMap } from "./compile-bone-map.ts";
export { retargetClip, type RetargetOptions } from "./retarget-clip.ts";
export { modelFrames } from "./model-frames.ts";
export { bindPose } from "./bind-pose.ts";
export { addClipToGltf } from "./add-clip-to-gltf.ts";
export { loadRig, type LoadedRig, type LoadRigOptions } from "./load-rig.ts";
