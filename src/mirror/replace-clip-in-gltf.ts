import type { Animation, Document, Node } from "@gltf-transform/core";
import type { Clip } from "../clip/clip.ts";
import { addClipChannels } from "../retarget/add-clip-to-gltf.ts";
import { argumentError, expectArray, expectClip, expectObject } from "../errors/check-argument.ts";

/**
 * Puts `clip`'s joint tracks in place of the joint channels of glTF animations `animations` (the
 * indices a load result's `clipSources` gives for the clip): the first animation keeps its index and
 * name and receives the new channels; its channels on other nodes or paths (morph weights) stay; the
 * other animations lose their joint channels and are removed when nothing is left (glTF forbids an
 * animation without channels). The clip's skeleton must come from this file (its `sourceIndex` gives
 * each joint's node). Edits `doc` in place; throws (a programmer error) when a joint's node is missing
 * or named differently.
 */
export function replaceClipInGltf(doc: Document, animations: readonly number[], clip: Clip): void {
  const fn = "replaceClipInGltf";
  expectObject(fn, "doc", doc);
  if (typeof (doc as { getRoot?: unknown }).getRoot !== "function") throw argumentError(fn, "doc", "a glTF-Transform Document", doc);
  expectArray(fn, "animations", animations);
  expectClip(fn, "clip", clip);
  const root = doc.getRoot();
  const nodes = root.listNodes();
  const all = root.listAnimations();
  const skeleton = clip.skeleton;
  const jointNodes = new Set<Node>();
  for (let j = 0; j < skeleton.jointCount; j++) {
    const node = nodes[skeleton.sourceIndex[j]!];
    const name = skeleton.names[j]!;
    if (!node || (node.getName() !== name && name !== `#${skeleton.sourceIndex[j]}`)) {
      throw new Error(`replaceClipInGltf: joint "${name}" does not match glTF node ${skeleton.sourceIndex[j]}`);
    }
    jointNodes.add(node);
  }
  const targets = animations.map((i) => all[i]).filter((a): a is Animation => a !== undefined);
  if (targets.length === 0) throw new Error("replaceClipInGltf: no such animation");
  for (const animation of targets) {
    for (const channel of animation.listChannels()) {
      const node = channel.getTargetNode();
      const path = channel.getTargetPath();
      if (!node || !jointNodes.has(node) || path === "weights") continue;
      const sampler = channel.getSampler();
      channel.dispose();
      if (sampler && !animation.listChannels().some((c) => c.getSampler() === sampler)) sampler.dispose();
    }
  }
  const first = targets[0]!;
  const buffer = root.listBuffers()[0] ?? doc.createBuffer();
  addClipChannels(doc, first, clip, nodes, buffer);
  for (const animation of targets.slice(1)) if (animation.listChannels().length === 0) animation.dispose();
  // Accessors the removed samplers used and nothing else does.
  for (const accessor of root.listAccessors()) {
    if (accessor.listParents().every((p) => p === root)) accessor.dispose();
  }
}
