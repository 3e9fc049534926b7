import { argumentError, expectClip, invalidValue } from "../errors/check-argument.ts";
import type { Clip } from "./clip.ts";

/**
 * Per-playback sampling state for one clip: the key segment each track used last, so forward playback
 * finds its keys in O(1). Plain data owned by one character (part of a GraphInstance); a cursor may be
 * reset or shared between clips only by creating a new one.
 */
export interface ClipCursor {
  /** The clip this cursor belongs to (sampling another clip with it is a programmer error). */
  readonly clip: Clip;
  /** Last segment index per joint track (`clip.tracks` order); 0 initially. */
  readonly keys: Int32Array;
  /** Last segment index per float (morph weight) track (`clip.floatTracks` order). */
  readonly floatKeys: Int32Array;
}

/** A cursor at the start of `clip`. */
export function createClipCursor(clip: Clip): ClipCursor {
  expectClip("createClipCursor", "clip", clip);
  if (!Array.isArray(clip.floatTracks)) throw argumentError("createClipCursor", "clip", "a Clip (from createClip or a loader)", clip);
  return { clip, keys: new Int32Array(clip.tracks.length), floatKeys: new Int32Array(clip.floatTracks.length) };
}

/** Rewinds a cursor (after a seek it is not needed: a backward jump falls back to binary search). */
export function resetClipCursor(cursor: ClipCursor): ClipCursor {
  expectClipCursor("resetClipCursor", "cursor", cursor);
  cursor.keys.fill(0);
  cursor.floatKeys.fill(0);
  return cursor;
}

/**
 * A ClipCursor (from createClipCursor); with `clip`, one made for that clip (a cursor of another clip
 * is ERR_INVALID_VALUE: its key indices mean nothing there).
 */
export function expectClipCursor(fn: string, argument: string, value: unknown, clip?: Clip): asserts value is ClipCursor {
  const cursor = value as Partial<ClipCursor> | null;
  if (typeof cursor !== "object" || cursor === null || !(cursor.keys instanceof Int32Array) || !(cursor.floatKeys instanceof Int32Array)
    || typeof cursor.clip !== "object" || cursor.clip === null) {
    throw argumentError(fn, argument, "a ClipCursor (from createClipCursor)", value);
  }
  if (clip !== undefined && cursor.clip !== clip) {
    throw invalidValue(fn, argument, `the cursor belongs to clip ${JSON.stringify(String(cursor.clip.name))}, not ${JSON.stringify(clip.name)}; make one with createClipCursor(clip)`);
  }
}
