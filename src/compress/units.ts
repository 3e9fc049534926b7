import { expectString } from "../errors/check-argument.ts";
import { localToModelUnchecked } from "../pose/local-to-model.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";

const LENGTH = /^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e([+-]?[0-9]+))?(mm|cm|m)$/i;
const METRES: Record<string, number> = { mm: 1e-3, cm: 1e-2, m: 1 };

/**
 * Parses a length with a unit — `0.1mm`, `1e-4m`, `0.01cm` — into metres. A bare number (no unit), a
 * negative, zero or non-finite value gives undefined (the caller reports it).
 */
export function parseLength(text: string): number | undefined {
  expectString("parseLength", "text", text);
  const m = LENGTH.exec(text.trim());
  if (!m) return undefined;
  const value = Number(`${m[1]!}e${m[2] ?? "0"}`) * METRES[m[3]!.toLowerCase()]!;
  return value > 0 && Number.isFinite(value) ? value : undefined;
}

/**
 * Assumed largest extent of a human skeleton's joints, metres: a 1.7 m adult's joints span about
 * 1.5 m (the head top and toe tips are end sites, not joints).
 */
export const ASSUMED_JOINT_EXTENT_METRES = 1.5;

/**
 * Estimates skeleton units per metre from the rest pose: the largest side of the joints' model-space
 * bounding box is taken to be `extentMetres` (default 1.5 m, `ASSUMED_JOINT_EXTENT_METRES`). Only
 * good to about ±20 % for human skeletons (CMU 131_01.bvh gives 15.1 units/m where CMU's ASF definition,
 * 1 unit = 1/0.45 inch = 5.644 cm, gives 17.72; pirouette.bvh, in centimetres, gives 99.3): pass the factor
 * explicitly when it is known. Returns 1 for a skeleton with no extent.
 */
export function estimateUnitsPerMetre(skeleton: Skeleton, extentMetres = ASSUMED_JOINT_EXTENT_METRES): number {
  const J = skeleton.jointCount;
  const model = localToModelUnchecked(new Float32Array(16 * J), skeleton, skeleton.rest);
  let extent = 0;
  for (let c = 0; c < 3; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let j = 0; j < J; j++) {
      const x = model[16 * j + 12 + c]!;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (hi - lo > extent) extent = hi - lo;
  }
  return extent > 0 ? extent / extentMetres : 1;
}
