// Root motion: extraction of the root's horizontal travel and yaw, in-place poses, blending of deltas.
export {
  createRootMotionExtractor, extractRootMotion, stripRootMotion, blendRootMotion,
  type RootMotionExtractor, type RootMotionOptions,
} from "./root-motion.ts";
