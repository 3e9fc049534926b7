import { createClip, type Clip, type JointTrack } from "../clip/clip.ts";
import { decodeKey, frameTime, TrackEncoding, type CompressedClip } from "./compressed-clip.ts";

/**
 * Expands a compressed clip back into an ordinary `Clip` on the same skeleton: one LINEAR track per
 * compressed track, a key at every grid frame (`frameTime`, as float32 seconds), with the decoded values (a CONSTANT track becomes one key). Sampling the result with `sampleClip` gives what
 * `sampleCompressedClip` gives, up to the float32 rounding of the key times.
 */
export function decompressClip(compressed: CompressedClip): Clip {
  const tracks: JointTrack[] = compressed.tracks.map((track) => {
    const stride = track.path === "rotation" ? 4 : 3;
    const n = track.encoding === TrackEncoding.CONSTANT ? 1 : compressed.frameCount;
    const times = new Float32Array(n);
    const values = new Float32Array(stride * n);
    for (let f = 0; f < n; f++) {
      times[f] = n === 1 ? compressed.startTime : frameTime(compressed.startTime, compressed.sampleRate, n, compressed.duration, f);
      decodeKey(values, stride * f, track, f);
    }
    return { joint: track.joint, path: track.path, interpolation: "LINEAR", stride, times, values };
  });
  return createClip({
    name: compressed.name, skeleton: compressed.skeleton, tracks, duration: compressed.duration, loopMode: compressed.loopMode,
  });
}
