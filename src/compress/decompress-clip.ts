import { createClip, type Clip, type JointTrack } from "../clip/clip.ts";
import { decodeKey, keyAtOrAfter, TrackEncoding, type CompressedClip } from "./compressed-clip.ts";

/**
 * Expands a compressed clip back into an ordinary `Clip` on the same skeleton: one LINEAR track per
 * compressed track, keys at startTime + frame / sampleRate (float32 seconds) with the decoded values
 * (a CONSTANT track becomes one key). Sampling the result with `sampleClip` gives what
 * `sampleCompressedClip` gives, up to the float32 rounding of the key times.
 */
export function decompressClip(compressed: CompressedClip): Clip {
  const tracks: JointTrack[] = compressed.tracks.map((track) => {
    const stride = track.path === "rotation" ? 4 : 3;
    const n = track.keyCount;
    const times = new Float32Array(n);
    const values = new Float32Array(stride * n);
    let f = 0;
    for (let k = 0; k < n; k++) {
      if (k > 0) f = keyAtOrAfter(track.keyMask, f + 1);
      times[k] = track.encoding === TrackEncoding.CONSTANT ? compressed.startTime : compressed.startTime + f / compressed.sampleRate;
      decodeKey(values, stride * k, track, k);
    }
    return { joint: track.joint, path: track.path, interpolation: "LINEAR", stride, times, values };
  });
  return createClip({
    name: compressed.name, skeleton: compressed.skeleton, tracks, duration: compressed.duration, loopMode: compressed.loopMode,
  });
}
