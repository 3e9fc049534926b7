// Small glTF documents built with @gltf-transform/core for loader tests, and helpers to corrupt them:
// unpack a GLB into JSON + BIN, edit either, pack it again.
import { Document, NodeIO } from "@gltf-transform/core";

export interface Unpacked {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  bin: Uint8Array;
}

export function unpackGlb(glb: Uint8Array): Unpacked {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binLength = dv.getUint32(20 + jsonLength, true);
  const bin = glb.slice(28 + jsonLength, 28 + jsonLength + binLength);
  return { json, bin };
}

/** Packs JSON and BIN into a GLB; `editText` may rewrite the JSON text (to write what JSON.stringify cannot, like 1e999). */
export function packGlb({ json, bin }: Unpacked, editText: (text: string) => string = (t) => t): Uint8Array {
  const text = new TextEncoder().encode(editText(JSON.stringify(json)));
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const binLength = Math.ceil(bin.length / 4) * 4;
  const total = 12 + 8 + jsonLength + 8 + binLength;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLength, true);
  dv.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLength);
  dv.setUint32(20 + jsonLength, binLength, true);
  dv.setUint32(24 + jsonLength, 0x004e4942, true);
  out.set(bin, 28 + jsonLength);
  return out;
}

/** Byte offset in the BIN chunk of element `i`, component `k` of float accessor `index`. */
export function floatOffset(u: Unpacked, index: number, i: number, k = 0): number {
  const acc = u.json.accessors[index];
  const view = u.json.bufferViews[acc.bufferView];
  const size = { SCALAR: 1, VEC3: 3, VEC4: 4, MAT4: 16 }[acc.type as string]!;
  const stride = view.byteStride ?? 4 * size;
  return (view.byteOffset ?? 0) + (acc.byteOffset ?? 0) + i * stride + 4 * k;
}

/**
 * A small rig: scene root "Armature" (not a joint, rotated) → "hips" → "spine" → "head", plus a
 * non-joint "prop" under head and a morph mesh node "face". The skin lists the joints child-first
 * (head, hips, spine) so the loader must reorder. Animation "move" (accessor indices noted below):
 *   channel 0: hips translation LINEAR (3 keys)          channel 1: spine rotation STEP (3 keys)
 *   channel 2: head rotation CUBICSPLINE (2 keys)        channel 3: hips rotation from normalized SHORT
 *   channel 4: prop translation (not a joint)            channel 5: face morph weights (2 targets)
 */
export async function buildRig(): Promise<{ glb: Uint8Array; accessors: Record<string, number> }> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const acc = (type: "SCALAR" | "VEC3" | "VEC4" | "MAT4", array: Float32Array | Int16Array, normalized = false) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer).setNormalized(normalized);

  const armature = doc.createNode("Armature").setRotation([Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
  const hips = doc.createNode("hips").setTranslation([0, 1, 0]);
  const spine = doc.createNode("spine").setTranslation([0, 0.5, 0]);
  const head = doc.createNode("head").setTranslation([0, 0.4, 0]);
  const prop = doc.createNode("prop").setTranslation([0.1, 0, 0]);
  armature.addChild(hips);
  hips.addChild(spine);
  spine.addChild(head);
  head.addChild(prop);

  const positions = acc("VEC3", new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
  const prim = doc.createPrimitive().setAttribute("POSITION", positions);
  for (let k = 0; k < 2; k++) prim.addTarget(doc.createPrimitiveTarget(`t${k}`).setAttribute("POSITION", acc("VEC3", new Float32Array(9).fill(k + 1))));
  const face = doc.createNode("face").setMesh(doc.createMesh("face").addPrimitive(prim).setWeights([0, 0]));
  armature.addChild(face);
  doc.createScene().addChild(armature);

  // Inverse bind matrices: inverses of the joints' model-space translations (rotation-free rig).
  const ibm = (y: number) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y, 0, 1];
  const ibmAcc = acc("MAT4", new Float32Array([...ibm(1.9), ...ibm(1), ...ibm(1.5)]));
  const skin = doc.createSkin("rig").addJoint(head).addJoint(hips).addJoint(spine).setInverseBindMatrices(ibmAcc);
  face.setSkin(skin);

  const anim = doc.createAnimation("move");
  const accessors: Record<string, number> = {};
  const channel = (node: ReturnType<Document["createNode"]>, path: "translation" | "rotation" | "weights", interp: "LINEAR" | "STEP" | "CUBICSPLINE", input: ReturnType<typeof acc>, output: ReturnType<typeof acc>) => {
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(interp);
    anim.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(path).setSampler(sampler));
  };
  const t3 = acc("SCALAR", new Float32Array([0, 0.5, 1]));
  const hipsT = acc("VEC3", new Float32Array([0, 1, 0, 0.5, 1, 0, 1, 1, 0]));
  channel(hips, "translation", "LINEAR", t3, hipsT);
  const spineR = acc("VEC4", new Float32Array([0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2, 0, 0, 1, 0]));
  channel(spine, "rotation", "STEP", t3, spineR);
  const t2 = acc("SCALAR", new Float32Array([0.25, 1.25]));
  const headR = acc("VEC4", new Float32Array([
    0, 0, 0, 0, /**/ 0, 0, 0, 1, /**/ 0.1, 0, 0, 0,
    0, 0.1, 0, 0, /**/ 0, 1, 0, 0, /**/ 0, 0, 0, 0,
  ]));
  channel(head, "rotation", "CUBICSPLINE", t2, headR);
  const hipsR = acc("VEC4", new Int16Array([0, 0, 0, 32767, 0, 23170, 0, 23170]), true);
  channel(hips, "rotation", "LINEAR", acc("SCALAR", new Float32Array([0, 1])), hipsR);
  channel(prop, "translation", "LINEAR", t2, acc("VEC3", new Float32Array([0, 0, 0, 1, 0, 0])));
  const faceW = acc("SCALAR", new Float32Array([0, 1, 1, 0.5]));
  channel(face, "weights", "LINEAR", t2, faceW);

  const glb = await new NodeIO().writeBinary(doc);
  const u = unpackGlb(glb);
  // Map the named accessors to their written indices via the sampler layout.
  const samplers = u.json.animations[0].samplers;
  accessors["t3"] = samplers[0].input;
  accessors["hipsT"] = samplers[0].output;
  accessors["spineR"] = samplers[1].output;
  accessors["t2"] = samplers[2].input;
  accessors["headR"] = samplers[2].output;
  accessors["hipsR"] = samplers[3].output;
  accessors["faceW"] = samplers[5].output;
  accessors["ibm"] = u.json.skins[0].inverseBindMatrices;
  return { glb, accessors };
}
