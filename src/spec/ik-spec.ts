import type { ParamRef, SpecSource } from "./graph-spec.ts";

/** Which IK job an IK layer runs (docs/ik.md). */
export type IkSolverName = "twoBone" | "aim" | "footPlacement";

/** A number given in the spec, or read from a float/int parameter every frame. */
export type IkValue = number | ParamRef;

/** What every IK layer has: a name, a solver and a weight (0–1, a constant or a parameter). */
interface IkLayerBase extends SpecSource {
  /** The layer's name, unique among the IK layers. */
  readonly name: string;
  /** false: the layer is kept in the spec (and checked) but does not run, like a disabled constraint. Default true. */
  readonly enabled: boolean;
  /** 0..1, default 1; a float/int parameter is clamped to 0..1 each frame. */
  readonly weight: number | ParamRef;
}

/** A two-bone IK layer: a limb's end reaches a target (a hand on a prop, a foot on a step). */
export interface TwoBoneIkLayerSpec extends IkLayerBase {
  /** Discriminant of {@link IkLayerSpec}. */
  readonly solver: "twoBone";
  /** Upper, middle and end joint (e.g. UpperArm.L, LowerArm.L, Hand.L): each an ancestor of the next. */
  readonly joints: readonly [string, string, string];
  /** The target in model space (x, y, z), each a number or a parameter. */
  readonly target: readonly [IkValue, IkValue, IkValue];
  /** The direction the middle joint points towards, in model space. Default (0, 0, 1). */
  readonly pole: readonly [number, number, number];
  /** 0–1: how far the bend plane turns towards the pole (TwoBoneIkSettings.poleWeight). Default 1. */
  readonly poleWeight: number;
  /** Soft limit, a fraction of the limb's length (0–0.5). Default 0.02. */
  readonly softness: number;
}

/** An aim (look-at) layer: a chain (spine → neck → head) turns so the last joint's axis points at a target. */
export interface AimIkLayerSpec extends IkLayerBase {
  /** Discriminant of {@link IkLayerSpec}. */
  readonly solver: "aim";
  /** Joints from the base to the aiming joint, each an ancestor of the next. */
  readonly chain: readonly string[];
  /** Per chain joint, the share (0–1) of the remaining turn it takes. Default: 1/(n − i) for joint i, so the turn is shared evenly. */
  readonly jointWeights: readonly number[];
  /** Per chain joint, the most it turns, in radians (given in degrees in the spec). Default 180°. */
  readonly maxAngles: readonly number[];
  /** The aiming joint's local axis that should point at the target. Default (0, 0, 1). */
  readonly axis: readonly [number, number, number];
  /** The target in model space, each a number or a parameter. */
  readonly target: readonly [IkValue, IkValue, IkValue];
}

/** A foot-placement layer: feet on a ground plane from parameters, the pelvis lowered for the lower foot. */
export interface FootPlacementLayerSpec extends IkLayerBase {
  /** Discriminant of {@link IkLayerSpec}. */
  readonly solver: "footPlacement";
  /** The joint lowered when a foot must reach further down (the hips). Absent: the nearest joint above every leg's upper joint, found at compile time. */
  readonly pelvis?: string;
  /** Per leg: upper leg, lower leg, foot (each an ancestor of the next). */
  readonly legs: readonly (readonly [string, string, string])[];
  /**
   * The ground: a plane through (0, height, 0) with the given normal (model space, `up` the height axis);
   * the ground's height at a point is height − (n · p⊥) / (n · up). Defaults: height 0, normal = up (absent here).
   */
  readonly ground: { readonly height: IkValue; readonly normal?: readonly [IkValue, IkValue, IkValue] };
  /**
   * Model space's up. Absent: found at compile time from the legs' rest pose (hips above feet), the nearest
   * axis when within 20° (`legsUp`), reported as I_IK_UP_DERIVED.
   */
  readonly up?: readonly [number, number, number];
  /** Height (along up) of the floor the animation was made on. Default 0. */
  readonly floor: number;
  /** Most the pelvis may drop, in model units. Default: no limit. */
  readonly maxPelvisDrop?: number;
  /** 0–1: how far feet tilt onto the ground's normal. Default 1. */
  readonly alignToNormal: number;
  /** The legs' soft limit. Default 0.02. */
  readonly softness: number;
}

/** One IK layer: applied after the animation layers, in file order (see docs/ik.md). */
export type IkLayerSpec = TwoBoneIkLayerSpec | AimIkLayerSpec | FootPlacementLayerSpec;
