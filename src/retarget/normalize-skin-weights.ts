import type { Document } from "@gltf-transform/core";
import { argumentError, expectNumberInRange } from "../errors/check-argument.ts";

/** What `normalizeSkinWeights` changed. */
export interface SkinWeightFix {
  /** Vertices whose joint weights did not sum to 1 and were rescaled. */
  readonly vertices: number;
  /** Primitives touched, as JSON pointers (`/meshes/12/primitives/1`). */
  readonly primitives: readonly string[];
}

/**
 * Rescales float skin weights (WEIGHTS_0, WEIGHTS_1, … together) so each vertex's weights sum to 1,
 * as the glTF spec requires and the Khronos validator checks (ACCESSOR_WEIGHTS_NON_NORMALIZED).
 * Exporters often leave sums like 1.039 (RobotExpressive does); engines renormalise at load, so the
 * skinned result does not change. Normalised-integer weights and all-zero vertices are left alone.
 * Mutates `doc`; callers report the returned count (a tolerated normalisation is reported, not silent).
 */
export function normalizeSkinWeights(doc: Document, tolerance = 1e-6): SkinWeightFix {
  if (typeof doc !== "object" || doc === null || typeof (doc as Partial<Document>).getRoot !== "function") {
    throw argumentError("normalizeSkinWeights", "doc", "a glTF-Transform Document", doc);
  }
  expectNumberInRange("normalizeSkinWeights", "tolerance", tolerance, 0, 1);
  let vertices = 0;
  const primitives: string[] = [];
  doc.getRoot().listMeshes().forEach((mesh, m) => {
    mesh.listPrimitives().forEach((prim, p) => {
      const sets = prim.listSemantics().filter((s) => /^WEIGHTS_\d+$/.test(s)).sort().map((s) => prim.getAttribute(s)!);
      if (sets.length === 0 || sets.some((a) => a.getComponentType() !== 5126 || a.getElementSize() !== 4)) return;
      const arrays = sets.map((a) => a.getArray() as Float32Array);
      const count = sets[0]!.getCount();
      let touched = 0;
      for (let v = 0; v < count; v++) {
        let sum = 0;
        for (const arr of arrays) for (let k = 0; k < 4; k++) sum += arr[4 * v + k]!;
        if (sum <= 0 || Math.abs(sum - 1) <= tolerance) continue;
        for (const arr of arrays) for (let k = 0; k < 4; k++) arr[4 * v + k] = arr[4 * v + k]! / sum;
        touched++;
      }
      if (touched > 0) {
        vertices += touched;
        primitives.push(`/meshes/${m}/primitives/${p}`);
        // Accessors may be shared between primitives; setArray marks the data as changed.
        for (let i = 0; i < sets.length; i++) sets[i]!.setArray(arrays[i]!);
      }
    });
  });
  return { vertices, primitives };
}
