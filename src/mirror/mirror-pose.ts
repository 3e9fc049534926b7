import type { Pose } from "../pose/pose.ts";
import { expectPose } from "../errors/check-argument.ts";
import { expectMirrorMap } from "./check-mirror-arguments.ts";
import type { MirrorMap } from "./mirror-map.ts";

/** One joint's source transform (t 3, r 4, s 3) read before anything is written, so `out` may be `src`. */
const held = new Float64Array(20);

/**
 * Writes the mirror image of `src` into `out` (both of the map's joint count): each joint takes its
 * partner's transform through the map's constant per-joint maps (see MirrorMap). `out` may be `src`
 * (a pair's two joints are read before either is written). Allocates nothing; no validation beyond
 * the arguments' types (AnimgraphError; a pose of another joint count is ERR_SKELETON_MISMATCH).
 */
export function mirrorPose(out: Pose, map: MirrorMap, src: Pose): Pose {
  expectMirrorMap("mirrorPose", "map", map);
  const J = map.partner.length;
  expectPose("mirrorPose", "out", out, J);
  expectPose("mirrorPose", "src", src, J);
  const partner = map.partner;
  for (let k = 0; k < J; k++) {
    const j = partner[k]!;
    if (j < k) continue; // written with its partner
    hold(src, j, 0);
    if (j !== k) hold(src, k, 10);
    apply(out, k, map, 0);
    if (j !== k) apply(out, j, map, 10);
  }
  return out;
}

function hold(src: Pose, j: number, o: number): void {
  held[o] = src.t[3 * j]!;
  held[o + 1] = src.t[3 * j + 1]!;
  held[o + 2] = src.t[3 * j + 2]!;
  held[o + 3] = src.r[4 * j]!;
  held[o + 4] = src.r[4 * j + 1]!;
  held[o + 5] = src.r[4 * j + 2]!;
  held[o + 6] = src.r[4 * j + 3]!;
  held[o + 7] = src.s[3 * j]!;
  held[o + 8] = src.s[3 * j + 1]!;
  held[o + 9] = src.s[3 * j + 2]!;
}

/** Writes joint k of `out` from the held transform at `o` (k's partner's). */
function apply(out: Pose, k: number, map: MirrorMap, o: number): void {
  const R = map.rotation, T = map.translation, S = map.scale;
  const r = 16 * k, t = 12 * k, s = 9 * k;
  const tx = held[o]!, ty = held[o + 1]!, tz = held[o + 2]!;
  const qx = held[o + 3]!, qy = held[o + 4]!, qz = held[o + 5]!, qw = held[o + 6]!;
  const sx = held[o + 7]!, sy = held[o + 8]!, sz = held[o + 9]!;
  out.t[3 * k] = T[t]! * tx + T[t + 1]! * ty + T[t + 2]! * tz + T[t + 9]!;
  out.t[3 * k + 1] = T[t + 3]! * tx + T[t + 4]! * ty + T[t + 5]! * tz + T[t + 10]!;
  out.t[3 * k + 2] = T[t + 6]! * tx + T[t + 7]! * ty + T[t + 8]! * tz + T[t + 11]!;
  out.r[4 * k] = R[r]! * qx + R[r + 1]! * qy + R[r + 2]! * qz + R[r + 3]! * qw;
  out.r[4 * k + 1] = R[r + 4]! * qx + R[r + 5]! * qy + R[r + 6]! * qz + R[r + 7]! * qw;
  out.r[4 * k + 2] = R[r + 8]! * qx + R[r + 9]! * qy + R[r + 10]! * qz + R[r + 11]! * qw;
  out.r[4 * k + 3] = R[r + 12]! * qx + R[r + 13]! * qy + R[r + 14]! * qz + R[r + 15]! * qw;
  out.s[3 * k] = S[s]! * sx + S[s + 1]! * sy + S[s + 2]! * sz;
  out.s[3 * k + 1] = S[s + 3]! * sx + S[s + 4]! * sy + S[s + 5]! * sz;
  out.s[3 * k + 2] = S[s + 6]! * sx + S[s + 7]! * sy + S[s + 8]! * sz;
}
