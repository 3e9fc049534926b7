export type { Crowd, CrowdOptions } from "./crowd.ts";
export { createCrowd, poseStride, poseView } from "./crowd.ts";
export { evaluateCrowd, evaluateCrowdSelected } from "./evaluate-crowd.ts";
export type { SampleCache } from "./sample-cache.ts";
export { createSampleCache, beginFrame, SLOTS_PER_CLIP } from "./sample-cache.ts";
export type { CrowdKernel } from "./wasm/kernel.ts";
export { loadCrowdKernel, loadCrowdKernelSync, crowdKernelSupported } from "./wasm/kernel.ts";
