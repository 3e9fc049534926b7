// Pose blending: N-way weighted blends, the seed's crossfade, additive poses, bone masks and layers.
export { blendPoses, type BlendOptions } from "./blend-poses.ts";
export { crossfade } from "./crossfade.ts";
export { normalizeWeights, DEFAULT_WEIGHT_THRESHOLD } from "./normalize-weights.ts";
export { applyAdditive } from "./apply-additive.ts";
export { applyLayer, applyLayers, type Layer, type LayerMode } from "./apply-layer.ts";
export { createBoneMask, maskFromJoints, invertMask, maskUnion, maskIntersection, scaleMask, type BoneMask } from "./bone-mask.ts";
