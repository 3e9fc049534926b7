import type { CompiledBlendSpace2D } from "../blend-space/compile-blend-space-2d.ts";
import type { LoopMode } from "../clip/clip.ts";
import type { Curve } from "../math/curves.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { InterruptionSource, LayerMode, ParamType, TransitionBlend } from "../spec/graph-spec.ts";
import type { RootMotionExtractor } from "../root-motion/root-motion.ts";
import type { CompiledIkLayer } from "./ik-layers.ts";
import type { MotionSource } from "./motion-source.ts";

/**
 * The immutable, index-resolved form of a GraphSpec (built by `compileGraph`, shared by every
 * character). Names survive only for reporting; the runtime works with slots and indices.
 */
export interface CompiledGraph {
  /** The spec's `name`. */
  readonly name: string;
  /** The spec file (for messages). */
  readonly file: string;
  /** The skeleton the graph was compiled against; poses have its joint count. */
  readonly skeleton: Skeleton;
  /** Parameters in file order; `slot` indexes GraphInstance.params. */
  readonly params: readonly CompiledParam[];
  /** Parameter name → index in `params` (equal to its slot). */
  readonly paramIndex: ReadonlyMap<string, number>;
  /** Layers, bottom first. */
  readonly layers: readonly CompiledLayer[];
  /** Every machine, top-level and nested, by id (a layer's machine, then its nested ones, depth first). */
  readonly machines: readonly CompiledMachine[];
  /** The runtime options, defaults filled in. */
  readonly options: ResolvedRuntimeOptions;
  /** Joint whose translation is reported as root motion, or -1 (root motion off). */
  readonly rootJoint: number;
  /**
   * Root-motion extractors per keyframed clip (when rootJoint ≥ 0): sampled poses are stripped of the
   * root's horizontal travel and yaw, which `step` reports as `rootDelta` instead.
   */
  readonly rootExtractors: ReadonlyMap<MotionSource, RootMotionExtractor>;
  /** Whether any state plays a procedural clip (their root velocity counts as root motion). */
  readonly hasProcedural: boolean;
  /** IK layers, applied in order after the animation layers (docs/ik.md); empty when the spec has none. */
  readonly ik: readonly CompiledIkLayer[];
}

/** A parameter resolved to its slot in `GraphInstance.params`. */
export interface CompiledParam {
  /** The parameter's name in the spec. */
  readonly name: string;
  /** Its type, which decides how conditions compare it. */
  readonly type: ParamType;
  /** Index of its value in `GraphInstance.params`. */
  readonly slot: number;
  /** Default as a number (bool/trigger: 0 or 1). */
  readonly default: number;
}

/** Condition operators, in the order of `CompareOp`. */
export const OP = { gt: 0, ge: 1, lt: 2, le: 3, eq: 4, ne: 5 } as const;

/** A transition condition resolved to a parameter slot and an operator code. */
export interface CompiledCondition {
  /** Slot of the parameter tested. */
  readonly slot: number;
  /** The parameter's type. */
  readonly type: ParamType;
  /** One of OP. */
  readonly op: number;
  /** Comparison value (bool as 0/1). */
  readonly value: number;
}

/** Interruption sources as codes (see InterruptionSource). */
export const INTERRUPT = { none: 0, source: 1, target: 2, sourceThenTarget: 3, targetThenSource: 4 } as const;

/** Transition blend modes as codes (see TransitionBlend). */
export const BLEND = { crossfade: 0, inertialize: 1, deadBlend: 2 } as const;

/** A transition resolved to state indices, parameter slots and codes (see `GraphTransitionSpec` for the meaning of each field). */
export interface CompiledTransition {
  /** Index in the machine's `transitions` (file order). */
  readonly index: number;
  /** JSON pointer of the transition in the spec file. */
  readonly pointer: string;
  /** Source state index, or -1 for "*" (any state). */
  readonly from: number;
  /** Target state index. */
  readonly to: number;
  /** All must hold for the transition to fire. */
  readonly conditions: readonly CompiledCondition[];
  /** Slots of trigger parameters among the conditions: reset when the transition fires. */
  readonly triggerSlots: Int32Array;
  /** Seconds (≥ 0). */
  readonly duration: number;
  /** The crossfade's easing curve, as a function of progress 0..1. */
  readonly curve: Curve;
  /** One of BLEND: how the transition moves to its target. */
  readonly blend: number;
  /** The blend mode by name (for reports). */
  readonly blendName: TransitionBlend;
  /** Fraction of the source's cycle the source must have played, or -1 (any time). */
  readonly exitTime: number;
  /** Seconds into the target motion where it starts. */
  readonly offset: number;
  /** One of INTERRUPT. */
  readonly interruption: number;
  /** The interruption policy by name (for reports). */
  readonly interruptionName: InterruptionSource;
  /** When interrupted: true freezes the interrupted blend into one pose; false keeps it evaluating. */
  readonly freeze: boolean;
  /** Whether a "*" transition may fire while already in its target (restarting it). */
  readonly canTransitionToSelf: boolean;
}

/** A state event: a name and the time in the motion's cycle at which it fires. */
export interface CompiledEvent {
  /** The event's name, reported in `notify` events. */
  readonly name: string;
  /** Seconds into the motion's cycle. */
  readonly time: number;
}

/**
 * A state's motion resolved to motion sources and parameter slots, told apart by `kind`. A source
 * index (`sourceIndex`, `sourceIndices`) numbers the graph's distinct motion sources 0, 1, … in order
 * of first use (an additive layer's clip counts as its delta clip).
 */
export type CompiledMotion =
  | {
      readonly kind: "clip";
      /** What the state plays: the clip, or its mirror image (made at compile time) when `mirrored`. */
      readonly source: MotionSource;
      readonly sourceIndex: number;
      /** True when the spec marks the state `"mirror": true` (`source` is then the mirrored clip). */
      readonly mirrored?: boolean;
    }
  | {
      readonly kind: "blend1d";
      /** Slot of the parameter that positions the blend. */
      readonly slot: number;
      readonly weighting: "linear" | "inverseDistance";
      /** Blend children by normalised time (phase). */
      readonly sync: boolean;
      /** Each child's position on the parameter axis. */
      readonly positions: Float64Array;
      /** The children's motions, in spec order. */
      readonly sources: readonly MotionSource[];
      readonly sourceIndices: Int32Array;
      /** Child durations in seconds (for the synchronised cycle length). */
      readonly durations: Float64Array;
    }
  | {
      readonly kind: "blend2d";
      /** Slot of the x-axis parameter. */
      readonly slotX: number;
      /** Slot of the y-axis parameter. */
      readonly slotY: number;
      readonly mode: "freeform" | "grid";
      /** Blend samples by normalised time (phase). */
      readonly sync: boolean;
      /** The samples' motions, in spec order. */
      readonly sources: readonly MotionSource[];
      readonly sourceIndices: Int32Array;
      /** Child durations in seconds (for the synchronised cycle length). */
      readonly durations: Float64Array;
      /** Freeform: the triangulated space. */
      readonly space: CompiledBlendSpace2D | null;
      /** Grid: axis positions and, per grid cell (row-major, x fastest), the sample index. */
      readonly grid: { readonly xs: Float64Array; readonly ys: Float64Array; readonly cellSample: Int32Array } | null;
    }
  | { readonly kind: "machine"; readonly machine: CompiledMachine };

/** A state resolved for the runtime: its motion, playback rate, loop mode and events. */
export interface CompiledState {
  /** Index in the machine's `states` (file order). */
  readonly index: number;
  /** The state's name in the spec. */
  readonly name: string;
  /** JSON pointer of the state in the spec file. */
  readonly pointer: string;
  /** What the state plays. */
  readonly motion: CompiledMotion;
  /** Constant playback rate, used when speedSlot is -1. */
  readonly speed: number;
  /** Float/int parameter slot driving the rate, or -1. */
  readonly speedSlot: number;
  /** How the motion plays past its end (the state's `loop`, else the clip's own mode). */
  readonly loop: LoopMode;
  /** Sorted by time. */
  readonly events: readonly CompiledEvent[];
  /** Whether the state may have no way out (see `StateSpec.final`). */
  readonly final: boolean;
  /** Sync group id (index into the graph's group names) or -1. */
  readonly syncGroup: number;
}

/** A state machine resolved for the runtime, with each state's outgoing transitions precomputed. */
export interface CompiledMachine {
  /** Index in `CompiledGraph.machines`. */
  readonly id: number;
  /** "layer/State/…" path, for messages. */
  readonly path: string;
  /** JSON pointer of the machine in the spec file. */
  readonly pointer: string;
  /** Index of the entry state. */
  readonly entry: number;
  /** States in file order. */
  readonly states: readonly CompiledState[];
  /** State name → index in `states`. */
  readonly stateIndex: ReadonlyMap<string, number>;
  /** Every transition, in file order. */
  readonly transitions: readonly CompiledTransition[];
  /**
   * Per state, the transitions that may leave it, in priority (file) order: its own and the "*"
   * transitions interleaved by their position in the file.
   */
  readonly outgoing: readonly Int32Array[];
  /** Nesting depth (0 for a layer's machine). */
  readonly depth: number;
  /**
   * Whether any transition inertializes or dead-blends: such a machine keeps its last two output poses
   * (the source pose and velocity those transitions start from). Crossfade-only machines keep nothing.
   */
  readonly inertial: boolean;
}

/** A layer resolved for the runtime: its machine, blend mode, weight and per-joint mask. */
export interface CompiledLayer {
  /** Index in `CompiledGraph.layers` (0 is the base layer). */
  readonly index: number;
  /** The layer's name in the spec. */
  readonly name: string;
  /** How the layer combines with those below it. */
  readonly mode: LayerMode;
  /** Constant weight 0..1, used when weightSlot is -1. */
  readonly weight: number;
  /** Slot of the float/int parameter driving the weight (clamped to 0..1), or -1. */
  readonly weightSlot: number;
  /** Per-joint weights 0..1, or null (all joints, weight 1). */
  readonly mask: Float32Array | null;
  /** The layer's state machine. */
  readonly machine: CompiledMachine;
}

/** How a new transition treats an unfinished one when the interruption policy allows it. */
export type InterruptMode = "stack" | "cut";

/**
 * Runtime options fixed at compile time. The defaults are the library's semantics; the seed demo
 * uses `sourceTime: "freeze"`, `targetTime: "resume"`, `interruptMode: "cut"`.
 */
export interface RuntimeOptions {
  /**
   * Bit-identical runs everywhere: quaternion interpolation by Eberly's polynomial slerp (only + − × ÷ √),
   * polynomial curves. Default false (exact slerp with Math.acos/sin).
   */
  readonly deterministic?: boolean;
  /** Whether a fading-out source state keeps playing ("advance", default) or holds its time ("freeze"). */
  readonly sourceTime?: "advance" | "freeze";
  /** On entering a state: restart at the transition's offset ("reset", default) or continue its last time ("resume"). */
  readonly targetTime?: "reset" | "resume";
  /**
   * "stack" (default): an interrupting transition fades from the whole running blend (kept evaluating
   * or frozen, per the transition's `freeze`). "cut": the running blend is dropped and the new
   * transition fades from the current state alone (the seed's StateMachine).
   */
  readonly interruptMode?: InterruptMode;
  /** Deepest transition stack per machine (≥ 1, default 8); older entries collapse into a frozen pose. */
  readonly maxStackDepth?: number;
  /** Longest step taken whole, in seconds (default 0.1); a longer dt is split into ceil(dt / maxSubstep) equal sub-steps. */
  readonly maxSubstep?: number;
  /** Most sub-steps per step (default 16); beyond that sub-steps grow longer. */
  readonly maxSubsteps?: number;
  /** Transitions that may fire back to back without time passing (zero-duration chains), default 8. */
  readonly maxChain?: number;
  /** Capacity of the per-step event queue (default 256); overflowing events are counted, not stored. */
  readonly eventCapacity?: number;
  /**
   * What the clips of additive layers are measured against (makeAdditiveClip): "firstFrame" (default,
   * each clip's own pose at time 0, so a clip held at time 0 adds nothing) or "rest" (the skeleton's rest
   * pose). Procedural clips in additive layers must produce delta poses themselves.
   */
  readonly additiveReference?: "firstFrame" | "rest";
  /** Joint name for root motion, "auto" (the first joint animated in translation by any clip), or null (default: off). */
  readonly rootMotion?: string | null;
}

/**
 * {@link RuntimeOptions} with every default filled in (built by `resolveRuntimeOptions`), plus the
 * quaternion interpolation they imply. Fields mean what they mean on RuntimeOptions.
 */
export interface ResolvedRuntimeOptions {
  readonly deterministic: boolean;
  /** `fastSlerp` (polynomial, bit-identical everywhere) when deterministic, else `slerp`. */
  readonly quatMode: QuatInterpolation;
  readonly sourceTime: "advance" | "freeze";
  readonly targetTime: "reset" | "resume";
  readonly interruptMode: InterruptMode;
  readonly maxStackDepth: number;
  readonly maxSubstep: number;
  readonly maxSubsteps: number;
  readonly maxChain: number;
  readonly eventCapacity: number;
  readonly additiveReference: "firstFrame" | "rest";
}
