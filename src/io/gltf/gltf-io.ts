import { NodeIO } from "@gltf-transform/core";
import { ALL_EXTENSIONS } from "@gltf-transform/extensions";

/**
 * A NodeIO that knows every extension glTF-Transform implements (materials, lights, texture transforms,
 * mesh instancing, …), so a character read and written back keeps them: without them
 * `KHR_materials_specular` and the like are dropped with "Missing optional extension" and the output
 * renders differently. Extensions that need a decoder module (Draco, meshopt) are registered too; a file
 * that uses them fails to read with a diagnostic rather than losing its geometry.
 */
export function createGltfIO(): NodeIO {
  return new NodeIO().registerExtensions(ALL_EXTENSIONS);
}
