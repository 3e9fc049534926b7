// animgraph/three: the three.js adapter (three is a peer dependency, imported only from here).
export type { ThreeBinding, ThreeBindTarget, BindThreeOptions, ThreeBindResult } from "./three-binding.ts";
export { bindThreeSkeleton, threeObjectsOf } from "./three-binding.ts";
export { applyPoseToThree, readPoseFromThree, applyRootMotionToObject3D } from "./apply-pose-to-three.ts";
export type { SkeletonFromThreeResult } from "./skeleton-from-three.ts";
export { skeletonFromThree } from "./skeleton-from-three.ts";
export type { ClipFromThreeOptions, ClipFromThreeResult } from "./clip-from-three.ts";
export { clipFromThree, smoothToCubicSpline } from "./clip-from-three.ts";
export type { ThreeGltf, FromThreeGltfResult } from "./from-three-gltf.ts";
export { fromThreeGltf } from "./from-three-gltf.ts";
