export { sideMarkers, swapMarkers, swapMarkerText, type MirrorSide, type SideMarker } from "./side-markers.ts";
export { findMirrorPairs, type MirrorPair, type MirrorPairsOptions, type MirrorPairsResult } from "./find-mirror-pairs.ts";
export {
  compileMirrorMap, MIRROR_AXES, MIRROR_ASYMMETRY_WARNING,
  type MirrorAxis, type MirrorReference, type MirrorOptions, type MirrorMap, type CompileMirrorMapResult,
} from "./mirror-map.ts";
export { mirrorPose } from "./mirror-pose.ts";
export { mirrorClip, mirrorClipWithMap, type MirrorClipOptions } from "./mirror-clip.ts";
export { readMirrorSettings, type MirrorSettings, type MirrorSettingsReadResult } from "./read-mirror-settings.ts";
