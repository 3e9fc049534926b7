import { expectArray, expectNumber, expectOneOf, expectPose } from "../errors/check-argument.ts";
import { quatInterpolateAt, QUAT_INTERPOLATIONS, type QuatInterpolation } from "../math/quat.ts";
import type { Pose } from "../pose/pose.ts";
import { applyAdditiveAt } from "./apply-additive.ts";
import type { BoneMask } from "./bone-mask.ts";
import { expectLayer, expectOptionalMask, LAYER_MODES } from "./check-blend-arguments.ts";

/** How a layer combines with the pose below it. */
export type LayerMode = "override" | "additive";

/** One layer of a layer stack. */
export interface Layer {
  /** The layer's pose this frame (for `additive`, a delta pose sampled from an additive clip). */
  readonly pose: Pose;
  /** Layer weight, usually in [0, 1]. */
  readonly weight: number;
  /** Per-joint weights multiplied into `weight`; omitted = every joint 1. */
  readonly mask?: BoneMask;
  readonly mode: LayerMode;
}

/**
 * Applies one layer onto `base` with per-joint weight w_j = weight · mask[j] (mask omitted: 1):
 * - `override`: x_j = (1 − w_j)·base_j + w_j·layer_j (rotations shortest-arc `rotation`, default
 *   nlerp); w_j ≤ 0 keeps the base joint and w_j ≥ 1 takes the layer joint, bit for bit;
 * - `additive`: `applyAdditive(out, base, layer, weight, mask)`.
 * Aliasing: `out` may be `base` or `layerPose`. No allocation.
 */
export function applyLayer(
  out: Pose,
  base: Pose,
  layerPose: Pose,
  weight: number,
  mask: BoneMask | undefined,
  mode: LayerMode,
  rotation: QuatInterpolation = mode === "additive" ? "slerp" : "nlerp",
): Pose {
  const fn = "applyLayer";
  expectPose(fn, "base", base);
  expectPose(fn, "out", out, base.jointCount);
  expectPose(fn, "layerPose", layerPose, base.jointCount);
  expectNumber(fn, "weight", weight);
  expectOptionalMask(fn, "mask", mask, base.jointCount);
  expectOneOf(fn, "mode", mode, LAYER_MODES);
  expectOneOf(fn, "rotation", rotation, QUAT_INTERPOLATIONS);
  arg[0] = weight;
  return applyLayerAt(out, base, layerPose, arg, 0, mask, mode, rotation);
}
const arg = new Float64Array(1);
/** Each joint's weight, handed to quatInterpolateAt in memory (src/math/quat.ts explains why). */
const jointWeight = new Float64Array(1);

/** `applyLayer` with weight = ws[wi]: the per-frame form (no double crosses a call; see src/math/quat.ts). */
export function applyLayerAt(
  out: Pose,
  base: Pose,
  layerPose: Pose,
  ws: Float64Array,
  wi: number,
  mask: BoneMask | undefined,
  mode: LayerMode,
  rotation: QuatInterpolation = mode === "additive" ? "slerp" : "nlerp",
): Pose {
  if (mode === "additive") return applyAdditiveAt(out, base, layerPose, ws, wi, mask, rotation);
  const weight = ws[wi]!;
  const J = out.jointCount;
  for (let j = 0; j < J; j++) {
    const w = mask ? weight * mask[j]! : weight;
    const src = w >= 1 ? layerPose : !(w > 0) ? base : null;
    const j3 = 3 * j, j4 = 4 * j;
    if (src) {
      if (src !== out) {
        for (let c = 0; c < 3; c++) {
          out.t[j3 + c] = src.t[j3 + c]!;
          out.s[j3 + c] = src.s[j3 + c]!;
        }
        for (let c = 0; c < 4; c++) out.r[j4 + c] = src.r[j4 + c]!;
      }
      continue;
    }
    const s = 1 - w;
    for (let c = 0; c < 3; c++) {
      out.t[j3 + c] = s * base.t[j3 + c]! + w * layerPose.t[j3 + c]!;
      out.s[j3 + c] = s * base.s[j3 + c]! + w * layerPose.s[j3 + c]!;
    }
    jointWeight[0] = w;
    quatInterpolateAt(rotation, out.r, j4, base.r, j4, layerPose.r, j4, jointWeight, 0);
  }
  return out;
}

/**
 * Applies `layers` in order onto `base` (each layer sees the result of the ones before it), writing
 * into `out`. Aliasing: `out` may be `base`; it must not be a layer's pose unless that is the first
 * layer. No allocation.
 */
export function applyLayers(out: Pose, base: Pose, layers: readonly Layer[]): Pose {
  const fn = "applyLayers";
  expectPose(fn, "base", base);
  expectPose(fn, "out", out, base.jointCount);
  expectArray(fn, "layers", layers);
  // One check per layer (a handful), none per joint; the loop below then runs unchecked.
  for (let i = 0; i < layers.length; i++) expectLayer(fn, `layers[${i}]`, layers[i], base.jointCount);
  let below = base;
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i]!;
    arg[0] = layer.weight;
    applyLayerAt(out, below, layer.pose, arg, 0, layer.mask, layer.mode);
    below = out;
  }
  if (below === base && out !== base) {
    out.t.set(base.t);
    out.r.set(base.r);
    out.s.set(base.s);
  }
  return out;
}
