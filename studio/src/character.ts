// A character for the studio: one parse of a .glb — three.js's GLTFLoader reads the file for drawing,
// and fromThreeGltf takes animgraph's skeleton, clips and bone binding from its result (bit for bit what
// loadGltf gives).
import type * as THREE from "three";
import { GLTFLoader, type GLTF } from "three/examples/jsm/loaders/GLTFLoader.js";
import type { Clip, Diagnostic, Skeleton } from "animgraph";
import { fromThreeGltf, type ThreeBinding } from "animgraph/three";

export interface Character {
  readonly name: string;
  readonly gltf: GLTF;
  readonly skeleton: Skeleton;
  /** The clips that animate `skeleton`. */
  readonly clips: readonly Clip[];
  readonly binding: ThreeBinding;
  readonly root: THREE.Object3D;
}

/** The character, or the findings that say why the file is not one. */
export async function readCharacter(bytes: Uint8Array, name: string): Promise<{ character: Character } | { diagnostics: Diagnostic[] }> {
  let gltf: GLTF;
  try {
    gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, "");
  } catch (e) {
    return { diagnostics: [{ code: "E_GLTF_READ", severity: "error", file: name, pointer: "", message: `three.js could not read it: ${(e as Error).message}` }] };
  }
  const loaded = await fromThreeGltf(gltf, { fileName: name });
  if (!loaded.ok || loaded.skeletons.length === 0 || !loaded.binding) {
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    return { diagnostics: errors.length > 0 ? errors : [{ code: "E_NO_SKELETON", severity: "error", file: name, pointer: "", message: "the file has no skeleton to animate" }] };
  }
  const skeleton = loaded.skeletons[0]!;
  return { character: { name, gltf, skeleton, clips: loaded.clips.filter((c) => c.skeleton === skeleton), binding: loaded.binding, root: gltf.scene } };
}
