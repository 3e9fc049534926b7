import { createClip, type Clip, type FloatTrack, type JointTrack, type TrackPath } from "../../clip/clip.ts";
import type { GltfSkeleton } from "./build-skeletons.ts";
import { ptr, type DiagnosticSink } from "./gltf-json.ts";
import type { ChannelData } from "./read-channels.ts";

const SLOT: Record<TrackPath, number> = { translation: 0, rotation: 1, scale: 2 };

/** Picks the skeleton that owns most of the channels' target joints (the first on a tie). */
export function bindSkeleton(channels: readonly ChannelData[], skeletons: readonly GltfSkeleton[]): number {
  let best = 0;
  let bestCount = -1;
  skeletons.forEach((s, i) => {
    const nodes = new Set(s.skeleton.sourceIndex);
    const count = channels.filter((c) => c.path !== "weights" && nodes.has(c.node)).length;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  });
  return best;
}

/**
 * Builds one clip from checked channels (from one animation, or several when merging) bound to
 * `skeleton`. Joint channels become JointTracks; morph `weights` channels become FloatTracks. A channel
 * on a node that is not one of the skeleton's joints, or a second channel for the same joint and path,
 * is reported (warning) and left out.
 */
export function buildClip(
  name: string,
  channels: readonly ChannelData[],
  skeleton: GltfSkeleton,
  nodeName: (node: number) => string,
  sink: DiagnosticSink,
): Clip {
  const sk = skeleton.skeleton;
  const jointOf = new Map<number, number>();
  sk.sourceIndex.forEach((n, j) => jointOf.set(n, j));
  const tracks: JointTrack[] = [];
  const floatTracks: FloatTrack[] = [];
  const taken = new Map<number, ChannelData>();
  const weightsTaken = new Map<number, ChannelData>();
  for (const ch of channels) {
    const p = ptr("animations", ch.animation, "channels", ch.channel);
    if (ch.path === "weights") {
      const prior = weightsTaken.get(ch.node);
      if (prior) {
        sink.warning("W_GLTF_DUPLICATE_CHANNEL", p, `node ${ch.node} ("${nodeName(ch.node)}") already has a weights channel (/animations/${prior.animation}/channels/${prior.channel}); this one is left out of clip "${name}"`);
        continue;
      }
      weightsTaken.set(ch.node, ch);
      floatTracks.push({ target: nodeName(ch.node), node: ch.node, count: ch.width, interpolation: ch.interpolation, times: ch.times, values: ch.values });
      continue;
    }
    const joint = jointOf.get(ch.node);
    if (joint === undefined) {
      sink.warning("W_GLTF_CHANNEL_NOT_JOINT", p, `the ${ch.path} channel animates node ${ch.node} ("${nodeName(ch.node)}"), which is not a joint of the skeleton; it is left out of clip "${name}"`);
      continue;
    }
    const slot = 3 * joint + SLOT[ch.path];
    const prior = taken.get(slot);
    if (prior) {
      sink.warning("W_GLTF_DUPLICATE_CHANNEL", p, `joint "${sk.names[joint]}" already has a ${ch.path} channel (/animations/${prior.animation}/channels/${prior.channel}); this one is left out of clip "${name}"`);
      continue;
    }
    taken.set(slot, ch);
    tracks.push({
      joint,
      path: ch.path,
      interpolation: ch.interpolation,
      stride: ch.path === "rotation" ? 4 : 3,
      times: ch.times,
      values: ch.values,
    });
  }
  // Tracks in joint order, then translation/rotation/scale: a stable layout whatever the file's order.
  tracks.sort((x, y) => x.joint - y.joint || SLOT[x.path] - SLOT[y.path]);
  return createClip({ name, skeleton: sk, tracks, floatTracks });
}
