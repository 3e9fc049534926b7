/**
 * The single table of what the graph spec parser accepts: for every kind of JSON object, its keys,
 * and for every enumerated field, its values. The parser reads only these keys (anything else is
 * E_SPEC_UNKNOWN_KEY, except extension keys starting with `x-`), and a test checks that
 * schema/animgraph.schema.json lists exactly the same keys and values, so the two cannot drift.
 */
export const SPEC_KEYS = {
  root: ["$schema", "animgraph", "name", "description", "frameRate", "transitionBudget", "parameters", "masks", "layers", "mirror", "ik"],
  mirror: ["axis", "pairs", "detect"],
  transitionBudget: ["minFrames", "maxFrames"],
  parameter: ["type", "default", "min", "max"],
  mask: ["include", "exclude", "weight"],
  layer: ["name", "weight", "mode", "mask", "machine"],
  paramRef: ["param"],
  machine: ["entry", "states", "transitions"],
  state: ["clip", "blend1d", "blend2d", "machine", "speed", "loop", "events", "final", "syncGroup", "mirror"],
  event: ["name", "time"],
  blend1d: ["param", "weighting", "sync", "children"],
  blend1dChild: ["at", "clip", "mirror"],
  blend2d: ["params", "mode", "sync", "samples"],
  blend2dSample: ["x", "y", "clip", "mirror"],
  transition: [
    "from", "to", "conditions", "duration", "durationFrames", "curve", "exitTime", "exitPermille", "offset",
    "interruption", "canTransitionToSelf", "blend",
  ],
  condition: ["param", "op", "value"],
  interruption: ["source", "freeze"],
  ikLayer: [
    "name", "solver", "enabled", "weight", "target", "joints", "pole", "poleWeight", "softness", "chain", "jointWeights", "maxAngle", "axis",
    "pelvis", "legs", "ground", "up", "floor", "maxPelvisDrop", "alignToNormal",
  ],
  ikGround: ["height", "normal"],
} as const satisfies Record<string, readonly string[]>;

/** A kind of JSON object in a graph spec (`root`, `state`, `transition`, …): the keys of `SPEC_KEYS`. */
export type SpecObjectKind = keyof typeof SPEC_KEYS;

/** Keys starting with this prefix are extension data: accepted anywhere and ignored. */
export const EXTENSION_KEY_PREFIX = "x-";

/** The values each enumerated field accepts (the schema's `enum` lists must match). */
export const SPEC_ENUMS = {
  paramType: ["float", "int", "bool", "trigger"],
  layerMode: ["override", "additive"],
  loop: ["loop", "clamp", "pingpong"],
  weighting: ["linear", "inverseDistance"],
  blend2dMode: ["freeform", "grid"],
  op: [">", ">=", "<", "<=", "==", "!="],
  curve: ["linear", "smoothstep", "smootherstep", "easeIn", "easeOut"],
  interruptionSource: ["none", "source", "target", "sourceThenTarget", "targetThenSource"],
  ikSolver: ["twoBone", "aim", "footPlacement"],
  transitionBlend: ["crossfade", "inertialize", "deadBlend"],
  mirrorAxis: ["x", "y", "z"],
} as const satisfies Record<string, readonly string[]>;

/** The state name that means "any state" in a transition's `from`; not allowed as a state's own name. */
export const ANY_STATE = "*";

/** Defaults filled in by the parser (documented in docs/spec-format.md). */
export const SPEC_DEFAULTS = {
  frameRate: 30,
  /** Crossfade duration in seconds when neither `duration` nor `durationFrames` is given. */
  duration: 0.2,
  curve: "smoothstep",
  /** How a transition moves from the source to the target (docs/transitions.md). */
  blend: "crossfade",
  offset: 0,
  speed: 1,
  layerWeight: 1,
  layerMode: "override",
  maskWeight: 1,
  weighting: "linear",
  blend2dMode: "freeform",
  sync: true,
  op: "==",
  interruption: { source: "none", freeze: false },
  mirror: false,
  mirrorAxis: "x",
} as const;
