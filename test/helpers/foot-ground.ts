// The foot-ground figure measured from a written glTF file alone: how far any joint of a foot's subtree
// (the foot, its toes, their end joints) goes below the height it has in the rest pose (standing on the
// floor), in % of that leg's rest length (upper→lower→foot), over the clip sampled at 120 Hz, at its keys and
// at 15 points between every two consecutive keys.
// Also the largest change of a leg bone's length, in % (world space, Y up as glTF is).
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { descendantsOf } from "../../src/skeleton/skeleton.ts";

export interface FootGround {
  /** Max depth below the rest height, over the foot subtrees, in % of the leg length. */
  readonly depthPercent: number;
  /** The joint that went deepest. */
  readonly deepest: string;
  /** Max |bone length − rest length| / rest length over the legs' bones (upper→lower→foot→toes→ends), in %. */
  readonly boneLengthPercent: number;
  /** The joint whose bone (from its parent, or the foot from its lower leg) changed most. */
  readonly worstBone: string;
}

/** Samples per gap between consecutive keys (the gap split in this many parts). */
const BETWEEN_KEYS = 16;

/** `legs`: per leg the names of the upper leg, lower leg and foot joints. */
export async function measureFootGround(bytes: Uint8Array, clipName: string, legs: ReadonlyArray<readonly [string, string, string]>): Promise<FootGround> {
  const r = await loadGltfFile(bytes, { fileName: "measured.glb" });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join("; "));
  const skeleton = r.skeletons[0]!;
  const clip = r.clips.find((c) => c.name === clipName && c.skeleton === skeleton);
  if (!clip) throw new Error(`no clip ${clipName}`);
  const J = skeleton.jointCount, root = r.rootTransforms[0]!;
  const idx = (n: string): number => {
    const j = skeleton.indexOf.get(n);
    if (j === undefined) throw new Error(`no joint ${n}`);
    return j;
  };
  const rest = new Float32Array(16 * J), m = new Float32Array(16 * J);
  localToModel(rest, skeleton, skeleton.rest, root);
  const at = (a: Float32Array, j: number): [number, number, number] => [a[16 * j + 12]!, a[16 * j + 13]!, a[16 * j + 14]!];
  const dist = (a: Float32Array, i: number, j: number): number => Math.hypot(...at(a, i).map((x, c) => x - at(a, j)[c]!) as [number, number, number]);
  const watched: Array<{ joint: number; leg: number }> = [];
  const bones: Array<[number, number]> = [];
  for (const [u, l, f] of legs) {
    const leg = dist(rest, idx(u), idx(l)) + dist(rest, idx(l), idx(f));
    bones.push([idx(l), idx(u)], [idx(f), idx(l)]);
    for (const j of [idx(f), ...descendantsOf(skeleton, idx(f)).filter((d) => d !== idx(f))]) {
      watched.push({ joint: j, leg });
      if (j !== idx(f)) bones.push([j, skeleton.parents[j]!]);
    }
  }
  const times: number[] = [];
  const n = Math.max(1, Math.ceil(clip.duration * 120));
  for (let i = 0; i <= n; i++) times.push(clip.startTime + (i / n) * clip.duration);
  // Every key, and densely between consecutive keys (a player may sample at any time).
  const keys = [...new Set(clip.tracks.flatMap((t) => [...t.times]))].sort((a, b) => a - b);
  for (let i = 0; i < keys.length; i++) {
    times.push(keys[i]!);
    if (i + 1 < keys.length) for (let k = 1; k < BETWEEN_KEYS; k++) times.push(keys[i]! + (k / BETWEEN_KEYS) * (keys[i + 1]! - keys[i]!));
  }
  const pose = createPose(J), cursor = createClipCursor(clip);
  let depth = 0, deepest = "", bone = 0, worstBone = "";
  for (const t of times) {
    sampleClip(pose, clip, t, cursor);
    localToModel(m, skeleton, pose, root);
    for (const w of watched) {
      const d = (rest[16 * w.joint + 13]! - m[16 * w.joint + 13]!) / w.leg;
      if (d > depth) {
        depth = d;
        deepest = skeleton.names[w.joint]!;
      }
    }
    for (const [j, p] of bones) {
      const l0 = dist(rest, j, p);
      const change = l0 > 0 ? Math.abs(dist(m, j, p) - l0) / l0 : 0;
      if (change > bone) {
        bone = change;
        worstBone = skeleton.names[j]!;
      }
    }
  }
  return { depthPercent: 100 * depth, deepest, boneLengthPercent: 100 * bone, worstBone };
}
