// Node only (with @gltf-transform/core): keeps a .vrma's VRMC_vrm_animation extension through a
// glTF-Transform read and write, which would otherwise drop it as unknown.
import { Extension, type Node, type ReaderContext, type WriterContext } from "@gltf-transform/core";

const NAME = "VRMC_vrm_animation";

/** The extension's JSON with every `"node": index` turned into that Node (see `bindNodes`). */
export type VrmaExtensionData = Record<string, unknown>;

/**
 * VRMC_vrm_animation for glTF-Transform: read keeps the extension's JSON with each `node` index bound to
 * its Node, write puts it back with the nodes' indices in the written file, so humanoid bones,
 * expressions and the look-at stay attached to their nodes whatever the write does to the node order.
 */
export class VrmaAnimationExtension extends Extension {
  static override readonly EXTENSION_NAME = NAME;
  override readonly extensionName = NAME;
  /** The extension as read; an edit (a mirrored look-at offset) is written back. */
  data: VrmaExtensionData = {};

  read(context: ReaderContext): this {
    const json = context.jsonDoc.json.extensions?.[NAME];
    this.data = bindNodes(json, (i) => context.nodes[i]) as VrmaExtensionData;
    return this;
  }

  write(context: WriterContext): this {
    const json = context.jsonDoc.json;
    json.extensions = { ...json.extensions, [NAME]: bindNodes(this.data, (n) => context.nodeIndexMap.get(n)) as Record<string, unknown> };
    return this;
  }
}

/** A deep copy of `value` with the value of every `node` key passed through `bind` (index ↔ Node). */
function bindNodes(value: unknown, bind: (node: never) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => bindNodes(v, bind));
  if (typeof value !== "object" || value === null || !(Object.getPrototypeOf(value) === Object.prototype)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "node" && v !== undefined ? bind(v as never) : bindNodes(v, bind)]));
}

/** The Node bound at `data[...path].node`, if any. */
export function vrmaNode(data: unknown, ...path: string[]): Node | undefined {
  let at = data;
  for (const key of path) at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  const node = typeof at === "object" && at !== null ? (at as { node?: unknown }).node : undefined;
  return typeof node === "object" && node !== null ? (node as Node) : undefined;
}
