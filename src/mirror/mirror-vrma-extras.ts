// Node only: the parts of a .vrma a mirrored clip does not carry as joint tracks, mirrored in the
// glTF-Transform document that `animgraph mirror` writes back.
import type { Animation, Document, Node } from "@gltf-transform/core";
import { vrmaNode, type VrmaExtensionData } from "../io/vrma/vrma-gltf-extension.ts";
import type { MirrorAxis } from "./mirror-map.ts";
import { sideMarkers, swapMarkers } from "./side-markers.ts";

const AXIS = { x: 0, y: 1, z: 2 } as const;

/**
 * In the animations `animations` of a .vrma document: each channel of a sided expression (`blinkLeft`,
 * a custom `wink_L`) is moved to its partner's node when the file defines the partner, so the mirrored
 * face winks the other eye; the look-at node's rotation keys (the gaze, a quaternion) are reflected
 * across the plane whose normal is `axis`; and the extension's `lookAt.offsetFromHeadBone` is reflected
 * too. Joint channels are not touched here (replaceClipInGltf writes them).
 */
export function mirrorVrmaExtras(doc: Document, data: VrmaExtensionData, animations: readonly number[], axis: MirrorAxis): void {
  const expressionNode = new Map<string, Node>();
  for (const group of ["preset", "custom"]) {
    const defs = (data["expressions"] as Record<string, unknown> | undefined)?.[group];
    for (const name of Object.keys(typeof defs === "object" && defs !== null ? defs : {})) {
      const node = vrmaNode(data, "expressions", group, name);
      if (node) expressionNode.set(name, node);
    }
  }
  const partner = new Map<Node, Node>();
  for (const [name, node] of expressionNode) {
    const markers = sideMarkers(name);
    const other = markers.length > 0 ? expressionNode.get(swapMarkers(name, markers)) : undefined;
    if (other && other !== node) partner.set(node, other);
  }
  const lookAt = vrmaNode(data, "lookAt");
  const a = AXIS[axis];
  const all = doc.getRoot().listAnimations();
  const buffer = doc.getRoot().listBuffers()[0];
  for (const animation of animations.map((i) => all[i]).filter((x): x is Animation => x !== undefined)) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode();
      if (!node) continue;
      const other = partner.get(node);
      if (other) channel.setTargetNode(other);
      const sampler = channel.getSampler();
      const output = sampler?.getOutput();
      const values = output?.getArray();
      if (node !== lookAt || channel.getTargetPath() !== "rotation" || !sampler || !output || !values) continue;
      // Reflecting a rotation across the plane keeps the quaternion's axis component along the normal
      // and negates the other two (tangents of a CUBICSPLINE curve alike, being linear).
      const reflected = values.slice();
      for (let i = 0; i + 3 < reflected.length; i += 4) {
        for (let c = 0; c < 3; c++) if (c !== a) reflected[i + c] = -reflected[i + c]!;
      }
      const copy = doc.createAccessor().setType(output.getType()).setArray(reflected).setNormalized(output.getNormalized());
      if (buffer) copy.setBuffer(buffer);
      sampler.setOutput(copy);
      if (output.listParents().every((p) => p === doc.getRoot())) output.dispose();
    }
  }
  const look = data["lookAt"] as { offsetFromHeadBone?: unknown } | undefined;
  const offset = look?.offsetFromHeadBone;
  if (Array.isArray(offset) && typeof offset[a] === "number") look!.offsetFromHeadBone = offset.map((v: unknown, c) => (c === a ? -(v as number) : v));
}
