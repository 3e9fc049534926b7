// animgraph/node: everything in the main entry, plus what needs Node — reading and writing files by
// path (with the size limits and folder confinement of docs/security.md) and worker threads.
export * from "./index.ts";

export { writeFileAtomic } from "./fs/atomic-write.ts";
export { readJsonFile } from "./json/read-json-file.ts";
export { blendCheckFile } from "./blend-check/blend-check-file.ts";
export { loadBvh } from "./io/bvh/load-bvh.ts";
export type { LoadGltfFileOptions } from "./io/gltf/load-gltf-file.ts";
export { loadGltfFile } from "./io/gltf/load-gltf-file.ts";
export { loadVrmaFile } from "./io/vrma/load-vrma-file.ts";
// Writing glTF goes through @gltf-transform/core, whose bundle holds a Node file reader (browser
// bundlers warn about its `import("node:fs")`), so it is offered here only.
export { addClipToGltf } from "./retarget/add-clip-to-gltf.ts";
export { replaceClipInGltf } from "./mirror/replace-clip-in-gltf.ts";
export type { SkinWeightFix } from "./retarget/normalize-skin-weights.ts";
export { normalizeSkinWeights } from "./retarget/normalize-skin-weights.ts";
export { readBoneMapFile } from "./retarget/read-bone-map-file.ts";
export type { LoadedRig, LoadRigOptions } from "./retarget/load-rig.ts";
export { loadRig } from "./retarget/load-rig.ts";
export { readGraphSpec } from "./spec/read-graph-spec-file.ts";
export { readTimeline } from "./graph/read-timeline-file.ts";
export type { LintAssets } from "./lint/clips-from-gltf.ts";
export { lintAssetsFromGltf } from "./lint/clips-from-gltf.ts";
export type { SarifOptions } from "./lint/sarif.ts";
export { toSarif } from "./lint/sarif.ts";
export type { GraphRecipe, GraphFactory, CrowdWorkersOptions, CrowdWorkers } from "./crowd/crowd-workers.ts";
export { createCrowdWorkers, buildGraph } from "./crowd/crowd-workers.ts";
