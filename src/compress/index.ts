export { measureCompression, MAX_COMPRESSED_FRAMES, type CompressOptions, type CompressionStats, type CompressResult } from "./compress-clip.ts";
export { TrackEncoding, KEYS_PER_BLOCK, runtimeByteLength, type CompressedClip, type CompressedTrack } from "./compressed-clip.ts";
export { createCompressedClipCursor, sampleCompressedClip, type CompressedClipCursor, type SamplingPlan } from "./sample-compressed-clip.ts";
export { writeAgc, readAgc, AGC_MAGIC, AGC_VERSION, type AgcReadResult } from "./agc-container.ts";
export { parseLength, ASSUMED_JOINT_EXTENT_METRES } from "./units.ts";
// The exports that check their arguments first (the implementation files keep the unchecked forms).
export { compressClip, detectSampleRate, estimateUnitsPerMetre, decodeKey, compressedByteLength, decompressClip } from "./checked-exports.ts";
export { createFrameSequence, modelTransforms, vertexError, jointErrors, type FrameSequence } from "./virtual-vertex-error.ts";
