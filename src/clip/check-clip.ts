import { argumentError, expectClip, expectSkeleton } from "../errors/check-argument.ts";
import type { Clip } from "./clip.ts";

/**
 * A clip as createClip or a loader builds it, down to what sampling reads (its skeleton and rest pose,
 * trackIndex and floatTracks), for the functions that sample or rebuild a whole clip. With
 * `jointCount`, a clip of another skeleton is ERR_SKELETON_MISMATCH.
 */
export function expectWholeClip(fn: string, argument: string, value: unknown, jointCount = -1): asserts value is Clip {
  expectClip(fn, argument, value, jointCount);
  const clip = value as Clip;
  expectSkeleton(fn, `${argument}.skeleton`, clip.skeleton);
  if (!(clip.trackIndex instanceof Int32Array) || !Array.isArray(clip.floatTracks)) throw argumentError(fn, argument, "a Clip (from createClip or a loader)", value);
}
