/**
 * A blend-check spec (see docs/blend-check.md): a four-corner 2D blend space with its query points, the
 * clip set the samples may name, and a state graph's transitions with a crossfade budget. Every integer
 * is a `bigint` (exact at any size, as Python reads JSON); every name is arbitrary Unicode and is only
 * ever used as a Map/Set key.
 */
export interface BlendCheckSpec {
  /** The project name, echoed in the report. */
  readonly project: string;
  /** The four-corner blend space whose weights are checked. */
  readonly blendSpace: BlendSpaceSpec;
  /** Clip names available to the samples. */
  readonly clipSet: readonly string[];
  /** Query points, coordinates in axis order (read from the members named by each axis's `param`). */
  readonly queryPoints: readonly BlendQuery[];
  /** The state names transitions may connect; a transition naming another one is dangling. */
  readonly states: readonly string[];
  /** The allowed crossfade lengths. */
  readonly transitionBudget: TransitionBudget;
  /** The state graph's transitions, in file order. */
  readonly transitions: readonly TransitionSpec[];
}

/**
 * A blend-check spec's 2D blend space: two integer axes and the samples that should sit on its four
 * corners (weights are bilinear, in per-mille; docs/blend-check.md gives the exact rule).
 */
export interface BlendSpaceSpec {
  /** The blend space's name, echoed in the report. */
  readonly name: string;
  /** Exactly two axes: x then y. */
  readonly axes: readonly [BlendAxis, BlendAxis];
  /** The clips placed in the space, in file order (the order weights are listed in). */
  readonly samples: readonly BlendSample[];
}

/** One axis of a blend-check blend space: the parameter it reads and its integer range. */
export interface BlendAxis {
  /** Parameter name; a query point gives this axis's coordinate under this key. */
  readonly param: string;
  /** Lower bound (integer, any size). */
  readonly min: bigint;
  /** Upper bound, > min. */
  readonly max: bigint;
}

/** A clip placed at one point of a blend-check blend space (normally a corner). */
export interface BlendSample {
  /** Clip name; should be listed in the spec's `clipSet`. */
  readonly clip: string;
  /** Position on the x axis (should be x.min or x.max). */
  readonly x: bigint;
  /** Position on the y axis (should be y.min or y.max). */
  readonly y: bigint;
}

/** A point to evaluate the blend-check blend space at (integers, extrapolated outside the axes). */
export interface BlendQuery {
  /** Coordinate on the x axis (`query[axes[0].param]`). */
  readonly x: bigint;
  /** Coordinate on the y axis (`query[axes[1].param]`). */
  readonly y: bigint;
}

/** Allowed crossfade lengths, in frames, inclusive: minFrames ≤ frames ≤ maxFrames. */
export interface TransitionBudget {
  /** Shortest allowed crossfade, frames. */
  readonly minFrames: bigint;
  /** Longest allowed crossfade, frames (≥ minFrames). */
  readonly maxFrames: bigint;
}

/**
 * One transition of a blend-check spec's state graph, checked against `states` and the crossfade
 * budget. (The graph spec's transition is `GraphTransitionSpec`.)
 */
export interface TransitionSpec {
  /** Source state name. */
  readonly from: string;
  /** Target state name. */
  readonly to: string;
  /** Crossfade length in frames. */
  readonly frames: bigint;
  /** Exit time in per-mille of the source state's clip (0 = any time). */
  readonly exitPermille: bigint;
  /** Whether another transition may interrupt the crossfade (part of the transition digest). */
  readonly interruptible: boolean;
}
