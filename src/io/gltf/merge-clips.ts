import { createClip, type Clip, type FloatTrack, type JointTrack, type TrackPath } from "../../clip/clip.ts";
import { expectWholeClip } from "../../clip/check-clip.ts";
import { AnimgraphError } from "../../errors/animgraph-error.ts";
import { expectArray, expectString, rangeError } from "../../errors/check-argument.ts";

/** A track `mergeClips` left out because an earlier clip already animates the same joint and path. */
export interface DroppedTrack {
  /** The clip the dropped track came from. */
  readonly clip: string;
  /** Joint name, or the morph target node name for a float track. */
  readonly target: string;
  readonly path: TrackPath | "weights";
}

/**
 * Merges clips bound to one skeleton into one clip named `name` (for files that split one motion into
 * per-joint animations, like CesiumMan's 19). The first clip that animates a joint and path wins; later
 * ones are listed in `dropped`, never silently lost. Throws (a programmer error) when the clips are
 * bound to different skeletons or the list is empty.
 */
export function mergeClips(name: string, clips: readonly Clip[]): { clip: Clip; dropped: DroppedTrack[] } {
  expectString("mergeClips", "name", name);
  expectArray("mergeClips", "clips", clips);
  if (clips.length === 0) throw rangeError("mergeClips", "clips", "an array of at least one clip", clips);
  clips.forEach((clip, i) => expectWholeClip("mergeClips", `clips[${i}]`, clip));
  const first = clips[0]!;
  const skeleton = first.skeleton;
  const tracks: JointTrack[] = [];
  const floatTracks: FloatTrack[] = [];
  const dropped: DroppedTrack[] = [];
  const seen = new Set<string>();
  for (const clip of clips) {
    if (clip.skeleton !== skeleton) {
      throw new AnimgraphError("ERR_SKELETON_MISMATCH", `mergeClips: clip "${clip.name}" is bound to another skeleton than clip "${first.name}"`, { argument: "clips" });
    }
    for (const t of clip.tracks) {
      const key = `${t.joint}/${t.path}`;
      if (seen.has(key)) dropped.push({ clip: clip.name, target: skeleton.names[t.joint]!, path: t.path });
      else {
        seen.add(key);
        tracks.push(t);
      }
    }
    for (const f of clip.floatTracks) {
      const key = `w/${f.node}/${f.target}`;
      if (seen.has(key)) dropped.push({ clip: clip.name, target: f.target, path: "weights" });
      else {
        seen.add(key);
        floatTracks.push(f);
      }
    }
  }
  tracks.sort((x, y) => x.joint - y.joint || slot(x.path) - slot(y.path));
  return { clip: createClip({ name, skeleton, tracks, floatTracks, loopMode: first.loopMode }), dropped };
}

function slot(path: TrackPath): number {
  return path === "translation" ? 0 : path === "rotation" ? 1 : 2;
}
