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

import type { IkLayerSpec } from "./ik-spec.ts";

/** Where a spec element came from: a JSON pointer into the spec file. */
export interface SpecSource {
  /** RFC 6901 JSON pointer of the element in the spec file ("" is the document root). */
  readonly pointer: string;
}

/** A parameter's type: a number (`float`, `int`), a flag (`bool`) or a one-shot flag consumed by the transition that tests it (`trigger`). */
export type ParamType = "float" | "int" | "bool" | "trigger";

/** A graph parameter: a value the game sets each frame and conditions, blends, speeds and weights read. */
export interface ParamSpec extends SpecSource {
  /** The parameter's name (its key in `parameters`). */
  readonly name: string;
  /** What kind of value it holds. */
  readonly type: ParamType;
  /** Default value: a number for float/int, a boolean for bool; false for trigger. */
  readonly default: number | boolean;
  /** Optional range for float/int (inclusive); used by the linter and the studio's sliders. */
  readonly min?: number;
  /** Optional upper bound for float/int (inclusive), ≥ `min`. */
  readonly max?: number;
}

/** A bone mask: which joints a layer affects, and how strongly. */
export interface MaskSpec extends SpecSource {
  /** The mask's name (its key in `masks`). */
  readonly name: string;
  /** Joints included with their descendants. */
  readonly include: readonly string[];
  /** Joints excluded with their descendants (applied after include). */
  readonly exclude: readonly string[];
  /** Weight of the included joints, 0..1. Default 1. */
  readonly weight: number;
}

/** How a layer combines with the layers below it: `override` blends towards its pose, `additive` adds its clips' difference from their reference pose. */
export type LayerMode = "override" | "additive";

/** One animation layer: a state machine whose pose is blended over the layers before it. */
export interface LayerSpec extends SpecSource {
  /** The layer's name, unique in the graph. */
  readonly name: string;
  /** 0..1, default 1. May be driven by a float parameter. */
  readonly weight: number | ParamRef;
  /** How the layer combines with those below it; default `override`. */
  readonly mode: LayerMode;
  /** Name of a mask in `masks`; absent = all joints. */
  readonly mask?: string;
  /** The layer's state machine. */
  readonly machine: MachineSpec;
}

/** A value read from a parameter at run time (e.g. a state's speed). */
export interface ParamRef {
  /** Name of a float or int parameter. */
  readonly param: string;
}

/** A state machine: states, an entry state and transitions in priority order. */
export interface MachineSpec extends SpecSource {
  /** The entry state s0. */
  readonly entry: string;
  /** The states by name, in file order (at least one). */
  readonly states: ReadonlyMap<string, StateSpec>;
  /** In priority order: the first transition whose conditions hold fires. */
  readonly transitions: readonly TransitionSpec[];
}

/** How a state plays its motion past the end: `loop` wraps, `clamp` holds the last pose, `pingpong` plays back and forth. */
export type LoopModeSpec = "loop" | "clamp" | "pingpong";

/** One state of a machine: the motion it plays, how fast, and its events. */
export interface StateSpec extends SpecSource {
  /** The state's name, unique in its machine. */
  readonly name: string;
  /** What the state plays (exactly one of clip, blend1d, blend2d, machine). */
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

/** A named event that fires when a state's motion passes a time (a footstep, a hit frame). */
export interface EventSpec extends SpecSource {
  /** The event's name, reported in `notify` events. */
  readonly name: string;
  /** Seconds into the motion's cycle. */
  readonly time: number;
}

/** What a state plays, told apart by `kind`. */
export type MotionSpec = ClipMotionSpec | Blend1DSpec | Blend2DSpec | MachineMotionSpec;

/** One clip as a state's motion. */
export interface ClipMotionSpec extends SpecSource {
  /** Discriminant of {@link MotionSpec}. */
  readonly kind: "clip";
  /** Name of the clip (a keyframed or procedural clip given to `compileGraph`). */
  readonly clip: string;
  /** Play the clip's mirror image (left and right swapped, motion reflected; docs/mirroring.md). Default false. */
  readonly mirror?: boolean;
}

/** 1D blend tree: children at positions on one parameter axis. */
export interface Blend1DSpec extends SpecSource {
  /** Discriminant of {@link MotionSpec}. */
  readonly kind: "blend1d";
  /** The float or int parameter that positions the blend. */
  readonly param: string;
  /** "linear": piecewise linear between the two neighbours; "inverseDistance": the seed's 1/(1+|p−c|). */
  readonly weighting: "linear" | "inverseDistance";
  /** Blend children by normalised time (phase) so cycles of different lengths stay in step. Default true. */
  readonly sync: boolean;
  /** The children: a clip at position `at` on the axis, mirrored when `mirror` is true, with the child's JSON pointer. */
  readonly children: readonly { readonly at: number; readonly clip: string; readonly mirror?: boolean; readonly pointer: string }[];
}

/** 2D blend space over two parameters. */
export interface Blend2DSpec extends SpecSource {
  /** Discriminant of {@link MotionSpec}. */
  readonly kind: "blend2d";
  /** The float or int parameters of the x and y axes. */
  readonly params: readonly [string, string];
  /** "freeform": Delaunay triangulation + barycentric; "grid": bilinear on a rectangular grid. */
  readonly mode: "freeform" | "grid";
  /** Blend samples by normalised time (phase). Default true. */
  readonly sync: boolean;
  /** The samples: a clip at (x, y), mirrored when `mirror` is true, with the sample's JSON pointer. */
  readonly samples: readonly { readonly x: number; readonly y: number; readonly clip: string; readonly mirror?: boolean; readonly pointer: string }[];
}

/** A nested state machine as a state's motion. */
export interface MachineMotionSpec extends SpecSource {
  /** Discriminant of {@link MotionSpec}. */
  readonly kind: "machine";
  /** The nested machine (at most 8 levels deep, counting the layer's). */
  readonly machine: MachineSpec;
}

/** A condition's comparison of a parameter with a value. */
export type CompareOp = ">" | ">=" | "<" | "<=" | "==" | "!=";

/**
 * One condition; a transition fires when all of its conditions hold.
 * - float/int: `{ "param": "speed", "op": ">", "value": 0.1 }`
 * - bool: `{ "param": "grounded" }` (true) or with `"op": "==", "value": false`
 * - trigger: `{ "param": "jump" }`: holds while the trigger is set; consumed when the transition fires.
 */
export interface ConditionSpec extends SpecSource {
  /** The parameter tested. */
  readonly param: string;
  /** The comparison; `==` when the condition does not give one. */
  readonly op: CompareOp;
  /** The value compared with; `true` when an `==`/`!=` condition does not give one (bool: is true; trigger: is set). */
  readonly value: number | boolean;
}

/**
 * Who may interrupt a running transition:
 * "none" (not interruptible), "source" (transitions out of the source state), "target" (out of the
 * target state), "sourceThenTarget", "targetThenSource" (both, in that priority).
 */
export type InterruptionSource = "none" | "source" | "target" | "sourceThenTarget" | "targetThenSource";

/** A transition's interruption policy: who may interrupt it while it runs, and what happens to its blend. */
export interface InterruptionSpec {
  /** Whose transitions may interrupt it. Default `none`. */
  readonly source: InterruptionSource;
  /** When interrupted: true freezes the interrupted blend into a pose; false keeps it evaluating. */
  readonly freeze: boolean;
}

/** The easing curve of a crossfade's weight over its progress (default `smoothstep`, w = s²(3 − 2s)). */
export type CurveName = "linear" | "smoothstep" | "smootherstep" | "easeIn" | "easeOut";

/**
 * How a transition moves from the source to the target (docs/transitions.md):
 * - `crossfade`: both poses are evaluated and mixed by the curve's weight for the whole duration.
 * - `inertialize`: only the target is evaluated; the difference between the last output pose (and its
 *   velocity) and the target decays to zero over the duration, so the output keeps its velocity.
 * - `deadBlend`: the last output pose is extrapolated with its velocity (decaying) and crossfaded to the
 *   target by the curve; only the target is evaluated.
 */
export type TransitionBlend = "crossfade" | "inertialize" | "deadBlend";

/** A transition of a state machine: when it may fire and how it crossfades to its target. */
export interface TransitionSpec extends SpecSource {
  /** A state name, or "*" for any state. */
  readonly from: string;
  /** The target state's name (never "*"). */
  readonly to: string;
  /** All must hold for the transition to fire; none means always. */
  readonly conditions: readonly ConditionSpec[];
  /** Crossfade duration in seconds (durationFrames / frameRate when given in frames). */
  readonly duration: number;
  /** The duration as authored in frames, when it was (the budget check uses it). */
  readonly durationFrames?: number;
  /** The crossfade's easing curve (also deadBlend's; inertialize's decay has its own shape). */
  readonly curve: CurveName;
  /**
   * How the transition moves to its target: `crossfade`, `inertialize` or `deadBlend`. The parser always
   * fills it in; absent (a spec built by hand before the field existed) means `crossfade`.
   */
  readonly blend?: TransitionBlend;
  /**
   * Exit time as a fraction of the source's cycle (0..1; the seed's exitPermille / 1000): the
   * transition may fire only once the source has played this far. Absent = any time.
   */
  readonly exitTime?: number;
  /** True when the exit time was written as `exitPermille` (diagnostics point there). */
  readonly exitPermille?: boolean;
  /** Seconds into the target motion where it starts. Default 0. */
  readonly offset: number;
  /** Who may interrupt the running crossfade. */
  readonly interruption: InterruptionSpec;
  /** Allowed from the target state itself (a "*" transition re-entering its own target). Default false. */
  readonly canTransitionToSelf: boolean;
}

/** A parsed and validated animation graph spec with every default filled in (built by `parseGraphSpec`). */
export interface GraphSpec {
  /** The file the spec came from (for diagnostics). */
  readonly file: string;
  /** The format version (`"animgraph": 1`). */
  readonly version: 1;
  /** The graph's name. */
  readonly name: string;
  /** Frames per second for durations given in frames. Default 30. */
  readonly frameRate: number;
  /** Allowed crossfade lengths in frames (inclusive), checked by the linter; absent = no budget. */
  readonly transitionBudget?: { readonly minFrames: number; readonly maxFrames: number; readonly pointer: string };
  /** Parameters by name, in file order. */
  readonly parameters: ReadonlyMap<string, ParamSpec>;
  /** Bone masks by name, in file order. */
  readonly masks: ReadonlyMap<string, MaskSpec>;
  /** Layers, bottom first (layer 0 is the base layer). */
  readonly layers: readonly LayerSpec[];
  /** How clips marked `mirror` are mirrored; absent = axis x, pairs found from joint names. */
  readonly mirror?: MirrorSpec;
  /** IK layers, applied in order after the animation layers (docs/ik.md); empty when the spec has none. */
  readonly ik?: readonly IkLayerSpec[];
}

/** The graph's mirror settings (docs/mirroring.md): the plane and the left/right pairs. */
export interface MirrorSpec extends SpecSource {
  /** Normal of the mirror plane in the skeleton's model space. Default "x". */
  readonly axis: "x" | "y" | "z";
  /** Pairs that override what joint names say; `[a, a]` keeps `a` on the plane. Default none. */
  readonly pairs: readonly (readonly [string, string])[];
  /** Pair the remaining joints by their names. Default true. */
  readonly detect: boolean;
}
