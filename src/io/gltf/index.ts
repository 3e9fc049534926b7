export { loadGltf, type LoadGltfOptions, type GltfLoadResult, type GltfMorphTargets } from "./load-gltf.ts";
export { mergeClips, type DroppedTrack } from "./merge-clips.ts";
