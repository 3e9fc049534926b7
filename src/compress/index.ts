export { compressClip, measureCompression, detectSampleRate, MAX_COMPRESSED_FRAMES, type CompressOptions, type CompressionStats, type CompressResult } from "./compress-clip.ts";
export { TrackEncoding, KEYS_PER_BLOCK, compressedByteLength, runtimeByteLength, decodeKey, type CompressedClip, type CompressedTrack } from "./compressed-clip.ts";
export { createCompressedClipCursor, sampleCompressedClip, type CompressedClipCursor, type SamplingPlan } from "./sample-compressed-clip.ts";
export { decompressClip } from "./decompress-clip.ts";
export { writeAgc, readAgc, AGC_MAGIC, AGC_VERSION, type AgcReadResult } from "./agc-container.ts";
export { parseLength, estimateUnitsPerMetre, ASSUMED_JOINT_EXTENT_METRES } from "./units.ts";
export { createFrameSequence, modelTransforms, vertexError, jointErrors, type FrameSequence } from "./virtual-vertex-error.ts";
