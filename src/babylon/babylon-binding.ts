// Type-only imports: the adapter never loads Babylon itself, so it works with whichever copy of
// @babylonjs/core the app bundles (and costs nothing when unused).
import type { Skeleton as BabylonSkeleton } from "@babylonjs/core/Bones/skeleton.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Node as BabylonNode } from "@babylonjs/core/node.js";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { argumentError, expectFunction, expectOptionalObject, expectSkeleton, expectString } from "../errors/check-argument.ts";
import { expectBabylonBindTarget } from "./check-babylon-arguments.ts";

/**
 * An animgraph skeleton bound to Babylon.js TransformNodes: per joint, which node receives its local
 * transform. Resolved once; applying poses then costs no lookups.
 */
export interface BabylonBinding {
  readonly skeleton: Skeleton;
  /** The bound TransformNodes, each once, in the order of the joints they serve. */
  readonly nodes: readonly TransformNode[];
  /** Per animgraph joint: index into `nodes`, or -1 when no node matched (the joint is not applied). */
  readonly nodeOfJoint: Int16Array;
  /** Per entry of `nodes`: the animgraph joint it serves (the inverse of `nodeOfJoint`). */
  readonly jointOfNode: Int16Array;
}

/**
 * What `bindBabylonSkeleton` binds to: a Babylon `Skeleton` (the TransformNodes its bones are linked to,
 * `bone.getTransformNode()`, which is what Babylon's glTF loader animates), a root TransformNode (its
 * whole subtree, e.g. the glTF loader's `__root__` mesh) or a list of TransformNodes.
 */
export type BabylonBindTarget = BabylonSkeleton | TransformNode | readonly TransformNode[];

/** How `bindBabylonSkeleton` matches joints to Babylon nodes. */
export interface BindBabylonOptions {
  /**
   * Maps a node to its glTF node index, matched against `skeleton.sourceIndex` before names are tried.
   * Default: `gltfNodeIndexOf`, which reads the JSON pointer Babylon's glTF loader records on every
   * node it creates. Pass `() => undefined` to bind by name only.
   */
  readonly nodeIndexOf?: (node: TransformNode) => number | undefined;
  /** File named in diagnostics. Default `<babylon>`. */
  readonly file?: string;
}

/** What `bindBabylonSkeleton` returns: the binding, and a warning per joint left unbound. */
export interface BabylonBindResult {
  readonly binding: BabylonBinding;
  /** One `E_BABYLON_UNBOUND_JOINT` warning per joint that matched no node (that joint is left alone). */
  readonly diagnostics: Diagnostic[];
}

/** The loader's bookkeeping on each node (`_internalMetadata.gltf.pointers`, e.g. `["/nodes/7"]`). */
interface GltfPointerMetadata {
  readonly _internalMetadata?: { readonly gltf?: { readonly pointers?: readonly string[] } };
}

/**
 * The glTF node index Babylon's glTF loader (2.0) created `node` for, read from the JSON pointer it
 * records on the node (`/nodes/<index>`); undefined for nodes it did not create (its `__root__`).
 */
export function gltfNodeIndexOf(node: BabylonNode): number | undefined {
  if (typeof node !== "object" || node === null) throw argumentError("gltfNodeIndexOf", "node", "a Babylon Node", node);
  const pointers = (node as unknown as GltfPointerMetadata)._internalMetadata?.gltf?.pointers;
  if (!Array.isArray(pointers)) return undefined;
  for (const p of pointers) {
    const m = /^\/nodes\/(\d+)$/.exec(p);
    if (m) return Number(m[1]);
  }
  return undefined;
}

function isBabylonSkeleton(target: BabylonBindTarget): target is BabylonSkeleton {
  return !Array.isArray(target) && Array.isArray((target as Partial<BabylonSkeleton>).bones) && typeof (target as Partial<BabylonSkeleton>).getTransformMatrices === "function";
}

function isTransformNode(node: BabylonNode): node is TransformNode {
  // A Bone also has `position`, but its getters decompose a matrix; only scene-graph TransformNodes
  // (and meshes, which extend them) have `getPivotPoint`.
  return typeof (node as Partial<TransformNode>).getPivotPoint === "function" && "scaling" in node;
}

/** The candidate nodes of a bind target, in a stable order (depth-first for a subtree). */
export function babylonNodesOf(target: BabylonBindTarget): TransformNode[] {
  expectBabylonBindTarget("babylonNodesOf", "target", target);
  return babylonNodesOfUnchecked(target);
}

function babylonNodesOfUnchecked(target: BabylonBindTarget): TransformNode[] {
  if (Array.isArray(target)) return [...(target as readonly TransformNode[])];
  if (isBabylonSkeleton(target)) {
    const linked: TransformNode[] = [];
    for (const bone of target.bones) {
      const node = bone.getTransformNode();
      if (node) linked.push(node);
    }
    return linked;
  }
  const root = target as TransformNode;
  return [root, ...root.getDescendants(false, (n) => isTransformNode(n)) as TransformNode[]];
}

/**
 * Binds `skeleton`'s joints to Babylon TransformNodes. Per joint: the node whose glTF node index
 * (`options.nodeIndexOf`, default `gltfNodeIndexOf`) equals the joint's `sourceIndex`; else the first
 * node named exactly like the joint (Babylon's glTF loader keeps glTF names as they are and names an
 * unnamed node `node<index>`). Unmatched joints get -1 and a warning.
 *
 * Gives every bound node a `rotationQuaternion` if it has none (made from its Euler `rotation`, which
 * Babylon then ignores), so applying poses never allocates. Allocates; call once per character.
 */
export function bindBabylonSkeleton(skeleton: Skeleton, target: BabylonBindTarget, options: BindBabylonOptions = {}): BabylonBindResult {
  const fn = "bindBabylonSkeleton";
  expectSkeleton(fn, "skeleton", skeleton);
  expectBabylonBindTarget(fn, "target", target);
  expectOptionalObject(fn, "options", options);
  if (options.nodeIndexOf !== undefined) expectFunction(fn, "options.nodeIndexOf", options.nodeIndexOf);
  if (options.file !== undefined) expectString(fn, "options.file", options.file);
  const candidates = babylonNodesOfUnchecked(target);
  const nodeIndexOf = options.nodeIndexOf ?? gltfNodeIndexOf;
  const byName = new Map<string, TransformNode>();
  const byNode = new Map<number, TransformNode>();
  for (const n of candidates) {
    if (n.name !== "" && !byName.has(n.name)) byName.set(n.name, n);
    const index = nodeIndexOf(n);
    if (index !== undefined && !byNode.has(index)) byNode.set(index, n);
  }
  const used = new Map<TransformNode, number>(); // node → its index in `nodes`
  const J = skeleton.jointCount;
  const nodeOfJoint = new Int16Array(J).fill(-1);
  const nodes: TransformNode[] = [];
  const joints: number[] = [];
  const diagnostics: Diagnostic[] = [];
  for (let j = 0; j < J; j++) {
    const name = skeleton.names[j]!;
    const source = skeleton.sourceIndex[j]!;
    const node = (source >= 0 ? byNode.get(source) : undefined) ?? byName.get(name);
    if (node === undefined || used.has(node)) {
      diagnostics.push({
        code: "E_BABYLON_UNBOUND_JOINT", severity: "warning", file: options.file ?? "<babylon>", pointer: `joints[${j}]`,
        message: node === undefined
          ? `joint ${j} ("${name}") matches no Babylon TransformNode; it is not applied`
          : `joint ${j} ("${name}") matches the node already bound to joint ${joints[used.get(node)!]}; it is not applied`,
      });
      continue;
    }
    node.rotationQuaternion ??= node.rotation.toQuaternion();
    used.set(node, nodes.length);
    nodeOfJoint[j] = nodes.length;
    nodes.push(node);
    joints.push(j);
  }
  return { binding: Object.freeze({ skeleton, nodes: Object.freeze(nodes), nodeOfJoint, jointOfNode: Int16Array.from(joints) }), diagnostics };
}
