// Exports that do not check their arguments yet: called with wrong types they can still fail inside
// with a raw TypeError or RangeError. test/errors/public-exports*.test.ts skip them and hold every other
// export (including every new one) to AnimgraphError; a name leaves this list when its function checks
// its arguments, and the list only shrinks (issue 22).
export const UNCHECKED_EXPORTS = Object.freeze([
  "compileBlendSpace2D",
  "compileBoneMap",
  "compressClip",
  "compressedByteLength",
  "decodeKey",
  "decompressClip",
  "detectSampleRate",
  "estimateUnitsPerMetre",
]);
