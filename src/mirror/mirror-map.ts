import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { expectSkeleton } from "../errors/check-argument.ts";
import { checkMirrorOptions } from "./check-mirror-arguments.ts";
import { quatConjugate, quatMultiply, quatRotateVec3 } from "../math/quat.ts";
import { copyPose, createPose, type Pose } from "../pose/pose.ts";
import { bindPose } from "../retarget/bind-pose.ts";
import { modelFrames } from "../retarget/model-frames.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { findMirrorPairs, type MirrorPair, type MirrorPairsOptions } from "./find-mirror-pairs.ts";

/** The model-space axis the mirror plane is normal to: "x" mirrors across the plane x = 0. */
export type MirrorAxis = "x" | "y" | "z";

/** The three axes, in order. */
export const MIRROR_AXES: readonly MirrorAxis[] = ["x", "y", "z"];

/** Which pose a mirror is taken relative to (see `MirrorOptions.reference`). */
export type MirrorReference = "auto" | "bind" | "rest";

/** How to mirror: the plane, the pairs, and the symmetric pose motion is measured from. */
export interface MirrorOptions extends MirrorPairsOptions {
  /** Normal of the mirror plane in the skeleton's model space. Default "x" (glTF: +x is the character's left). */
  readonly axis?: MirrorAxis;
  /**
   * The symmetric pose each joint's motion is measured from. "bind": the pose the mesh was skinned in
   * (from the inverse bind matrices; roots keep their rest transform, since bind space and model space
   * may differ by the mesh node's transform); "rest": the skeleton's rest pose; "auto" (default): bind
   * when the skeleton has inverse bind matrices, else rest (BVH). A Pose gives it outright.
   */
  readonly reference?: MirrorReference | Pose;
}

/**
 * A skeleton's mirror, precomputed once: for every joint k, the joint whose motion it takes
 * (`partner[k]`) and the constant maps that turn that joint's local transform into k's. Immutable;
 * `mirrorPose` and `mirrorClip` apply it without allocating per joint or frame.
 *
 * The rule: a joint's model-space motion relative to the reference pose is reflected across the plane
 * and given to its partner. With Q the reference model rotations and F the reflection, a model rotation
 * R_j = D Q_j becomes R_k = (F D F) Q_k; locally that is q_k = a_k · f(q_j) · b_k with f the reflection's
 * action on quaternions and the constants a_k = Q_parent(k)⁻¹ · f(Q_parent(j)), b_k = f(Q_j)⁻¹ · Q_k.
 * Translations: t_k = t°_k + R(a_k) F (t_j − t°_j), so model positions are reflected exactly when the
 * reference is symmetric, and a pose equal to the reference maps to the reference: an asymmetric rest
 * pose (RobotExpressive's) does not leak into the mirror. Mirroring twice is the identity.
 */
export interface MirrorMap {
  readonly skeleton: Skeleton;
  readonly axis: MirrorAxis;
  /** Per joint k: the joint whose transform k takes (itself for a joint on the plane). */
  readonly partner: Int32Array;
  /** The pairs, each once, lower index first. */
  readonly pairs: readonly MirrorPair[];
  /** The reference pose motion is measured from (local, the skeleton's joint order). */
  readonly reference: Pose;
  /** Which pose `reference` is. */
  readonly referenceKind: "bind" | "rest" | "custom";
  /** Per joint k: 16 floats, the row-major 4×4 map from partner[k]'s rotation (x, y, z, w) to k's. */
  readonly rotation: Float64Array;
  /** Per joint k: 12 floats, a row-major 3×3 map then an offset, from partner[k]'s translation to k's. */
  readonly translation: Float64Array;
  /** Per joint k: 9 floats, the row-major 3×3 weights from partner[k]'s scale to k's (a permutation for aligned frames). */
  readonly scale: Float64Array;
  /**
   * How far the reference pose is from its own mirror image: the largest distance between a joint's
   * reflected model position and its partner's, as a fraction of the pose's extent (0 = symmetric).
   */
  readonly asymmetry: number;
  /** The joint where `asymmetry` is largest (−1 for an empty skeleton). */
  readonly asymmetricJoint: number;
}

/** What `compileMirrorMap` returns: the map, or the problems that prevent it. */
export interface CompileMirrorMapResult {
  /** Absent when any diagnostic is an error. */
  readonly map?: MirrorMap;
  /** Pairing errors (see findMirrorPairs) and W_MIRROR_ASYMMETRIC. */
  readonly diagnostics: Diagnostic[];
}

/** Above this `asymmetry` (5 % of the pose's extent; CMU's calibrated skeletons reach 2.3 %) the reference pose is reported as not symmetric. */
export const MIRROR_ASYMMETRY_WARNING = 0.05;

/** Quaternion signs of the reflection across the plane normal to each axis: F R F for rotation R. */
const FLIP: Record<MirrorAxis, readonly [number, number, number]> = { x: [1, -1, -1], y: [-1, 1, -1], z: [-1, -1, 1] };
/** Vector signs of the reflection. */
const REFLECT: Record<MirrorAxis, readonly [number, number, number]> = { x: [-1, 1, 1], y: [1, -1, 1], z: [1, 1, -1] };

/**
 * Pairs the joints (findMirrorPairs) and precomputes the mirror map. Never throws on user data: bad or
 * missing pairs come back as diagnostics and no map; a reference pose that is not symmetric across the
 * chosen plane is W_MIRROR_ASYMMETRIC (with the axis that would fit, when one does) and still maps.
 * Wrong-typed arguments (a programmer error) throw AnimgraphError.
 */
export function compileMirrorMap(skeleton: Skeleton, options: MirrorOptions = {}): CompileMirrorMapResult {
  expectSkeleton("compileMirrorMap", "skeleton", skeleton);
  checkMirrorOptions("compileMirrorMap", "options", options, skeleton.jointCount);
  let axis = options.axis ?? "x";
  const found = findMirrorPairs(skeleton.names, skeleton.parents, options);
  if (!found.partner) return { diagnostics: found.diagnostics };
  let partner = found.partner;
  let pairs = found.pairs;
  const J = skeleton.jointCount;
  const { pose: reference, kind } = referencePose(skeleton, options.reference ?? "auto");
  const q = new Float64Array(4 * J);
  const p = new Float64Array(3 * J);
  const s = new Float64Array(J);
  modelFrames(q, p, s, skeleton, reference);
  const diagnostics: Diagnostic[] = [];
  // No name tells a side (CesiumMan's joints have none): pair the joints by the reference pose's symmetry
  // across the plane (across each plane in turn when no axis is given), each pair under mirrored parents.
  if (pairs.length === 0 && options.detect !== false && !(options.pairs && options.pairs.length > 0)) {
    for (const x of options.axis ? [axis] : MIRROR_AXES) {
      const bySymmetry = symmetryPartners(p, skeleton.parents, x);
      if (!bySymmetry) continue;
      partner = bySymmetry;
      axis = x;
      const list: MirrorPair[] = [];
      for (let j = 0; j < J; j++) if (partner[j]! > j) list.push([skeleton.names[j]!, skeleton.names[partner[j]!]!]);
      pairs = list;
      diagnostics.push({
        code: "I_MIRROR_PAIRS_BY_SYMMETRY", severity: "info", file: options.file ?? "<skeleton>", pointer: "",
        message: `no joint name tells its side: ${pairs.length} pairs found by the ${kind} pose's symmetry across ${x} = 0: ${pairs.map(([a, b]) => `"${a}" ↔ "${b}"`).join(", ")}`,
      });
      break;
    }
  }

  const rotation = new Float64Array(16 * J);
  const translation = new Float64Array(12 * J);
  const scale = new Float64Array(9 * J);
  const a = new Float64Array(4);
  const b = new Float64Array(4);
  const tmp = new Float64Array(8);
  const basis = new Float64Array(4);
  const out = new Float64Array(4);
  const [fx, fy, fz] = FLIP[axis];
  const [rx, ry, rz] = REFLECT[axis];
  const flip = (arr: Float64Array, o: number): void => {
    arr[o] = fx * arr[o]!;
    arr[o + 1] = fy * arr[o + 1]!;
    arr[o + 2] = fz * arr[o + 2]!;
  };
  const parentRotation = (dst: Float64Array, o: number, j: number): void => {
    const parent = skeleton.parents[j]!;
    if (parent < 0) dst.set([0, 0, 0, 1], o);
    else dst.set(q.subarray(4 * parent, 4 * parent + 4), o);
  };
  for (let k = 0; k < J; k++) {
    const j = partner[k]!;
    // a = Q_parent(k)⁻¹ · f(Q_parent(j))
    parentRotation(tmp, 0, k);
    quatConjugate(tmp, 0, tmp, 0);
    parentRotation(tmp, 4, j);
    flip(tmp, 4);
    quatMultiply(a, 0, tmp, 0, tmp, 4);
    // b = f(Q_j)⁻¹ · Q_k
    tmp.set(q.subarray(4 * j, 4 * j + 4), 0);
    quatConjugate(tmp, 0, tmp, 0);
    flip(tmp, 0);
    quatMultiply(b, 0, tmp, 0, q, 4 * k);
    for (let c = 0; c < 4; c++) {
      basis.fill(0);
      basis[c] = 1;
      flip(basis, 0);
      quatMultiply(out, 0, a, 0, basis, 0);
      quatMultiply(out, 0, out, 0, b, 0);
      for (let r = 0; r < 4; r++) rotation[16 * k + 4 * r + c] = out[r]!;
    }
    // T = R(a) · F, offset = t°_k − T t°_j
    const T = translation.subarray(12 * k, 12 * k + 12);
    for (let c = 0; c < 3; c++) {
      basis.fill(0);
      basis[c] = c === 0 ? rx : c === 1 ? ry : rz;
      quatRotateVec3(out, 0, a, 0, basis, 0);
      for (let r = 0; r < 3; r++) T[3 * r + c] = out[r]!;
    }
    for (let r = 0; r < 3; r++) {
      let v = reference.t[3 * k + r]!;
      for (let c = 0; c < 3; c++) v -= T[3 * r + c]! * reference.t[3 * j + c]!;
      T[9 + r] = v;
    }
    // Scale weights: s_k[r] = Σ_c R(b)[c][r]² s_j[c].
    for (let c = 0; c < 3; c++) {
      basis.fill(0);
      basis[c] = 1;
      quatRotateVec3(out, 0, b, 0, basis, 0);
      // out is column c of R(b): out[r'] = R(b)[r'][c]; weight of source axis r' in output axis c.
      for (let r = 0; r < 3; r++) scale[9 * k + 3 * c + r] = out[r]! * out[r]!;
    }
  }

  const measured = measureAsymmetry(p, partner, axis);
  if (measured.asymmetry > MIRROR_ASYMMETRY_WARNING) {
    const others = MIRROR_AXES.filter((x) => x !== axis).map((x) => ({ x, v: measureAsymmetry(p, partner, x).asymmetry }));
    const better = others.sort((u, v) => u.v - v.v)[0]!;
    const hint = better.v < measured.asymmetry / 2 && better.v <= MIRROR_ASYMMETRY_WARNING ? `; across ${better.x} it is ${pct(better.v)}: did you mean axis "${better.x}"?` : "";
    const symmetric = pairs.length === 0 && options.axis ? MIRROR_AXES.find((x) => x !== axis && symmetryPartners(p, skeleton.parents, x)) : undefined;
    const noPairs = pairs.length === 0 ? `; no joint name tells its side, so give the pairs${symmetric ? `, or no axis: the pose is symmetric across ${symmetric} = 0` : ""}` : "";
    const jn = skeleton.names[measured.joint]!;
    const pn = skeleton.names[partner[measured.joint]!]!;
    diagnostics.push({
      code: "W_MIRROR_ASYMMETRIC", severity: "warning", file: options.file ?? "<skeleton>", pointer: "",
      message: `the ${kind} pose is not symmetric across ${axis} = 0: the mirror image of "${jn}" is ${pct(measured.asymmetry)} of the pose's size away from ${jn === pn ? "itself (a joint off the plane has no partner)" : `"${pn}"`}${hint}${noPairs}`,
    });
  }
  const map: MirrorMap = Object.freeze({
    skeleton, axis, partner, pairs, reference, referenceKind: kind, rotation, translation, scale,
    asymmetry: measured.asymmetry, asymmetricJoint: measured.joint,
  });
  return { map, diagnostics };
}

function pct(x: number): string {
  return `${(100 * x).toFixed(x < 0.1 ? 2 : 1)} %`;
}

/** The reference pose and what it is. */
function referencePose(skeleton: Skeleton, choice: MirrorReference | Pose): { pose: Pose; kind: MirrorMap["referenceKind"] } {
  if (typeof choice !== "string") return { pose: copyPose(createPose(skeleton.jointCount), choice), kind: "custom" };
  const useBind = choice === "bind" || (choice === "auto" && hasInverseBinds(skeleton));
  if (!useBind) return { pose: copyPose(createPose(skeleton.jointCount), skeleton.rest), kind: "rest" };
  const pose = bindPose(skeleton);
  // A root's bind matrix is in the mesh's space, which may sit anywhere relative to the skeleton's
  // model space: the roots keep their rest transforms, the joints below them take the bind pose.
  for (let j = 0; j < skeleton.jointCount; j++) {
    if (skeleton.parents[j]! >= 0) continue;
    pose.t.set(skeleton.rest.t.subarray(3 * j, 3 * j + 3), 3 * j);
    pose.r.set(skeleton.rest.r.subarray(4 * j, 4 * j + 4), 4 * j);
    pose.s.set(skeleton.rest.s.subarray(3 * j, 3 * j + 3), 3 * j);
  }
  return { pose, kind: "bind" };
}

/** Whether any inverse bind matrix differs from the identity (BVH and node-only skeletons have none). */
function hasInverseBinds(skeleton: Skeleton): boolean {
  const m = skeleton.inverseBind;
  for (let i = 0; i < m.length; i++) {
    const identity = i % 16 === 0 || i % 16 === 5 || i % 16 === 10 || i % 16 === 15 ? 1 : 0;
    if (Math.abs(m[i]! - identity) > 1e-6) return true;
  }
  return false;
}

/** Within this share of the pose's extent a joint lies on the plane, or two joints mirror each other. */
const SYMMETRY_TOLERANCE = 0.01;

/**
 * Partners from model positions `p` alone: each joint off the plane x = 0 pairs with the joint nearest its
 * mirror image whose parent is its parent's partner; undefined unless every joint finds one (within
 * SYMMETRY_TOLERANCE of the extent) and at least one pair is found.
 */
function symmetryPartners(p: Float64Array, parents: ArrayLike<number>, axis: MirrorAxis): Int32Array | undefined {
  const J = parents.length, sign = REFLECT[axis], c0 = MIRROR_AXES.indexOf(axis);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let j = 0; j < J; j++) for (let c = 0; c < 3; c++) {
    lo[c] = Math.min(lo[c]!, p[3 * j + c]!);
    hi[c] = Math.max(hi[c]!, p[3 * j + c]!);
  }
  const tol = SYMMETRY_TOLERANCE * Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  const partner = new Int32Array(J).fill(-1);
  let paired = 0;
  for (let j = 0; j < J; j++) {
    if (partner[j]! >= 0) continue;
    const parent = parents[j]!, mirroredParent = parent < 0 ? -1 : partner[parent]!;
    let best = -1, bestD = tol;
    if (Math.abs(p[3 * j + c0]!) <= tol) best = j;
    else {
      for (let k = 0; k < J; k++) {
        if (k === j || partner[k]! >= 0 || parents[k] !== mirroredParent) continue;
        const d = Math.hypot(sign[0]! * p[3 * j]! - p[3 * k]!, sign[1]! * p[3 * j + 1]! - p[3 * k + 1]!, sign[2]! * p[3 * j + 2]! - p[3 * k + 2]!);
        if (d <= bestD) [best, bestD] = [k, d];
      }
    }
    if (best < 0 || (best === j && mirroredParent !== parent)) return undefined;
    partner[j] = best;
    partner[best] = j;
    if (best !== j) paired++;
  }
  return paired > 0 ? partner : undefined;
}

/** Largest |F p_j − p_partner(j)| over the pose's extent (the diagonal of its bounding box). */
function measureAsymmetry(p: Float64Array, partner: Int32Array, axis: MirrorAxis): { asymmetry: number; joint: number } {
  const J = partner.length;
  const sign = REFLECT[axis];
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let j = 0; j < J; j++) {
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c]!, p[3 * j + c]!);
      hi[c] = Math.max(hi[c]!, p[3 * j + c]!);
    }
  }
  const extent = J === 0 ? 0 : Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  let worst = 0;
  let joint = J > 0 ? 0 : -1;
  for (let j = 0; j < J; j++) {
    const k = partner[j]!;
    let d2 = 0;
    for (let c = 0; c < 3; c++) {
      const d = sign[c]! * p[3 * j + c]! - p[3 * k + c]!;
      d2 += d * d;
    }
    if (d2 > worst) {
      worst = d2;
      joint = j;
    }
  }
  return { asymmetry: extent > 0 ? Math.sqrt(worst) / extent : 0, joint };
}
