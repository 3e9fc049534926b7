// An error check for compressed clips that shares no code with src/compress: both clips are sampled at
// arbitrary times with their public samplers, taken to model space with localToModel (float32), and the
// six virtual vertices at ±d along each joint's axes are compared point by point.
import type { Clip } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import type { CompressedClip } from "../../src/compress/compressed-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../../src/compress/sample-compressed-clip.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { mulberry32 } from "../helpers/seeded-random.ts";

export interface IndependentError {
  /** Largest vertex distance found, in skeleton units. */
  readonly max: number;
  readonly worstJoint: number;
  readonly worstTime: number;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export const random = mulberry32;

export function independentError(clip: Clip, compressed: CompressedClip, times: readonly number[], d: number): IndependentError {
  const J = clip.skeleton.jointCount;
  const a = createPose(J);
  const b = createPose(J);
  const ma = new Float32Array(16 * J);
  const mb = new Float32Array(16 * J);
  const ca = createClipCursor(clip);
  const cb = createCompressedClipCursor(compressed);
  let max = 0;
  let worstJoint = -1;
  let worstTime = NaN;
  for (const time of times) {
    sampleClip(a, clip, time, ca);
    sampleCompressedClip(b, compressed, time, cb);
    localToModel(ma, clip.skeleton, a);
    localToModel(mb, clip.skeleton, b);
    for (let j = 0; j < J; j++) {
      const o = 16 * j;
      for (let axis = 0; axis < 3; axis++) {
        for (const sign of [-1, 1]) {
          // p = M (sign·d·e_axis): column `axis` scaled, plus the translation column.
          let dist2 = 0;
          for (let r = 0; r < 3; r++) {
            const pa = ma[o + 12 + r]! + sign * d * ma[o + 4 * axis + r]!;
            const pb = mb[o + 12 + r]! + sign * d * mb[o + 4 * axis + r]!;
            dist2 += (pa - pb) * (pa - pb);
          }
          const dist = Math.sqrt(dist2);
          if (dist > max) {
            max = dist;
            worstJoint = j;
            worstTime = time;
          }
        }
      }
    }
  }
  return { max, worstJoint, worstTime };
}
