// Blend trees (1D) and blend spaces (2D grid and freeform): weight computation only; the pose
// blending that consumes the weights lives in src/blend/.
export type { WeightArray } from "./blend-1d.ts";
export { blend1DLinearWeights, blend1DInverseDistanceWeights } from "./blend-1d.ts";
export type { BlendGrid } from "./grid-blend-space.ts";
export { gridBlendWeights, assertBlendGrid } from "./grid-blend-space.ts";
export type {
  BlendSample2D,
  BlendSpace2DKind,
  CompiledBlendSpace2D,
  CompileBlendSpace2DOptions,
  CompileBlendSpace2DResult,
} from "./compile-blend-space-2d.ts";
export { compileBlendSpace2D } from "./compile-blend-space-2d.ts";
export { blendSpace2DWeights } from "./blend-space-2d-weights.ts";
// The deterministic integer (per-mille, floor division) bilinear variant used by blend-check.
export type { PermilleAxis, PermilleSample } from "../blend-check/bilinear-permille.ts";
export { bilinearPermille, axisPermille, floorDiv } from "../blend-check/bilinear-permille.ts";
