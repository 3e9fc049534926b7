import type { Clip } from "../clip/clip.ts";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { mat4Decompose } from "../math/mat4.ts";
import { quatFromAxisAngle, quatIdentity, quatInvert, quatMultiply, quatRotateVec3 } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { skeletonRoles } from "./classify-by-topology.ts";
import { findAnimatedRoot, isAncestor } from "./find-animated-root.ts";
import { modelFrames } from "./model-frames.ts";
import type { BoneMap } from "./propose-bone-map.ts";
import { readBoneMap } from "./read-bone-map.ts";
import type { JsonInput } from "../json/document-from-value.ts";
import { argumentError, expectClip, expectPose, expectSkeleton } from "../errors/check-argument.ts";
import { expectArrayOfShape, expectShape, type FieldKind } from "../errors/check-shape.ts";

/** How `compileBoneMap` prepares a retarget: rest alignment, root-motion scale and reference poses. */
export interface CompileBoneMapOptions {
  /**
   * Swing each mapped target bone's rest so it points where the source bone points at rest (so an
   * A-posed character plays a T-posed capture with its arms where the capture has them). Default true.
   */
  readonly alignRest?: boolean;
  /** Scale of the root trajectory and of position-driven bones. Default: hip height target / source. */
  readonly rootMotionScale?: number;
  /**
   * The source's reference pose (local), default its rest pose. The rotation a clip applies is measured
   * from it. Pass `bindPose(source, …)` for a glTF source whose nodes do not hold the bind pose.
   */
  readonly sourceRest?: Pose;
  /** The target's reference pose (local), default its rest pose; `bindPose(target, …)` for glTF targets. */
  readonly targetRest?: Pose;
  /** File name used in diagnostics. Default `<bone map>`. */
  readonly file?: string;
  /**
   * The target joint that carries the trajectory (a bone map's `root`). Default: found by
   * `findAnimatedRoot` from the pelvis, legs and spine the map drives and `targetClips`.
   */
  readonly targetRoot?: string;
  /** The target character's own clips: the animated root is the topmost joint above the pelvis they animate. */
  readonly targetClips?: readonly Clip[];
}

/**
 * A bone map resolved against two skeletons, with everything `retargetClip` needs per target joint in
 * typed arrays (built once, reused for every clip between the two skeletons).
 */
export interface CompiledBoneMap {
  readonly source: Skeleton;
  readonly target: Skeleton;
  /** Per target joint: the source joint driving it, -1 when unmapped (it keeps its rest pose). */
  readonly sourceOf: Int16Array;
  /** Per target joint: r = l_target / l_source (rest offset lengths; rootMotionScale when l_source ≈ 0; 1 unmapped). */
  readonly ratio: Float32Array;
  /** Per target joint: mapping confidence 0–1 (0 unmapped). */
  readonly confidence: Float32Array;
  /** Per target joint: 1 when its translation is set from the scaled model-space source position (root, IK-style bones). */
  readonly positionDriven: Uint8Array;
  /** Per target joint: 1 when its nearest mapped ancestor is driven by the source bone's nearest mapped ancestor (a source translation then carries over, scaled by r). */
  readonly sameChain: Uint8Array;
  /** The source joint whose position is the root trajectory (the hips when mapped), -1 if none. */
  readonly rootSource: number;
  /** The target joint it drives, -1 if none. */
  readonly rootTarget: number;
  /** k: the root trajectory and position-driven bones are scaled by it (hip height ratio by default). */
  readonly rootMotionScale: number;
  /** C: rotation from the source's model axes to the target's (x, y, z, w), from hips, legs and feet. */
  readonly frame: Float64Array;
  /** Per target joint: rotation applied after the source's delta, Post = Qs0⁻¹ · C⁻¹ · A · Qt0 (4 per joint). */
  readonly post: Float64Array;
  /** Per target joint: maps a source local translation delta into the target parent's rest frame (4 per joint). */
  readonly translationFrame: Float64Array;
  /** Per target joint: the rest-alignment swing A (identity when not aligned), 4 per joint. */
  readonly align: Float64Array;
  /** The source's two foot joints (left, right) when hips, upper legs and feet are mapped, else [-1, -1]. */
  readonly sourceFeet: Int16Array;
  /** Unit up vector of the source's model space (x, y, z) (+Y when unknown). */
  readonly sourceUp: Float64Array;
  /**
   * Height of the target's feet above its floor (the model origin, or its lowest joint if lower) in its reference pose, along its up axis (≥ 0):
   * where `groundFeet` puts the target's feet when the source's are at their lowest.
   */
  readonly targetFootHeight: number;
  /**
   * The target joint the source's pelvis was mapped to (it follows `rootTarget` when the two differ, as
   * RobotExpressive's `Hips` follows `Body`); -1 when the source's hips are not mapped.
   */
  readonly targetPelvis: number;
  /**
   * Legs, 8 joints: upper leg, lower leg, foot, toes (-1 when absent) of the left then the right leg, on
   * the target; a side is all -1 unless its upper leg, lower leg and foot are mapped.
   */
  readonly legs: Int16Array;
  /** The source joints driving `legs`, same layout. */
  readonly sourceLegs: Int16Array;
  /**
   * Per side (left, right): 1 when the map leaves out that leg's hip joint, knee or foot and `legs` holds the
   * target's own joint there: the leg IK then takes the foot where the source's foot is (scaled by k).
   */
  readonly completedLegs: Uint8Array;
  /** Unit up and forward (facing) vectors of the target's model space. */
  readonly targetUp: Float64Array;
  readonly targetForward: Float64Array;
  /** Hip heights (the hip joints above the floor, along up) of both reference poses; 0 when unknown. */
  readonly sourceHipHeight: number;
  readonly targetHipHeight: number;
  /** Reference heights above the target's floor of foot L, toes L, foot R, toes R (where they touch the ground), 0 when absent. */
  readonly targetGround: Float64Array;
}

/** What `compileBoneMap` returns: the compiled map (when every name resolves) and every problem found. */
export interface CompileBoneMapResult {
  /** Absent when the map names bones the skeletons do not have or uses one twice. */
  readonly compiled?: CompiledBoneMap;
  /** Errors at `/entries/<i>` of the map, and warnings about a missing frame or root. */
  readonly diagnostics: Diagnostic[];
}

const EPS = 1e-9;

const OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = {
  alignRest: "boolean?", rootMotionScale: "number?", sourceRest: "object?", targetRest: "object?", file: "string?", targetRoot: "string?", targetClips: "array?",
};
/** A BoneMapEntry as code writes it: `confidence` may be left out (1, as an explicit entry). */
const ENTRY_SHAPE: Readonly<Record<string, FieldKind>> = { source: "string", target: "string", confidence: "number?" };

/**
 * Resolves a name-based bone map to indices and precomputes the retarget frames (see
 * docs/retargeting.md). `map` is a BoneMap (`{ entries }`, as `proposeBoneMap` and `readBoneMap` give),
 * or a bone-map file's content as `readBoneMap` takes it — JSON text, a parsed document or the plain
 * object (`{ "Hips": "mixamorig:Hips", … }` or the rich form with `bones`); the file's settings
 * (rootMotionScale, alignRest, root) apply unless `options` sets them, and its problems come back as
 * diagnostics at their JSON pointers. Errors: E_BONEMAP_UNKNOWN_SOURCE / _TARGET, E_BONEMAP_DUPLICATE_SOURCE / _TARGET
 * at `/entries/<i>`. Warnings: W_RETARGET_NO_FRAME (at the root's entry) when hips, both upper legs and both
 * feet are not mapped (rotations are then carried over as if the skeletons shared axes, and the root keeps
 * the target's rest position, moving by the source's motion beyond its rest × r), W_RETARGET_NO_ROOT when nothing is
 * mapped. Wrong-typed arguments (a number for a skeleton, a pose of another skeleton as `sourceRest`)
 * are AnimgraphError.
 */
export function compileBoneMap(map: BoneMap | JsonInput, source: Skeleton, target: Skeleton, options: CompileBoneMapOptions = {}): CompileBoneMapResult {
  const fn = "compileBoneMap";
  expectSkeleton(fn, "source", source);
  expectSkeleton(fn, "target", target);
  expectShape(fn, "options", options, "a CompileBoneMapOptions object", OPTIONS_SHAPE);
  if (options.sourceRest !== undefined) expectPose(fn, "options.sourceRest", options.sourceRest, source.jointCount);
  if (options.targetRest !== undefined) expectPose(fn, "options.targetRest", options.targetRest, target.jointCount);
  if (options.targetClips !== undefined) options.targetClips.forEach((clip, i) => expectClip(fn, `options.targetClips[${i}]`, clip, target.jointCount));
  if (typeof map !== "string" && (typeof map !== "object" || map === null || Array.isArray(map))) {
    throw argumentError(fn, "map", "a BoneMap ({ entries }), or a bone-map file's JSON text, parsed document or object", map);
  }
  const entries = typeof map === "object" ? (map as Partial<BoneMap>).entries : undefined;
  if (Array.isArray(entries)) {
    expectArrayOfShape(fn, "map.entries", entries, "BoneMapEntry ({ source, target, confidence? })", ENTRY_SHAPE);
    return compileBoneMapUnchecked(map as BoneMap, source, target, options);
  }
  // A bone-map file's content: read it as `animgraph retarget --map` does.
  const read = readBoneMap(map, source, target);
  const file = options.file;
  const located = file === undefined ? read.diagnostics : read.diagnostics.map((d) => (d.file === "<bone map>" ? { ...d, file } : d));
  if (!read.map) return { diagnostics: located };
  const { settings } = read;
  const compiled = compileBoneMapUnchecked(read.map, source, target, {
    ...(settings.alignRest !== undefined ? { alignRest: settings.alignRest } : {}),
    ...(settings.rootMotionScale !== undefined ? { rootMotionScale: settings.rootMotionScale } : {}),
    ...(settings.root !== undefined ? { targetRoot: settings.root } : {}),
    ...options,
  });
  return { ...compiled, diagnostics: [...located, ...compiled.diagnostics] };
}

/** `compileBoneMap` for a BoneMap whose arguments were checked: what retargetClip and the CLI reach through it. */
function compileBoneMapUnchecked(map: BoneMap, source: Skeleton, target: Skeleton, options: CompileBoneMapOptions): CompileBoneMapResult {
  const file = options.file ?? "<bone map>";
  const diagnostics: Diagnostic[] = [];
  const report = (code: string, pointer: string, message: string, severity: Diagnostic["severity"] = "error"): void => {
    diagnostics.push({ code, severity, file, pointer, message });
  };
  const JT = target.jointCount;
  const JS = source.jointCount;
  const sourceOf = new Int16Array(JT).fill(-1);
  const confidence = new Float32Array(JT);
  const sourceUsed = new Uint8Array(JS);
  map.entries.forEach((e, i) => {
    const s = source.indexOf.get(e.source);
    const t = target.indexOf.get(e.target);
    const at = `/entries/${i}`;
    if (s === undefined) return report("E_BONEMAP_UNKNOWN_SOURCE", at, `"${e.source}" is not a bone of the source skeleton`);
    if (t === undefined) return report("E_BONEMAP_UNKNOWN_TARGET", at, `"${e.target}" is not a bone of the target skeleton`);
    if (sourceOf[t]! >= 0) return report("E_BONEMAP_DUPLICATE_TARGET", at, `target bone "${e.target}" is mapped twice`);
    if (sourceUsed[s]) return report("E_BONEMAP_DUPLICATE_SOURCE", at, `source bone "${e.source}" is mapped twice`);
    sourceOf[t] = s;
    sourceUsed[s] = 1;
    confidence[t] = e.confidence ?? 1;
  });
  if (diagnostics.length > 0) return { diagnostics };

  // Rest frames of both skeletons in float64.
  const sq = new Float64Array(4 * JS), sp = new Float64Array(3 * JS), ss = new Float64Array(JS);
  const tq = new Float64Array(4 * JT), tp = new Float64Array(3 * JT), ts = new Float64Array(JT);
  const sourceRest = options.sourceRest ?? source.rest;
  const targetRest = options.targetRest ?? target.rest;
  modelFrames(sq, sp, ss, source, sourceRest);
  modelFrames(tq, tp, ts, target, targetRest);
  const targetOf = new Int32Array(JS).fill(-1);
  for (let t = 0; t < JT; t++) if (sourceOf[t]! >= 0) targetOf[sourceOf[t]!] = t;

  // Root: the source hips when mapped, else the first mapped source joint.
  const roles = skeletonRoles(source);
  let rootSource = -1;
  const hips = roles.get("hips");
  if (hips !== undefined && targetOf[hips]! >= 0) rootSource = hips;
  else for (let s = 0; s < JS && rootSource < 0; s++) if (targetOf[s]! >= 0) rootSource = s;
  let rootTarget = rootSource >= 0 ? targetOf[rootSource]! : -1;
  if (rootSource < 0) report("W_RETARGET_NO_ROOT", "", "no bone is mapped: the retargeted clip is the target's rest pose", "warning");

  // C and the hip heights, from hips, upper legs and feet mapped on both sides.
  const frame = new Float64Array([0, 0, 0, 1]);
  let hipRatio = 1;
  let frameFound = false;
  const sourceFeet = new Int16Array([-1, -1]);
  const sourceUp = new Float64Array([0, 1, 0]);
  let targetFootHeight = 0;
  let sourceHipHeight = 0, targetHipHeight = 0;
  const targetUp = new Float64Array([0, 1, 0]);
  const targetForward = new Float64Array([0, 0, 1]);
  let targetBasis: Float64Array | undefined;
  const frameRoles = ["hips", "upperLeg.L", "upperLeg.R", "foot.L", "foot.R"];
  const need = frameRoles.map((k) => roles.get(k));
  const targetRoles = skeletonRoles(target);
  // The frame's joints on the target: the mapped ones, and where the map (driving the hips) leaves out a
  // hip joint or a foot, the target's own undriven joint of that role: the axes and sizes are the
  // skeletons', whichever bones the map pairs. A user's map without "LeftHip" lost the frame and moved
  // RobotExpressive's root by CMU's inches (its rest offsets give no ratio), the feet 2,000 legs under ground.
  const completes = hips !== undefined && targetOf[hips]! >= 0;
  const ownJoint = (key: string, s: number | undefined): number => {
    if (s === undefined) return -1;
    if (targetOf[s]! >= 0) return targetOf[s]!;
    const t = completes ? targetRoles.get(key) : undefined;
    return t !== undefined && sourceOf[t]! < 0 ? t : -1;
  };
  const needT = frameRoles.map((k, i) => ownJoint(k, need[i]));
  if (needT.every((t) => t >= 0)) {
    const [h, ul, ur, fl, fr] = need as number[];
    const [th, tul, tur, tfl, tfr] = needT as [number, number, number, number, number];
    const bs = basis(sp, h!, ul!, ur!, fl!, fr!);
    const bt = basis(tp, th, tul, tur, tfl, tfr);
    if (bs && bt) {
      // C = Bt · Bsᵀ (columns: left, up, forward), as a quaternion.
      const m = new Float64Array(16);
      for (let col = 0; col < 3; col++) {
        for (let row = 0; row < 3; row++) {
          let v = 0;
          for (let k = 0; k < 3; k++) v += bt[3 * k + row]! * bs[3 * k + col]!;
          m[4 * col + row] = v;
        }
      }
      m[15] = 1;
      const scratchT = new Float64Array(3), scratchS = new Float64Array(3);
      if (mat4Decompose(scratchT, 0, frame, 0, scratchS, 0, m, 0)) {
        // Hip height: the hip joints (the upper legs), not the pelvis joint, which rigs put anywhere
        // (RobotExpressive's Hips sits 1.9 mm below its upper legs, a fifth of its leg length).
        const hs = 0.5 * (hipHeight(sp, JS, ul!, bs) + hipHeight(sp, JS, ur!, bs));
        const ht = 0.5 * (hipHeight(tp, JT, tul, bt) + hipHeight(tp, JT, tur, bt));
        if (hs > EPS && ht > EPS) hipRatio = ht / hs;
        sourceHipHeight = hs;
        targetHipHeight = ht;
        targetUp.set(bt.subarray(3, 6));
        targetForward.set(bt.subarray(6, 9));
        targetBasis = bt;
        frameFound = true;
        sourceFeet[0] = fl!;
        sourceFeet[1] = fr!;
        sourceUp.set(bs.subarray(3, 6));
        targetFootHeight = 0.5 * (hipHeight(tp, JT, tfl, bt) + hipHeight(tp, JT, tfr, bt));
      } else quatIdentity(frame, 0);
    }
  }
  const k = options.rootMotionScale ?? hipRatio;
  // The trajectory goes to the target's animated root (RobotExpressive: Body, the parent of Hips and of
  // both legs), not to whatever joint the pelvis was mapped to; the pelvis then follows the root.
  const targetPelvis = hips !== undefined ? targetOf[hips]! : -1;
  if (targetPelvis >= 0) {
    let rootT: number;
    if (options.targetRoot !== undefined) {
      const named = target.indexOf.get(options.targetRoot);
      if (named === undefined) {
        report("E_BONEMAP_UNKNOWN_TARGET", "/root", `"${options.targetRoot}" is not a bone of the target skeleton`);
        return { diagnostics };
      }
      rootT = named;
    } else {
      const anchors = [targetPelvis];
      for (const key of ["upperLeg.L", "upperLeg.R", "spine", "chest", "upperChest", "neck"]) {
        const s = roles.get(key);
        if (s !== undefined && targetOf[s]! >= 0) {
          anchors.push(targetOf[s]!);
          if (!key.startsWith("upperLeg")) break;
        }
      }
      rootT = findAnimatedRoot(target, anchors, options.targetClips);
    }
    if (rootT !== targetPelvis && rootT >= 0 && sourceOf[rootT]! < 0 && isAncestor(target, rootT, targetPelvis)) {
      sourceOf[rootT] = hips!;
      confidence[rootT] = confidence[targetPelvis]!;
      sourceOf[targetPelvis] = -1;
      confidence[targetPelvis] = 0;
      targetOf[hips!] = rootT;
      rootTarget = rootT;
      report("I_RETARGET_ROOT", "", `the source's "${source.names[hips!]}" drives "${target.names[rootT]}", the target's animated root; "${target.names[targetPelvis]}" follows it`, "info");
    }
  }
  // Without a frame the two skeletons' sizes and axes are unknown, so the root is not placed where the
  // source's is (RiggedSimple's root "Bone", 4.18 units below its origin, matched RobotExpressive's by name
  // alone and sank it 418 units): it keeps the target's rest placement and moves by what the source
  // animates beyond its own rest, scaled by r (rootMotionScale when given), like every other bone.
  let rootRatio = 1;
  if (!frameFound && rootSource >= 0) {
    const lt = Math.hypot(targetRest.t[3 * rootTarget]!, targetRest.t[3 * rootTarget + 1]!, targetRest.t[3 * rootTarget + 2]!);
    const ls = Math.hypot(sourceRest.t[3 * rootSource]!, sourceRest.t[3 * rootSource + 1]!, sourceRest.t[3 * rootSource + 2]!);
    rootRatio = options.rootMotionScale ?? (ls > EPS && lt > EPS ? lt / ls : 1);
    const entry = map.entries.findIndex((e) => e.source === source.names[rootSource]);
    report(
      "W_RETARGET_NO_FRAME", entry >= 0 ? `/entries/${entry}` : "",
      `"${source.names[rootSource]}" → "${target.names[rootTarget]}": hips, both upper legs and both feet are not all mapped, so the skeletons' axes and sizes are unknown: ` +
        `rotations are carried over as if both used the same axes, and the root keeps the target's rest position, moving only by what the source animates beyond its own rest × ${Number(rootRatio.toPrecision(3))} ` +
        `(${options.rootMotionScale !== undefined ? "rootMotionScale" : "the ratio of their rest offsets"}); map the hips, upper legs and feet for a full retarget`,
      "warning",
    );
  }

  // A quadruped (Fox) maps by names but lies along its spine: say what a humanoid capture will do to it.
  const spineTop = ["neck", "upperChest", "chest"].map((key) => roles.get(key)).find((j) => j !== undefined && targetOf[j]! >= 0);
  if (frameFound && targetPelvis >= 0 && spineTop !== undefined) {
    const top = targetOf[spineTop]!;
    const d = [0, 1, 2].map((c) => tp[3 * top + c]! - tp[3 * targetPelvis + c]!);
    const cos = (d[0]! * targetUp[0]! + d[1]! * targetUp[1]! + d[2]! * targetUp[2]!) / Math.hypot(d[0]!, d[1]!, d[2]!);
    const angle = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
    if (angle > 45) {
      report("W_RETARGET_NOT_UPRIGHT", "", `the target's spine lies ${angle.toFixed(0)}° from its up axis (a quadruped?): a humanoid capture stands it up on its hind legs, its front legs playing the arms`, "warning");
    }
  }
  const legs = new Int16Array(8).fill(-1);
  const sourceLegs = new Int16Array(8).fill(-1);
  const targetGround = new Float64Array(4);
  const completedLegs = new Uint8Array(2);
  ["L", "R"].forEach((side, i) => {
    const keys = ["upperLeg", "lowerLeg", "foot", "toes"].map((r) => `${r}.${side}`);
    const src = keys.map((key) => roles.get(key) ?? -1);
    const tgt = src.map((s2) => (s2 >= 0 ? targetOf[s2]! : -1));
    // A map that drives the hip and the foot but leaves the knee out (a user's map, or a rig whose knee the
    // names miss) still has a leg: the target's own knee, bent by the leg IK, as the toes below are found.
    // So has a leg whose hip joint or foot the map leaves out, once the frame is known: the leg IK then
    // takes the foot where the source's foot is (retargetClip).
    const partly = tgt.slice(0, 3).some((t) => t >= 0);
    for (let c = 0; c < 3; c++) {
      if (tgt[c]! >= 0 || src[c]! < 0 || !(c === 1 ? tgt[0]! >= 0 && tgt[2]! >= 0 : partly && frameFound)) continue;
      const own = targetRoles.get(keys[c]!) ?? -1;
      if (own >= 0 && sourceOf[own]! < 0) {
        tgt[c] = own;
        completedLegs[i] = 1;
      }
    }
    if (tgt.slice(0, 3).some((t) => t < 0)) {
      completedLegs[i] = 0;
      return;
    }
    for (let c = 0; c < 3; c++) {
      if (targetOf[src[c]!]! >= 0) continue;
      report("I_RETARGET_LEG_COMPLETED", "", `the map leaves out the source's "${source.names[src[c]!]}" (${keys[c]}): the target's own "${target.names[tgt[c]!]}" is turned by the leg IK, so that the foot goes where the source's foot goes`, "info");
    }
    if (tgt[3]! < 0) tgt[3] = targetRoles.get(keys[3]!) ?? -1;
    for (let c = 0; c < 4; c++) {
      legs[4 * i + c] = tgt[c]!;
      sourceLegs[4 * i + c] = src[c]!;
    }
    if (targetBasis) {
      targetGround[2 * i] = hipHeight(tp, JT, tgt[2]!, targetBasis);
      if (tgt[3]! >= 0) targetGround[2 * i + 1] = hipHeight(tp, JT, tgt[3]!, targetBasis);
    }
  });

  // Nearest mapped ancestors, to find bones whose parent chain differs (IK feet hanging from the root).
  const mappedAncestorT = nearestMapped(target, (t) => sourceOf[t]! >= 0);
  const mappedAncestorS = nearestMapped(source, (s) => targetOf[s]! >= 0);
  const positionDriven = new Uint8Array(JT);
  const sameChain = new Uint8Array(JT);
  const ratio = new Float32Array(JT).fill(1);
  const align = new Float64Array(4 * JT);
  const post = new Float64Array(4 * JT);
  const translationFrame = new Float64Array(4 * JT);
  const frameInv = quatInvert(new Float64Array(4), 0, frame, 0) as Float64Array;
  const tmp = new Float64Array(4);
  const roleOf = new Map<number, string>();
  for (const [key, j] of roles) roleOf.set(j, key);
  const alignRest = options.alignRest ?? true;
  const vt = new Float64Array(3), vs = new Float64Array(3);

  for (let t = 0; t < JT; t++) {
    quatIdentity(align, 4 * t);
    quatIdentity(post, 4 * t);
    quatIdentity(translationFrame, 4 * t);
    const s = sourceOf[t]!;
    if (s < 0) continue;
    const ta = mappedAncestorT[t]!;
    const sa = mappedAncestorS[s]!;
    // Placed in model space: the root, and bones hanging from an unmapped root where the source's hang from a
    // mapped bone (RobotExpressive's IK feet). A bone below a mapped bone keeps its own offset (seed 003).
    if ((s === rootSource && frameFound) || (ta < 0 && sa >= 0)) positionDriven[t] = 1;
    // A source translation carries over only between bones whose parents correspond: RobotExpressive's
    // Foot.L moves relative to its skeleton root, which means nothing for a foot below a shin.
    if ((ta >= 0 && sourceOf[ta] === sa) || (s === rootSource && !frameFound)) sameChain[t] = 1;
    const lt = Math.hypot(targetRest.t[3 * t]!, targetRest.t[3 * t + 1]!, targetRest.t[3 * t + 2]!);
    const ls = Math.hypot(sourceRest.t[3 * s]!, sourceRest.t[3 * s + 1]!, sourceRest.t[3 * s + 2]!);
    ratio[t] = s === rootSource && !frameFound ? rootRatio : ls > EPS ? lt / ls : k;
    // A: swing the target bone onto the source bone's reference direction: towards the next bone of the
    // same limb or spine chain (by role: RobotExpressive's lower leg aims at its IK foot), preferring a
    // next bone that is mapped on both sides, else each skeleton's own next bone or mean child position.
    const key = roleOf.get(s);
    if (alignRest && key !== undefined && chainNext(key).length > 0) {
      const next = chainNext(key).map((r) => roles.get(r)).find((j) => j !== undefined && targetOf[j]! >= 0);
      let found: boolean;
      if (next !== undefined) {
        const d = targetOf[next]!;
        for (let c = 0; c < 3; c++) {
          vt[c] = tp[3 * d + c]! - tp[3 * t + c]!;
          vs[c] = sp[3 * next + c]! - sp[3 * s + c]!;
        }
        found = true;
      } else {
        found = aim(vs, source, roles, sp, s, key) && aim(vt, target, targetRoles, tp, t, key);
      }
      if (found) {
        quatRotateVec3(vs, 0, frame, 0, vs, 0);
        shortestArc(align, 4 * t, vt, vs);
      }
    }
    // Post = Qs0⁻¹ · C⁻¹ · A · Qt0
    quatMultiply(tmp, 0, align, 4 * t, tq, 4 * t);
    quatMultiply(tmp, 0, frameInv, 0, tmp, 0);
    quatInvert(post, 4 * t, sq, 4 * s);
    quatMultiply(post, 4 * t, post, 4 * t, tmp, 0);
    // Translation frame = Qt0(parent)⁻¹ · C · Qs0(parent): a source local offset into the target parent's rest frame.
    const tpar = target.parents[t]!;
    const spar = source.parents[s]!;
    if (spar >= 0) quatMultiply(tmp, 0, frame, 0, sq, 4 * spar);
    else tmp.set(frame);
    if (tpar >= 0) {
      quatInvert(translationFrame, 4 * t, tq, 4 * tpar);
      quatMultiply(translationFrame, 4 * t, translationFrame, 4 * t, tmp, 0);
    } else translationFrame.set(tmp, 4 * t);
  }
  return {
    compiled: { source, target, sourceOf, ratio, confidence, positionDriven, sameChain, rootSource, rootTarget, rootMotionScale: k, frame, post, translationFrame, align, sourceFeet, sourceUp, targetFootHeight,
      targetPelvis, legs, sourceLegs, completedLegs, targetUp, targetForward, sourceHipHeight, targetHipHeight, targetGround },
    diagnostics,
  };
}

/**
 * The (left, up, forward) basis of `skeleton`'s model space from its own hips, upper legs and feet in
 * `pose` (its rest pose by default), or undefined when it has no such joints: what a report measures
 * heights along when a bone map gives no frame.
 */
export function ownBasis(skeleton: Skeleton, pose: Pose = skeleton.rest): Float64Array | undefined {
  const J = skeleton.jointCount, q = new Float64Array(4 * J), p = new Float64Array(3 * J);
  modelFrames(q, p, new Float64Array(J), skeleton, pose);
  const roles = skeletonRoles(skeleton);
  const joints = ["hips", "upperLeg.L", "upperLeg.R", "foot.L", "foot.R"].map((k) => roles.get(k));
  if (joints.some((j) => j === undefined)) return undefined;
  const [h, ul, ur, fl, fr] = joints as number[];
  return basis(p, h!, ul!, ur!, fl!, fr!);
}

/** Roles that follow `key` along its chain, nearest first (the first one mapped is the aim of the bone). */
function chainNext(key: string): string[] {
  const [role, side] = key.split(".");
  const sided = (roles: string[]): string[] => roles.map((r) => `${r}.${side}`);
  switch (role) {
    case "spine": return ["chest", "upperChest", "neck"];
    case "chest": return ["upperChest", "neck"];
    case "upperChest": return ["neck"];
    case "neck": return ["head"];
    case "upperLeg": return sided(["lowerLeg"]);
    case "lowerLeg": return sided(["foot"]);
    case "foot": return sided(["toes"]);
    case "upperArm": return sided(["lowerArm"]);
    case "lowerArm": return sided(["hand"]);
    default: return [];
  }
}

/**
 * Writes into `out` the direction joint `j` aims at in its reference pose: towards its skeleton's joint
 * with the next chain role, else towards the mean of its children. False when there is neither.
 */
function aim(out: Float64Array, skeleton: Skeleton, roles: ReadonlyMap<string, number>, p: Float64Array, j: number, key: string): boolean {
  const next = chainNext(key).map((r) => roles.get(r)).find((n) => n !== undefined);
  if (next !== undefined) {
    for (let c = 0; c < 3; c++) out[c] = p[3 * next + c]! - p[3 * j + c]!;
    return true;
  }
  let count = 0;
  out.fill(0);
  for (let k = j + 1; k < skeleton.jointCount; k++) {
    if (skeleton.parents[k] !== j) continue;
    for (let c = 0; c < 3; c++) out[c] = out[c]! + p[3 * k + c]! - p[3 * j + c]!;
    count++;
  }
  return count > 0;
}

/** The nearest ± coordinate axis when `v` (unit) is within 30° of it, else `v`: model axes are usually exact. */
function snapToAxis(v: number[]): number[] {
  let best = 0;
  for (let c = 1; c < 3; c++) if (Math.abs(v[c]!) > Math.abs(v[best]!)) best = c;
  if (Math.abs(v[best]!) < Math.cos(Math.PI / 6)) return v;
  return [0, 1, 2].map((c) => (c === best ? Math.sign(v[best]!) : 0));
}

/** Orthonormal (left, up, forward) basis, 9 floats column by column, or undefined when degenerate. */
function basis(p: Float64Array, hips: number, ul: number, ur: number, fl: number, fr: number): Float64Array | undefined {
  const up = [0, 1, 2].map((c) => p[3 * hips + c]! - 0.5 * (p[3 * fl + c]! + p[3 * fr + c]!));
  const left = [0, 1, 2].map((c) => p[3 * ul + c]! - p[3 * ur + c]!);
  const nu = Math.hypot(up[0]!, up[1]!, up[2]!);
  if (!(nu > EPS)) return undefined;
  for (let c = 0; c < 3; c++) up[c] = up[c]! / nu;
  const upAxis = snapToAxis(up);
  for (let c = 0; c < 3; c++) up[c] = upAxis[c]!;
  const d = left[0]! * up[0]! + left[1]! * up[1]! + left[2]! * up[2]!;
  for (let c = 0; c < 3; c++) left[c] = left[c]! - d * up[c]!;
  const nl = Math.hypot(left[0]!, left[1]!, left[2]!);
  if (!(nl > EPS)) return undefined;
  for (let c = 0; c < 3; c++) left[c] = left[c]! / nl;
  const leftAxis = snapToAxis(left);
  for (let c = 0; c < 3; c++) left[c] = leftAxis[c]!;
  const fwd = [
    left[1]! * up[2]! - left[2]! * up[1]!,
    left[2]! * up[0]! - left[0]! * up[2]!,
    left[0]! * up[1]! - left[1]! * up[0]!,
  ];
  return new Float64Array([...left, ...up, ...fwd]);
}

/**
 * Height of joint `j` above the skeleton's floor, along the basis' up axis. The floor is the model origin
 * (a glTF character stands on it; CesiumMan's toe joints sit 2 cm above it) unless a joint is lower in
 * the reference pose (a BVH whose origin is at the hips): then it is the lowest joint.
 */
function hipHeight(p: Float64Array, count: number, j: number, b: Float64Array): number {
  const along = (i: number): number => p[3 * i]! * b[3]! + p[3 * i + 1]! * b[4]! + p[3 * i + 2]! * b[5]!;
  let floor = 0;
  for (let i = 0; i < count; i++) floor = Math.min(floor, along(i));
  return along(j) - floor;
}

/** Per joint, the nearest proper ancestor for which `mapped` holds, or -1. */
function nearestMapped(skeleton: Skeleton, mapped: (j: number) => boolean): Int32Array {
  const out = new Int32Array(skeleton.jointCount).fill(-1);
  for (let j = 0; j < skeleton.jointCount; j++) {
    const p = skeleton.parents[j]!;
    if (p >= 0) out[j] = mapped(p) ? p : out[p]!;
  }
  return out;
}

/** The smallest rotation taking direction `from` onto direction `to` (identity for zero vectors or equal directions). */
function shortestArc(out: Float64Array, o: number, from: Float64Array, to: Float64Array): void {
  const cx = from[1]! * to[2]! - from[2]! * to[1]!;
  const cy = from[2]! * to[0]! - from[0]! * to[2]!;
  const cz = from[0]! * to[1]! - from[1]! * to[0]!;
  const dot = from[0]! * to[0]! + from[1]! * to[1]! + from[2]! * to[2]!;
  const cross = Math.hypot(cx, cy, cz);
  if (!(Math.hypot(from[0]!, from[1]!, from[2]!) > EPS && Math.hypot(to[0]!, to[1]!, to[2]!) > EPS)) {
    quatIdentity(out, o);
    return;
  }
  const angle = Math.atan2(cross, dot);
  if (cross > EPS * Math.abs(dot)) quatFromAxisAngle(out, o, cx, cy, cz, angle);
  else quatIdentity(out, o); // parallel; an exactly opposite bone is left alone rather than flipped about an arbitrary axis
}
