import type { Clip } from "../../clip/clip.ts";
import { createClipCursor } from "../../clip/clip-cursor.ts";
import { sampleClipUnchecked } from "../../clip/sample-clip.ts";
import { quatToEuler } from "../../math/euler.ts";
import type { EulerOrder } from "../../math/quat.ts";
import { expectClip, expectObject, expectOptionalObject, invalidValue } from "../../errors/check-argument.ts";
import { createPose } from "../../pose/pose.ts";
import type { BvhData } from "./parse-bvh.ts";

/** Options of `formatBvh`: the unit scale the clip was read with and the decimals written. */
export interface FormatBvhOptions {
  /** The `scale` the BVH was parsed with (the clip's translations are divided by it). Default 1. */
  readonly scale?: number;
  /** Decimals of every motion value (degrees, file units). Default 6, as the CMU files. */
  readonly decimals?: number;
}

/** What `formatBvh` returns: the text, or the joints whose motion the file's channels cannot hold. */
export interface FormatBvhResult {
  /** Absent when a problem was found. */
  readonly text?: string;
  /** One line per problem, naming the joint (a rotation about an axis it has no channel for, a position without a channel). */
  readonly problems: readonly string[];
}

const RAD = 180 / Math.PI;
/** A rotation a joint's channels cannot express by more than this many radians is a problem. */
const CHANNEL_TOLERANCE = 1e-5;

/**
 * BVH text of `clip` in the layout of an existing BVH file (`data` from parseBvh: joint names, OFFSETs,
 * CHANNELS and their Euler orders, End Sites, frame count and frame time), e.g. a mirrored take written
 * beside its source. Each frame line holds the clip sampled at frame × Frame Time; positions are written
 * as translation ÷ scale − OFFSET, rotations as Euler angles in each joint's channel order (degrees),
 * each angle kept within 180° of the previous frame's (choosing between the two Euler solutions and
 * adding whole turns), so a spin stays a spin. The clip's skeleton must be the file's (same joints;
 * another joint count is AnimgraphError ERR_SKELETON_MISMATCH).
 */
export function formatBvh(data: BvhData, clip: Clip, options: FormatBvhOptions = {}): FormatBvhResult {
  const fn = "formatBvh";
  expectObject(fn, "data", data);
  const shape = data as { joints?: unknown; endSites?: unknown; frameCount?: unknown; frameTime?: unknown };
  if (!Array.isArray(shape.joints) || !Array.isArray(shape.endSites) || typeof shape.frameCount !== "number" || typeof shape.frameTime !== "number") {
    throw invalidValue(fn, "data", "not the BvhData of a parsed file (joints, endSites, frameCount, frameTime)");
  }
  expectClip(fn, "clip", clip, data.joints.length);
  expectOptionalObject(fn, "options", options);
  const scale = options.scale ?? 1;
  const decimals = options.decimals ?? 6;
  const joints = data.joints;
  const J = joints.length;
  const problems: string[] = [];
  const parents = clip.skeleton.parents;
  const lines: string[] = ["HIERARCHY"];
  const children: number[][] = joints.map(() => []);
  for (let j = 0; j < J; j++) if (parents[j]! >= 0) children[parents[j]!]!.push(j);
  // -0 stays -0 (String(-0) is "0"), so an OFFSET reads back exactly as it was.
  const fmt = (v: number): string => (Object.is(v, -0) ? "-0" : String(v));
  const writeJoint = (j: number, depth: number): void => {
    const pad = "\t".repeat(depth);
    const info = joints[j]!;
    lines.push(`${pad}${depth === 0 ? "ROOT" : "JOINT"} ${info.name}`, `${pad}{`);
    lines.push(`${pad}\tOFFSET ${info.offset.map(fmt).join(" ")}`);
    lines.push(`${pad}\tCHANNELS ${info.channels.length}${info.channels.map((c) => ` ${c}`).join("")}`);
    for (const c of children[j]!) writeJoint(c, depth + 1);
    for (const end of data.endSites) {
      if (end.parent !== j) continue;
      lines.push(`${pad}\tEnd Site`, `${pad}\t{`, `${pad}\t\tOFFSET ${end.offset.map(fmt).join(" ")}`, `${pad}\t}`);
    }
    lines.push(`${pad}}`);
  };
  for (let j = 0; j < J; j++) if (parents[j]! < 0) writeJoint(j, 0);
  lines.push("MOTION", `Frames: ${data.frameCount}`, `Frame Time: ${fmt(data.frameTime)}`);

  // Per joint: the Euler order to decompose in (the listed rotation axes, completed with the missing
  // ones, which must then come out 0) and the previous frame's angles for continuity.
  const orders = joints.map((info) => {
    const listed = info.eulerOrder;
    return (listed + "XYZ".split("").filter((a) => !listed.includes(a)).join("")) as EulerOrder;
  });
  const previous = new Float64Array(3 * J).fill(NaN);
  const pose = createPose(J);
  const cursor = createClipCursor(clip);
  const euler = new Float64Array(3);
  const alt = new Float64Array(3);
  const reported = new Uint8Array(J);
  for (let f = 0; f < data.frameCount; f++) {
    // At the float32 key times parseBvh gives the frames, so a key is hit exactly, not interpolated next to.
    sampleClipUnchecked(pose, clip, Math.fround(f * data.frameTime), cursor);
    const values: string[] = [];
    for (let j = 0; j < J; j++) {
      const info = joints[j]!;
      const rotations = info.eulerOrder.length;
      if (rotations > 0) {
        quatToEuler(euler, 0, pose.r, 4 * j, orders[j]!);
        if (rotations === 3) {
          // The other solution of the same rotation: (a + π, π − b, c + π).
          alt[0] = euler[0]! + Math.PI;
          alt[1] = Math.PI - euler[1]!;
          alt[2] = euler[2]! + Math.PI;
          if (!Number.isNaN(previous[3 * j]!) && distance(alt, previous, 3 * j) < distance(euler, previous, 3 * j)) euler.set(alt);
        } else if (!reported[j] && [1, 2].some((k) => k >= rotations && Math.abs(wrap(euler[k]!)) > CHANNEL_TOLERANCE)) {
          reported[j] = 1;
          problems.push(`joint "${info.name}" rotates about an axis it has no channel for (its channels: ${info.channels.filter((c) => c.endsWith("rotation")).join(" ")}), at frame ${f}`);
        }
        for (let k = 0; k < 3; k++) {
          const p = previous[3 * j + k]!;
          let v = euler[k]!;
          if (!Number.isNaN(p)) v -= 2 * Math.PI * Math.round((v - p) / (2 * Math.PI));
          previous[3 * j + k] = v;
          euler[k] = v;
        }
      }
      let r = 0;
      for (const channel of info.channels) {
        const axis = channel.charCodeAt(0) - 88;
        if (channel.endsWith("position")) values.push((pose.t[3 * j + axis]! / scale - info.offset[axis]!).toFixed(decimals));
        else values.push((euler[r++]! * RAD).toFixed(decimals));
      }
      for (let axis = 0; axis < 3; axis++) {
        if (reported[j] || info.channels.includes(`${"XYZ"[axis]}position` as never)) continue;
        const drift = Math.abs(pose.t[3 * j + axis]! / scale - info.offset[axis]!);
        if (drift > 1e-4 * (1 + Math.abs(info.offset[axis]!))) {
          reported[j] = 1;
          problems.push(`joint "${info.name}" moves along ${"XYZ"[axis]} but has no ${"XYZ"[axis]}position channel, at frame ${f}`);
        }
      }
    }
    lines.push(values.join(" "));
  }
  return problems.length > 0 ? { problems } : { text: `${lines.join("\n")}\n`, problems };
}

function wrap(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}

/** Sum of the angular distances (modulo whole turns) between three angles and the previous frame's. */
function distance(e: Float64Array, prev: Float64Array, o: number): number {
  let d = 0;
  for (let k = 0; k < 3; k++) d += Math.abs(wrap(e[k]! - prev[o + k]!));
  return d;
}
