// animgraph/babylon: the Babylon.js adapter (@babylonjs/core is an optional peer dependency; this
// entry only imports its types, so it uses whatever copy of Babylon the app bundles).
export type { BabylonBinding, BabylonBindTarget, BindBabylonOptions, BabylonBindResult } from "./babylon-binding.ts";
export { bindBabylonSkeleton, babylonNodesOf, gltfNodeIndexOf } from "./babylon-binding.ts";
export { applyPoseToBabylon, readPoseFromBabylon, applyRootMotionToTransformNode } from "./apply-pose-to-babylon.ts";
export type { ClipFromBabylonOptions, ClipFromBabylonResult } from "./clip-from-babylon.ts";
export { clipFromBabylon } from "./clip-from-babylon.ts";
export type { SkeletonFromBabylonResult } from "./skeleton-from-babylon.ts";
export { skeletonFromBabylon } from "./skeleton-from-babylon.ts";
