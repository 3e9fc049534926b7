import type { CompiledBlendSpace2D } from "../blend-space/compile-blend-space-2d.ts";
import type { LoopMode } from "../clip/clip.ts";
import type { Curve } from "../math/curves.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { InterruptionSource, LayerMode, ParamType } from "../spec/graph-spec.ts";
import type { RootMotionExtractor } from "../root-motion/root-motion.ts";
import type { MotionSource } from "./motion-source.ts";

/**
 * The immutable, index-resolved form of a GraphSpec (built by `compileGraph`, shared by every
 * character). Names survive only for reporting; the runtime works with slots and indices.
 */
export interface CompiledGraph {
  readonly name: string;
  /** The spec file (for messages). */
  readonly file: string;
  readonly skeleton: Skeleton;
  /** Parameters in file order; `slot` indexes GraphInstance.params. */
  readonly params: readonly CompiledParam[];
  readonly paramIndex: ReadonlyMap<string, number>;
  readonly layers: readonly CompiledLayer[];
  /** Every machine, top-level and nested, by id (a layer's machine, then its nested ones, depth first). */
  readonly machines: readonly CompiledMachine[];
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
}

export interface CompiledParam {
  readonly name: string;
  readonly type: ParamType;
  readonly slot: number;
  /** Default as a number (bool/trigger: 0 or 1). */
  readonly default: number;
}

/** Condition operators, in the order of `CompareOp`. */
export const OP = { gt: 0, ge: 1, lt: 2, le: 3, eq: 4, ne: 5 } as const;

export interface CompiledCondition {
  readonly slot: number;
  readonly type: ParamType;
  /** One of OP. */
  readonly op: number;
  /** Comparison value (bool as 0/1). */
  readonly value: number;
}

/** Interruption sources as codes (see InterruptionSource). */
export const INTERRUPT = { none: 0, source: 1, target: 2, sourceThenTarget: 3, targetThenSource: 4 } as const;

export interface CompiledTransition {
  /** Index in the machine's `transitions` (file order). */
  readonly index: number;
  readonly pointer: string;
  /** Source state index, or -1 for "*" (any state). */
  readonly from: number;
  readonly to: number;
  readonly conditions: readonly CompiledCondition[];
  /** Slots of trigger parameters among the conditions: reset when the transition fires. */
  readonly triggerSlots: Int32Array;
  /** Seconds (≥ 0). */
  readonly duration: number;
  readonly curve: Curve;
  /** Fraction of the source's cycle the source must have played, or -1 (any time). */
  readonly exitTime: number;
  /** Seconds into the target motion where it starts. */
  readonly offset: number;
  /** One of INTERRUPT. */
  readonly interruption: number;
  readonly interruptionName: InterruptionSource;
  readonly freeze: boolean;
  readonly canTransitionToSelf: boolean;
}

export interface CompiledEvent {
  readonly name: string;
  /** Seconds into the motion's cycle. */
  readonly time: number;
}

export type CompiledMotion =
  | { readonly kind: "clip"; readonly source: MotionSource; readonly sourceIndex: number }
  | {
      readonly kind: "blend1d";
      readonly slot: number;
      readonly weighting: "linear" | "inverseDistance";
      readonly sync: boolean;
      readonly positions: Float64Array;
      readonly sources: readonly MotionSource[];
      readonly sourceIndices: Int32Array;
      /** Child durations in seconds (for the synchronised cycle length). */
      readonly durations: Float64Array;
    }
  | {
      readonly kind: "blend2d";
      readonly slotX: number;
      readonly slotY: number;
      readonly mode: "freeform" | "grid";
      readonly sync: boolean;
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

export interface CompiledState {
  readonly index: number;
  readonly name: string;
  readonly pointer: string;
  readonly motion: CompiledMotion;
  /** Constant playback rate, used when speedSlot is -1. */
  readonly speed: number;
  /** Float/int parameter slot driving the rate, or -1. */
  readonly speedSlot: number;
  readonly loop: LoopMode;
  /** Sorted by time. */
  readonly events: readonly CompiledEvent[];
  readonly final: boolean;
  /** Sync group id (index into the graph's group names) or -1. */
  readonly syncGroup: number;
}

export interface CompiledMachine {
  readonly id: number;
  /** "layer/State/…" path, for messages. */
  readonly path: string;
  readonly pointer: string;
  readonly entry: number;
  readonly states: readonly CompiledState[];
  readonly stateIndex: ReadonlyMap<string, number>;
  readonly transitions: readonly CompiledTransition[];
  /**
   * Per state, the transitions that may leave it, in priority (file) order: its own and the "*"
   * transitions interleaved by their position in the file.
   */
  readonly outgoing: readonly Int32Array[];
  /** Nesting depth (0 for a layer's machine). */
  readonly depth: number;
}

export interface CompiledLayer {
  readonly index: number;
  readonly name: string;
  readonly mode: LayerMode;
  /** Constant weight 0..1, used when weightSlot is -1. */
  readonly weight: number;
  readonly weightSlot: number;
  /** Per-joint weights 0..1, or null (all joints, weight 1). */
  readonly mask: Float32Array | null;
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

export interface ResolvedRuntimeOptions {
  readonly deterministic: boolean;
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
