import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, expectSkeleton } from "../errors/check-argument.ts";
import type { CompressedClip } from "./compressed-clip.ts";
import type { CompressedClipCursor } from "./sample-compressed-clip.ts";

/** Clips that passed the full check once (compressed clips are not changed after compressClip/readAgc). */
const checkedClips = new WeakSet<object>();

/**
 * A CompressedClip from compressClip or readAgc (its skeleton, grid and tracks); with `jointCount`, a
 * clip of another skeleton is ERR_SKELETON_MISMATCH.
 */
export function expectCompressedClip(fn: string, argument: string, value: unknown, jointCount = -1): asserts value is CompressedClip {
  if (checkedClips.has(value as object)) {
    // A clip seen before is only matched against the skeleton: sampling calls this every frame, and the
    // full check builds argument paths (strings) that would allocate per pose.
    const J = (value as CompressedClip).skeleton.jointCount;
    if (jointCount < 0 || J === jointCount) return;
  }
  const clip = value as Partial<CompressedClip> | null;
  if (typeof clip !== "object" || clip === null || typeof clip.name !== "string" || !Number.isInteger(clip.frameCount) || typeof clip.sampleRate !== "number"
    || typeof clip.startTime !== "number" || !Array.isArray(clip.tracks) || !(clip.trackIndex instanceof Int32Array)) {
    throw argumentError(fn, argument, "a CompressedClip (from compressClip or readAgc)", value);
  }
  expectSkeleton(fn, `${argument}.skeleton`, clip.skeleton);
  const J = clip.skeleton!.jointCount;
  if (jointCount >= 0 && J !== jointCount) {
    throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: ${argument} is a clip of a ${J}-joint skeleton but the call works on ${jointCount} joints`, {
      argument, expected: `a CompressedClip of ${jointCount} joints`, received: `a CompressedClip of ${J} joints`,
    });
  }
  checkedClips.add(clip);
}

/** A cursor from createCompressedClipCursor made for `clip` (one of another clip is ERR_INVALID_VALUE). */
export function expectCompressedCursor(fn: string, argument: string, value: unknown, clip: CompressedClip): void {
  const cursor = value as Partial<CompressedClipCursor> | null;
  if (typeof cursor !== "object" || cursor === null || !(cursor.frame instanceof Int32Array) || !(cursor.cache instanceof Float32Array)) {
    throw argumentError(fn, argument, "a CompressedClipCursor (from createCompressedClipCursor)", value);
  }
  if (cursor.clip !== clip) {
    throw new AnimgraphError("ERR_INVALID_VALUE", `${fn}: ${argument}: the cursor belongs to another clip than "${clip.name}"; make one with createCompressedClipCursor(clip)`, { argument });
  }
}
