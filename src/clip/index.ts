// Clips: the asset (clip.ts), sampling with cursors, loop modes, loop seams and additive clips.
export { createClip, type Clip, type ClipInit, type JointTrack, type FloatTrack, type Interpolation, type TrackPath, type LoopMode } from "./clip.ts";
export { createClipCursor, resetClipCursor, type ClipCursor } from "./clip-cursor.ts";
export { sampleClip, sampleFloatTracks, floatTrackLength } from "./sample-clip.ts";
export { sampleTrack } from "./sample-track.ts";
export { findKey } from "./find-key.ts";
export { wrapTime, loopIndex } from "./wrap-time.ts";
export { measureLoopSeam, isSeamlessLoop, meanBoneOffset, type LoopSeam, type LoopSeamTolerance } from "./loop-seam.ts";
export { makeAdditiveClip, type AdditiveReference } from "./additive-clip.ts";
