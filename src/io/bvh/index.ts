export { parseBvh, type BvhChannel, type BvhData, type BvhEndSite, type BvhJointInfo, type BvhLimits, type BvhOptions, type BvhResult } from "./parse-bvh.ts";
