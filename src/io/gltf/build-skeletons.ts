import { mat4Decompose, mat4FromTRS, mat4Identity, mat4MaxDifference, mat4Multiply } from "../../math/mat4.ts";
import { localToModelUnchecked } from "../../pose/local-to-model.ts";
import { createPose } from "../../pose/pose.ts";
import { createSkeleton, type Skeleton } from "../../skeleton/skeleton.ts";
import { arrayOf, isObject, ptr, type DiagnosticSink, type JsonObject } from "./gltf-json.ts";
import { accessorFloats, readAccessor, type GltfBuffers } from "./read-accessor.ts";
import { nodeNameOf } from "./read-channels.ts";

/** A skeleton made from one or more glTF skins with the same joints, and where it sits in the file. */
export interface GltfSkeleton {
  readonly skeleton: Skeleton;
  /**
   * The world transform of the skeleton roots' parent node: the product of the local transforms of the
   * non-joint ancestors (CesiumMan's Z-up→Y-up node, RobotExpressive's ×100 armature), column-major.
   * `rootTransform × model[j]` is joint j's world matrix; identity when the roots are scene roots.
   */
  readonly rootTransform: Float32Array;
  /**
   * The skeleton-space transform that rest-pose model matrices times inverse bind matrices give:
   * `model[j] × inverseBind[j] = bindShape` for every joint whose rest pose is its bind pose. Identity
   * for most files (Fox, CesiumMan); RiggedSimple's bind matrices also undo its armature node's
   * rotation, so there it is that rotation. Computed from the first root joint.
   */
  readonly bindShape: Float32Array;
  /** Joints whose rest (node) transform differs from the bind pose the inverse bind matrices give. */
  readonly restNotBind: readonly number[];
  /** Indices of the glTF skins that share this joint list. */
  readonly skins: readonly number[];
}

/** Skeleton.parents is an Int16Array. */
export const MAX_JOINTS = 0x7fff;

/** The shared tolerance for "these two matrices are the same" (bind matrices, root transforms). */
const SAME_MATRIX = 1e-5;

const numbers = (def: JsonObject | undefined, key: string, fallback: readonly number[]): number[] => {
  const v = def?.[key];
  return Array.isArray(v) ? (v as number[]) : [...fallback];
};
/** A node's TRS as glTF gives it (defaults when absent; a `matrix` node is handled by its callers). */
const translationOf = (def: JsonObject | undefined): number[] => numbers(def, "translation", [0, 0, 0]);
const rotationOf = (def: JsonObject | undefined): number[] => numbers(def, "rotation", [0, 0, 0, 1]);
const scaleOf = (def: JsonObject | undefined): number[] => numbers(def, "scale", [1, 1, 1]);

/** Local matrix of a node as the file gives it: its `matrix`, or its TRS composed. */
export function nodeLocalMatrix(out: Float32Array, o: number, nodeDef: JsonObject | undefined): void {
  const m = nodeDef?.["matrix"];
  if (Array.isArray(m) && m.length === 16) {
    for (let i = 0; i < 16; i++) out[o + i] = m[i] as number;
  } else {
    mat4FromTRS(out, o, translationOf(nodeDef), 0, rotationOf(nodeDef), 0, scaleOf(nodeDef), 0);
  }
}

/**
 * Builds one skeleton per distinct glTF joint list (skins listing the same set of nodes share one). The
 * joints are reordered parent-before-child (the skin's order is kept where it already is), each joint's
 * skeleton parent is its nearest ancestor that is also a joint, and the non-joint ancestors' transform
 * becomes `rootTransform`. A file without skins gets one skeleton of all its nodes, so node animations
 * still load.
 */
export function buildSkeletons(gltf: GltfBuffers, sink: DiagnosticSink): GltfSkeleton[] {
  const json = gltf.json;
  const nodeDefs = arrayOf(json, "nodes");
  const nodeCount = nodeDefs.length;
  const parentOf = new Int32Array(nodeCount).fill(-1);
  nodeDefs.forEach((def, i) => {
    if (isObject(def)) for (const c of arrayOf(def, "children")) parentOf[c as number] = i;
  });
  const skinDefs = arrayOf(json, "skins");
  const groups = new Map<string, number[]>();
  skinDefs.forEach((def, i) => {
    const joints = (isObject(def) ? arrayOf(def, "joints") : []) as number[];
    const key = [...joints].sort((a, b) => a - b).join(",");
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });

  const out: GltfSkeleton[] = [];
  if (skinDefs.length === 0) {
    if (nodeCount === 0) return out;
    if (nodeCount > MAX_JOINTS) {
      sink.error("E_GLTF_SKIN", "/nodes", `the file has no skin and ${nodeCount} nodes, more than the ${MAX_JOINTS} joints a skeleton can hold`);
      return out;
    }
    sink.info("I_GLTF_NO_SKIN", "", `the file has no skin; its ${nodeCount} nodes form the skeleton`);
    const all = nodeDefs.map((_, i) => i);
    out.push(buildOne(all, undefined, [], nodeDefs, parentOf, gltf, sink));
    return out;
  }
  for (const skinIndices of groups.values()) {
    const first = skinDefs[skinIndices[0]!] as JsonObject;
    const joints = arrayOf(first, "joints") as number[];
    out.push(buildOne(joints, skinIndices[0]!, skinIndices, nodeDefs, parentOf, gltf, sink));
  }
  return out;
}

function buildOne(
  skinJoints: readonly number[],
  skinIndex: number | undefined,
  skinIndices: readonly number[],
  nodeDefs: readonly unknown[],
  parentOf: Int32Array,
  gltf: GltfBuffers,
  sink: DiagnosticSink,
): GltfSkeleton {
  const inSet = new Set(skinJoints);
  // Nearest joint ancestor of each joint, and whether non-joint nodes sit in between.
  const jointParentNode = new Map<number, number>();
  for (const n of skinJoints) {
    let p = parentOf[n]!;
    let gap = false;
    while (p !== -1 && !inSet.has(p)) {
      gap = true;
      p = parentOf[p]!;
    }
    jointParentNode.set(n, p);
    if (gap && p !== -1) {
      sink.warning("W_GLTF_JOINT_GAP", ptr("nodes", n), `joint node ${n} hangs below joint ${p} through non-joint nodes, whose transforms are ignored`);
    }
  }
  // Parent-before-child order that keeps the skin's order wherever it is already valid.
  const order: number[] = [];
  const placed = new Set<number>();
  const place = (n: number): void => {
    if (placed.has(n)) return;
    placed.add(n);
    const p = jointParentNode.get(n)!;
    if (p !== -1) place(p);
    order.push(n);
  };
  for (const n of skinJoints) place(n);
  if (skinIndex !== undefined && order.some((n, i) => n !== skinJoints[i])) {
    sink.info("I_GLTF_JOINTS_REORDERED", ptr("skins", skinIndex, "joints"), "the skin lists a child before its parent; joints were reordered parent-before-child (sourceIndex keeps the node index)");
  }
  const jointOf = new Map<number, number>();
  order.forEach((n, j) => jointOf.set(n, j));
  const J = order.length;

  // Names: the node name, `#<node>` for unnamed nodes, `<name>#<node>` for a repeated name.
  const names: string[] = [];
  const used = new Set<string>();
  for (const n of order) {
    let name = nodeNameOf(gltf.json, n);
    if (used.has(name)) {
      const given = name;
      while (used.has(name)) name = `${name}#${n}`;
      sink.warning("W_GLTF_DUPLICATE_NAME", ptr("nodes", n, "name"), `joint name "${given}" is used by another joint; this one is called "${name}"`);
    }
    used.add(name);
    names.push(name);
  }

  const rest = createPose(J);
  const tmp = new Float64Array(16);
  const back = new Float64Array(16);
  order.forEach((n, j) => {
    const def = nodeDefs[n] as JsonObject;
    const matrix = def["matrix"];
    let done = false;
    if (Array.isArray(matrix)) {
      for (let i = 0; i < 16; i++) tmp[i] = matrix[i] as number;
      if (mat4Decompose(rest.t, 3 * j, rest.r, 4 * j, rest.s, 3 * j, tmp, 0)) {
        done = true;
        mat4FromTRS(back, 0, rest.t, 3 * j, rest.r, 4 * j, rest.s, 3 * j);
        const scale = Math.max(1, ...Array.from(tmp, Math.abs));
        if (mat4MaxDifference(back, 0, tmp, 0) > 1e-4 * scale) {
          sink.warning("W_GLTF_MATRIX_NOT_TRS", ptr("nodes", n, "matrix"), "the joint's matrix has shear or is not affine; its closest translation/rotation/scale is used");
        }
      } else {
        sink.warning("W_GLTF_MATRIX_NOT_TRS", ptr("nodes", n, "matrix"), "the joint's matrix is singular (a zero scale); it is decomposed as well as possible");
      }
    }
    if (!done) {
      rest.t.set(translationOf(def), 3 * j);
      rest.r.set(rotationOf(def), 4 * j);
      rest.s.set(scaleOf(def), 3 * j);
    }
    const len = Math.hypot(rest.r[4 * j]!, rest.r[4 * j + 1]!, rest.r[4 * j + 2]!, rest.r[4 * j + 3]!);
    if (!(len > 1e-6) || !Number.isFinite(len)) {
      sink.warning("W_GLTF_ROTATION_NORMALIZED", ptr("nodes", n, "rotation"), "the joint's rotation has zero length; identity is used");
      rest.r.set([0, 0, 0, 1], 4 * j);
    } else if (len !== 1) {
      if (Math.abs(len - 1) > 1e-3) sink.warning("W_GLTF_ROTATION_NORMALIZED", ptr("nodes", n, "rotation"), `the joint's rotation has length ${len.toFixed(4)}; it was normalized`);
      for (let k = 0; k < 4; k++) rest.r[4 * j + k]! /= len;
    }
  });

  // Inverse bind matrices, remapped to the new order; identity without an accessor (glTF's default).
  const inverseBind = new Float32Array(16 * J);
  for (let j = 0; j < J; j++) mat4Identity(inverseBind, 16 * j);
  const skinDefs = arrayOf(gltf.json, "skins");
  if (skinIndex !== undefined) {
    const ibmOf = (s: number): Float32Array | undefined => {
      const def = skinDefs[s];
      const accessor = isObject(def) && typeof def["inverseBindMatrices"] === "number" ? readAccessor(gltf, def["inverseBindMatrices"]) : undefined;
      return accessor ? accessorFloats(accessor) : undefined;
    };
    const ibm = ibmOf(skinIndex);
    if (ibm) {
      const bad = ibm.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) {
        sink.error("E_GLTF_NONFINITE", ptr("skins", skinIndex, "inverseBindMatrices"), `inverse bind matrix ${Math.floor(bad / 16)} holds a non-finite value; identity is used`);
      } else {
        skinJoints.forEach((n, k) => inverseBind.set(ibm.subarray(16 * k, 16 * k + 16), 16 * jointOf.get(n)!));
      }
    }
    for (const other of skinIndices.slice(1)) {
      const ibm2 = ibmOf(other);
      const joints2 = arrayOf(skinDefs[other] as JsonObject, "joints");
      let differs = false;
      joints2.forEach((n, k) => {
        const j = jointOf.get(n as number)!;
        if (ibm2 && mat4MaxDifference(ibm2, 16 * k, inverseBind, 16 * j) > SAME_MATRIX * Math.max(1, Math.abs(inverseBind[16 * j + 12]!))) differs = true;
      });
      if (differs) sink.warning("W_GLTF_SKIN_BIND_DIFFERS", ptr("skins", other), `skin ${other} shares the joints of skin ${skinIndex} but its inverse bind matrices differ; skin ${skinIndex}'s are used`);
    }
  }

  // Root transform: world matrix of the first root's parent; other roots should agree.
  const world = (n: number, out: Float32Array): void => {
    mat4Identity(out, 0);
    const m = new Float32Array(16);
    for (let p = n; p !== -1; p = parentOf[p]!) {
      nodeLocalMatrix(m, 0, nodeDefs[p] as JsonObject);
      mat4Multiply(out, 0, m, 0, out, 0);
    }
  };
  const rootTransform = mat4Identity(new Float32Array(16), 0);
  const roots = order.filter((n) => jointParentNode.get(n) === -1);
  if (roots.length > 0) {
    world(parentOf[roots[0]!]!, rootTransform);
    const other = new Float32Array(16);
    for (const r of roots.slice(1)) {
      world(parentOf[r]!, other);
      if (mat4MaxDifference(other, 0, rootTransform, 0) > SAME_MATRIX * 100) {
        sink.warning("W_GLTF_ROOT_TRANSFORMS", ptr("nodes", r), `root joint node ${r} sits under a different transform than root joint node ${roots[0]}; rootTransform uses the latter's`);
      }
    }
  }

  const skeleton = createSkeleton({
    names,
    parents: order.map((n) => {
      const p = jointParentNode.get(n)!;
      return p === -1 ? -1 : jointOf.get(p)!;
    }),
    rest,
    inverseBind,
    sourceIndex: order,
  });
  // Compare the rest pose with the bind pose: legal glTF lets them differ (RobotExpressive's arms).
  const model = localToModelUnchecked(new Float32Array(16 * J), skeleton, rest);
  const bindShape = mat4Multiply(new Float32Array(16), 0, model, 0, inverseBind, 0);
  const restNotBind: number[] = [];
  if (skinIndex !== undefined) {
    // Rotation/scale part: absolute 1e-3; translation: 1e-3 of the skeleton's size (units vary: Fox
    // is in centimetres, RobotExpressive's skeleton space is 1/100 of its world).
    let size = 0;
    for (let j = 0; j < J; j++) {
      size = Math.max(size, Math.hypot(model[16 * j + 12]! - model[12]!, model[16 * j + 13]! - model[13]!, model[16 * j + 14]! - model[14]!));
    }
    const tTol = 1e-3 * (size > 0 ? size : 1);
    const m = new Float32Array(16);
    for (let j = 0; j < J; j++) {
      mat4Multiply(m, 0, model, 16 * j, inverseBind, 16 * j);
      let same = true;
      for (let i = 0; i < 16 && same; i++) same = Math.abs(m[i]! - bindShape[i]!) <= (i >= 12 && i < 15 ? tTol : 1e-3);
      if (!same) restNotBind.push(j);
    }
    if (restNotBind.length > 0) {
      sink.info("I_GLTF_REST_NOT_BIND", ptr("skins", skinIndex), `the nodes' rest pose differs from the bind pose on ${restNotBind.length} of ${J} joints (${restNotBind.slice(0, 5).map((j) => names[j]).join(", ")}${restNotBind.length > 5 ? ", …" : ""}); skinning uses the inverse bind matrices, untracked joints take the rest pose`);
    }
  } else {
    mat4Identity(bindShape, 0);
  }
  return { skeleton, rootTransform, bindShape, restNotBind, skins: skinIndices };
}
