/**
 * The authoring format of an animation graph, as read from JSON (`*.animgraph.json`) after validation.
 * This is the contract between the parser/linter (src/spec) and the compiler/runtime (src/graph).
 * Every node keeps the JSON pointer it came from, so the compiler and the runtime can name it in
 * diagnostics. Names are arbitrary Unicode strings; collections keyed by name are Maps, in file order.
 *
 * JSON shape (docs/spec-format.md is the user-facing description; schema/animgraph.schema.json the schema):
 * {
 *   "animgraph": 1,
 *   "name": "robot",
 *   "frameRate": 30,
 *   "transitionBudget": { "minFrames": 4, "maxFrames": 24 },
 *   "parameters": { "speed": { "type": "float", "default": 0, "min": 0, "max": 6 }, "jump": { "type": "trigger" } },
 *   "masks": { "upperBody": { "include": ["Torso"], "exclude": ["Neck"], "weight": 1 } },
 *   "layers": [ { "name": "base", "weight": 1, "mode": "override", "mask": "upperBody",
 *                 "machine": { "entry": "Idle", "states": { … }, "transitions": [ … ] } } ]
 * }
 */

/** Where a spec element came from: a JSON pointer into the spec file. */
export interface SpecSource {
  readonly pointer: string;
}

export type ParamType = "float" | "int" | "bool" | "trigger";

export interface ParamSpec extends SpecSource {
  readonly name: string;
  readonly type: ParamType;
  /** Default value: a number for float/int, a boolean for bool; false for trigger. */
  readonly default: number | boolean;
  /** Optional range for float/int (inclusive); used by the linter and the studio's sliders. */
  readonly min?: number;
  readonly max?: number;
}

export interface MaskSpec extends SpecSource {
  readonly name: string;
  /** Joints included with their descendants. */
  readonly include: readonly string[];
  /** Joints excluded with their descendants (applied after include). */
  readonly exclude: readonly string[];
  /** Weight of the included joints, 0..1. Default 1. */
  readonly weight: number;
}

export type LayerMode = "override" | "additive";

export interface LayerSpec extends SpecSource {
  readonly name: string;
  /** 0..1, default 1. May be driven by a float parameter. */
  readonly weight: number | ParamRef;
  readonly mode: LayerMode;
  /** Name of a mask in `masks`; absent = all joints. */
  readonly mask?: string;
  readonly machine: MachineSpec;
}

/** A value read from a parameter at run time (e.g. a state's speed). */
export interface ParamRef {
  readonly param: string;
}

export interface MachineSpec extends SpecSource {
  /** The entry state s0. */
  readonly entry: string;
  readonly states: ReadonlyMap<string, StateSpec>;
  /** In priority order: the first transition whose conditions hold fires. */
  readonly transitions: readonly TransitionSpec[];
}

export type LoopModeSpec = "loop" | "clamp" | "pingpong";

export interface StateSpec extends SpecSource {
  readonly name: string;
  readonly motion: MotionSpec;
  /** Playback rate multiplier, a constant (default 1) or a parameter. */
  readonly speed: number | ParamRef;
  /** Overrides the clip's loop mode; default "loop". */
  readonly loop?: LoopModeSpec;
  /** Events at clip times (seconds, in the state's own time), e.g. footsteps. */
  readonly events: readonly EventSpec[];
  /** A final state may have no way out without the linter calling it a dead end. */
  readonly final: boolean;
  /** Sync group: states in one group blend by normalised time (phase). */
  readonly syncGroup?: string;
}

export interface EventSpec extends SpecSource {
  readonly name: string;
  /** Seconds into the motion's cycle. */
  readonly time: number;
}

export type MotionSpec = ClipMotionSpec | Blend1DSpec | Blend2DSpec | MachineMotionSpec;

export interface ClipMotionSpec extends SpecSource {
  readonly kind: "clip";
  readonly clip: string;
}

/** 1D blend tree: children at positions on one parameter axis. */
export interface Blend1DSpec extends SpecSource {
  readonly kind: "blend1d";
  readonly param: string;
  /** "linear": piecewise linear between the two neighbours; "inverseDistance": the seed's 1/(1+|p−c|). */
  readonly weighting: "linear" | "inverseDistance";
  /** Blend children by normalised time (phase) so cycles of different lengths stay in step. Default true. */
  readonly sync: boolean;
  readonly children: readonly { readonly at: number; readonly clip: string; readonly pointer: string }[];
}

/** 2D blend space over two parameters. */
export interface Blend2DSpec extends SpecSource {
  readonly kind: "blend2d";
  readonly params: readonly [string, string];
  /** "freeform": Delaunay triangulation + barycentric; "grid": bilinear on a rectangular grid. */
  readonly mode: "freeform" | "grid";
  readonly sync: boolean;
  readonly samples: readonly { readonly x: number; readonly y: number; readonly clip: string; readonly pointer: string }[];
}

/** A nested state machine as a state's motion. */
export interface MachineMotionSpec extends SpecSource {
  readonly kind: "machine";
  readonly machine: MachineSpec;
}

export type CompareOp = ">" | ">=" | "<" | "<=" | "==" | "!=";

/**
 * One condition; a transition fires when all of its conditions hold.
 * - float/int: `{ "param": "speed", "op": ">", "value": 0.1 }`
 * - bool: `{ "param": "grounded" }` (true) or with `"op": "==", "value": false`
 * - trigger: `{ "param": "jump" }`: holds while the trigger is set; consumed when the transition fires.
 */
export interface ConditionSpec extends SpecSource {
  readonly param: string;
  readonly op: CompareOp;
  readonly value: number | boolean;
}

/**
 * Who may interrupt a running transition:
 * "none" (not interruptible), "source" (transitions out of the source state), "target" (out of the
 * target state), "sourceThenTarget", "targetThenSource" (both, in that priority).
 */
export type InterruptionSource = "none" | "source" | "target" | "sourceThenTarget" | "targetThenSource";

export interface InterruptionSpec {
  readonly source: InterruptionSource;
  /** When interrupted: true freezes the interrupted blend into a pose; false keeps it evaluating. */
  readonly freeze: boolean;
}

export type CurveName = "linear" | "smoothstep" | "smootherstep" | "easeIn" | "easeOut";

export interface TransitionSpec extends SpecSource {
  /** A state name, or "*" for any state. */
  readonly from: string;
  readonly to: string;
  readonly conditions: readonly ConditionSpec[];
  /** Crossfade duration in seconds (durationFrames / frameRate when given in frames). */
  readonly duration: number;
  /** The duration as authored in frames, when it was (the budget check uses it). */
  readonly durationFrames?: number;
  readonly curve: CurveName;
  /**
   * Exit time as a fraction of the source's cycle (0..1; the seed's exitPermille / 1000): the
   * transition may fire only once the source has played this far. Absent = any time.
   */
  readonly exitTime?: number;
  /** True when the exit time was written as `exitPermille` (diagnostics point there). */
  readonly exitPermille?: boolean;
  /** Seconds into the target motion where it starts. Default 0. */
  readonly offset: number;
  readonly interruption: InterruptionSpec;
  /** Allowed from the target state itself (a "*" transition re-entering its own target). Default false. */
  readonly canTransitionToSelf: boolean;
}

export interface GraphSpec {
  /** The file the spec came from (for diagnostics). */
  readonly file: string;
  readonly version: 1;
  readonly name: string;
  /** Frames per second for durations given in frames. Default 30. */
  readonly frameRate: number;
  readonly transitionBudget?: { readonly minFrames: number; readonly maxFrames: number; readonly pointer: string };
  readonly parameters: ReadonlyMap<string, ParamSpec>;
  readonly masks: ReadonlyMap<string, MaskSpec>;
  readonly layers: readonly LayerSpec[];
}
