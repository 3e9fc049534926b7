import type { Accessor, Animation, Buffer, Document, Node } from "@gltf-transform/core";
import { argumentError, expectClip, invalidValue } from "../errors/check-argument.ts";
import { createGltfIO } from "../io/gltf/gltf-io.ts";
import type { Clip } from "../clip/clip.ts";

/**
 * Adds `clip` as a new glTF animation to a glTF document and returns the GLB bytes. The clip must be
 * bound to a skeleton loaded from the same file (its `sourceIndex` gives each joint's glTF node). Each
 * joint track becomes a sampler (input: key times, shared between tracks with the same times array;
 * output: values) and a channel on the joint's node. Rejects with AnimgraphError (a programmer error)
 * when a joint has no node or the node's name disagrees with the joint's, or when the clip has no tracks.
 */
export async function addClipToGltf(doc: Document, clip: Clip): Promise<Uint8Array> {
  const fn = "addClipToGltf";
  const d = doc as Partial<Document> | null;
  if (typeof d !== "object" || d === null || typeof d.getRoot !== "function" || typeof d.createAnimation !== "function") {
    throw argumentError(fn, "doc", "a glTF-Transform Document (from the file the clip's skeleton was loaded from)", doc);
  }
  expectClip(fn, "clip", clip);
  if (!(clip.skeleton.sourceIndex instanceof Int32Array)) {
    throw argumentError(fn, "clip.skeleton", "a Skeleton loaded from a glTF file (with sourceIndex)", clip.skeleton);
  }
  // glTF forbids an animation without channels (the validator's EMPTY_ENTITY).
  if (clip.tracks.length === 0) throw invalidValue(fn, "clip", `clip "${clip.name}" has no tracks; a glTF animation needs at least one channel`);
  const root = doc.getRoot();
  const nodes = root.listNodes();
  const buffer = root.listBuffers()[0] ?? doc.createBuffer();
  const animation = doc.createAnimation(clip.name);
  const skeleton = clip.skeleton;
  for (const track of clip.tracks) {
    const nodeIndex = skeleton.sourceIndex[track.joint]!;
    const node = nodes[nodeIndex];
    const name = skeleton.names[track.joint]!;
    if (!node || (node.getName() !== name && name !== `#${nodeIndex}`)) {
      throw invalidValue(fn, "clip", `joint "${name}" does not match glTF node ${nodeIndex}; the clip's skeleton was not loaded from this document`);
    }
  }
  addClipChannels(doc, animation, clip, nodes, buffer);
  mergeBuffers(doc);
  return createGltfIO().writeBinary(doc);
}

/**
 * A GLB holds exactly one buffer, so a .gltf target with several (a .bin per mesh, say) has all its
 * accessors moved to the first before writing; the others are dropped.
 */
function mergeBuffers(doc: Document): void {
  const buffers = doc.getRoot().listBuffers();
  if (buffers.length <= 1) return;
  const keep = buffers[0]!;
  for (const accessor of doc.getRoot().listAccessors()) accessor.setBuffer(keep);
  for (const extra of buffers.slice(1)) extra.dispose();
}

/**
 * Writes each joint track of `clip` into `animation` as a sampler (key times shared between tracks with
 * the same times array) and a channel on the joint's node (`nodes[skeleton.sourceIndex[joint]]`).
 */
export function addClipChannels(doc: Document, animation: Animation, clip: Clip, nodes: readonly Node[], buffer: Buffer): void {
  const inputs = new Map<Float32Array, Accessor>();
  for (const track of clip.tracks) {
    const node = nodes[clip.skeleton.sourceIndex[track.joint]!]!;
    let input = inputs.get(track.times);
    if (!input) {
      input = doc.createAccessor().setType("SCALAR").setArray(track.times).setBuffer(buffer);
      inputs.set(track.times, input);
    }
    const output = doc.createAccessor().setType(track.stride === 4 ? "VEC4" : "VEC3").setArray(track.values).setBuffer(buffer);
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(track.interpolation);
    const channel = doc.createAnimationChannel().setTargetNode(node).setTargetPath(track.path).setSampler(sampler);
    animation.addSampler(sampler).addChannel(channel);
  }
}
