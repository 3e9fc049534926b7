import { createClip, type Clip, type JointTrack } from "../clip/clip.ts";
import { createClipCursor } from "../clip/clip-cursor.ts";
import { sampleClip } from "../clip/sample-clip.ts";
import { quatInvert, quatMultiply, quatRotateVec3 } from "../math/quat.ts";
import { createPose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { compileBoneMap, type CompileBoneMapOptions, type CompiledBoneMap } from "./compile-bone-map.ts";
import { modelFrames } from "./model-frames.ts";
import type { BoneMap } from "./propose-bone-map.ts";

export interface RetargetOptions extends CompileBoneMapOptions {
  /** Name of the new clip. Default: the source clip's name. */
  readonly name?: string;
  /**
   * Keys per second of the result. Default: the source clip's own key times (the union over its
   * tracks), which keeps a BVH's frames one to one.
   */
  readonly sampleRate?: number;
  /**
   * Put the target on its own ground: the trajectory's vertical offset is shifted so that when the
   * source's feet are at their lowest in this clip, the target's feet are at their reference height
   * above its lowest joint (so a capture whose ankle joints sit 9 cm above the floor does not make a
   * character whose foot joints are at its soles float). Default false: p_target = k · C · p_source exactly.
   */
  readonly groundFeet?: boolean;
}

/**
 * Plays `clip` (bound to `source`) on `target`: returns a new LINEAR clip bound to `target`.
 *
 * Per key, the source pose is sampled and taken to model space. For each mapped target bone t ← s:
 * rotation `Qt(t) = C · Qs(t) · Qs0⁻¹ · C⁻¹ · A_t · Qt0` in model space (the source's rotation away from
 * its rest, carried into the target's axes by C and applied to the target's rest, optionally swung by A
 * onto the source's rest direction), then made local with the target parent's model rotation this key;
 * translation: bones that carry the trajectory (the root, and bones whose parent chain differs, such as
 * IK feet hanging from the root) are placed at `k · C · Ps(t)` in model space (k = hip height ratio);
 * other mapped bones get `t0 + r · F · (ts(t) − ts0)` (r = l_target / l_source, F the rest-frame change),
 * which is their rest offset unless the source animates it. Unmapped target bones keep their rest pose
 * (and follow their parents). Scale tracks are not transferred. See docs/retargeting.md.
 *
 * `map` may be a BoneMap (compiled here; a map naming unknown bones is a programmer error and throws —
 * validate user files with readBoneMap / compileBoneMap first) or a CompiledBoneMap for these skeletons.
 */
export function retargetClip(clip: Clip, source: Skeleton, target: Skeleton, map: BoneMap | CompiledBoneMap, options: RetargetOptions = {}): Clip {
  if (clip.skeleton !== source) throw new Error(`retargetClip: clip "${clip.name}" is not bound to the source skeleton`);
  let compiled: CompiledBoneMap;
  if ("sourceOf" in map) {
    if (map.source !== source || map.target !== target) throw new Error("retargetClip: the compiled bone map is for other skeletons");
    compiled = map;
  } else {
    const result = compileBoneMap(map, source, target, options);
    if (!result.compiled) throw new RangeError(`retargetClip: ${result.diagnostics.map((d) => d.message).join("; ")}`);
    compiled = result.compiled;
  }
  const times = keyTimes(clip, options.sampleRate);
  const n = times.length;
  const JT = target.jointCount;
  const JS = source.jointCount;
  const { sourceOf, ratio, positionDriven, post, translationFrame, frame, rootMotionScale: k } = compiled;

  // Which target joints get tracks.
  const rotValues: (Float32Array | undefined)[] = new Array(JT);
  const posValues: (Float32Array | undefined)[] = new Array(JT);
  for (let t = 0; t < JT; t++) {
    const s = sourceOf[t]!;
    if (s < 0) continue;
    rotValues[t] = new Float32Array(4 * n);
    if (positionDriven[t] || clip.trackIndex[3 * s]! >= 0) posValues[t] = new Float32Array(3 * n);
  }

  const pose = createPose(JS);
  const cursor = createClipCursor(clip);
  const sq = new Float64Array(4 * JS), sp = new Float64Array(3 * JS), ss = new Float64Array(JS);
  // Vertical offset (target model space) added to position-driven bones.
  const offset = new Float64Array(3);
  const [footL, footR] = [compiled.sourceFeet[0]!, compiled.sourceFeet[1]!];
  if (options.groundFeet && footL >= 0 && footR >= 0) {
    const up = compiled.sourceUp;
    let lowest = Infinity;
    for (let f = 0; f < n; f++) {
      sampleClip(pose, clip, times[f]!, cursor);
      modelFrames(sq, sp, ss, source, pose);
      for (const j of [footL, footR]) lowest = Math.min(lowest, sp[3 * j]! * up[0]! + sp[3 * j + 1]! * up[1]! + sp[3 * j + 2]! * up[2]!);
    }
    quatRotateVec3(offset, 0, frame, 0, up, 0);
    const d = compiled.targetFootHeight - k * lowest;
    for (let c = 0; c < 3; c++) offset[c] = d * offset[c]!;
  }
  const tq = new Float64Array(4 * JT), tp = new Float64Array(3 * JT), tsc = new Float64Array(JT);
  const local = new Float64Array(4);
  const inv = new Float64Array(4);
  const v = new Float64Array(3);
  const rest = target.rest;
  const srcRest = source.rest;

  for (let f = 0; f < n; f++) {
    sampleClip(pose, clip, times[f]!, cursor);
    modelFrames(sq, sp, ss, source, pose);
    for (let t = 0; t < JT; t++) {
      const parent = target.parents[t]!;
      const s = sourceOf[t]!;
      // Local rotation.
      if (s >= 0) {
        quatMultiply(tq, 4 * t, frame, 0, sq, 4 * s);
        quatMultiply(tq, 4 * t, tq, 4 * t, post, 4 * t);
        if (parent >= 0) {
          quatInvert(inv, 0, tq, 4 * parent);
          quatMultiply(local, 0, inv, 0, tq, 4 * t);
        } else local.set(tq.subarray(4 * t, 4 * t + 4));
        normalise(local);
        storeRotation(rotValues[t]!, f, local);
      } else {
        local[0] = rest.r[4 * t]!;
        local[1] = rest.r[4 * t + 1]!;
        local[2] = rest.r[4 * t + 2]!;
        local[3] = rest.r[4 * t + 3]!;
        if (parent >= 0) quatMultiply(tq, 4 * t, tq, 4 * parent, local, 0);
        else tq.set(local, 4 * t);
      }
      // Local translation, then the model position.
      const ps = parent >= 0 ? tsc[parent]! : 1;
      if (s >= 0 && positionDriven[t]) {
        for (let c = 0; c < 3; c++) v[c] = k * sp[3 * s + c]!;
        quatRotateVec3(tp, 3 * t, frame, 0, v, 0);
        for (let c = 0; c < 3; c++) tp[3 * t + c] = tp[3 * t + c]! + offset[c]!;
        if (parent >= 0) {
          for (let c = 0; c < 3; c++) v[c] = (tp[3 * t + c]! - tp[3 * parent + c]!) / ps;
          quatInvert(inv, 0, tq, 4 * parent);
          quatRotateVec3(v, 0, inv, 0, v, 0);
        } else v.set(tp.subarray(3 * t, 3 * t + 3));
        posValues[t]!.set(v, 3 * f);
      } else {
        if (s >= 0 && posValues[t]) {
          for (let c = 0; c < 3; c++) v[c] = pose.t[3 * s + c]! - srcRest.t[3 * s + c]!;
          quatRotateVec3(v, 0, translationFrame, 4 * t, v, 0);
          for (let c = 0; c < 3; c++) v[c] = rest.t[3 * t + c]! + ratio[t]! * v[c]!;
          posValues[t]!.set(v, 3 * f);
        } else {
          v[0] = rest.t[3 * t]!;
          v[1] = rest.t[3 * t + 1]!;
          v[2] = rest.t[3 * t + 2]!;
        }
        if (parent >= 0) {
          for (let c = 0; c < 3; c++) v[c] = ps * v[c]!;
          quatRotateVec3(v, 0, tq, 4 * parent, v, 0);
          for (let c = 0; c < 3; c++) tp[3 * t + c] = tp[3 * parent + c]! + v[c]!;
        } else tp.set(v, 3 * t);
      }
      tsc[t] = ps * rest.s[3 * t]!;
    }
  }

  const tracks: JointTrack[] = [];
  for (let t = 0; t < JT; t++) {
    const pv = posValues[t];
    if (pv) tracks.push({ joint: t, path: "translation", interpolation: "LINEAR", stride: 3, times, values: pv });
    const rv = rotValues[t];
    if (rv) tracks.push({ joint: t, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rv });
  }
  return createClip({ name: options.name ?? clip.name, skeleton: target, tracks, loopMode: clip.loopMode });
}

/** The source's key times (sorted union over its tracks), or a uniform grid at `rate` keys per second. */
function keyTimes(clip: Clip, rate: number | undefined): Float32Array {
  if (rate !== undefined) {
    if (!(Number.isFinite(rate) && rate > 0)) throw new RangeError(`retargetClip: sampleRate must be > 0, got ${rate}`);
    const span = clip.duration - clip.startTime;
    const count = Math.max(1, Math.round(span * rate) + 1);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = count === 1 ? clip.startTime : clip.startTime + (span * i) / (count - 1);
    return out;
  }
  const first = clip.tracks[0]?.times;
  if (first && clip.tracks.every((tr) => tr.times === first)) return first;
  const all = new Set<number>();
  for (const tr of clip.tracks) for (const x of tr.times) all.add(x);
  if (all.size === 0) all.add(clip.startTime);
  return Float32Array.from([...all].sort((a, b) => a - b));
}

function normalise(q: Float64Array): void {
  const len = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  q[0] = q[0]! / len;
  q[1] = q[1]! / len;
  q[2] = q[2]! / len;
  q[3] = q[3]! / len;
}

/** Stores key f, flipped into the previous key's hemisphere so LINEAR interpolation takes the short way. */
function storeRotation(values: Float32Array, f: number, q: Float64Array): void {
  let sign = 1;
  if (f > 0) {
    const p = 4 * (f - 1);
    if (q[0]! * values[p]! + q[1]! * values[p + 1]! + q[2]! * values[p + 2]! + q[3]! * values[p + 3]! < 0) sign = -1;
  }
  values[4 * f] = sign * q[0]!;
  values[4 * f + 1] = sign * q[1]!;
  values[4 * f + 2] = sign * q[2]!;
  values[4 * f + 3] = sign * q[3]!;
}
