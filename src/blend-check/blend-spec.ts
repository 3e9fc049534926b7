/**
 * A blend-check spec (see docs/blend-check.md): a four-corner 2D blend space with its query points, the
 * clip set the samples may name, and a state graph's transitions with a crossfade budget. Every integer
 * is a `bigint` (exact at any size, as Python reads JSON); every name is arbitrary Unicode and is only
 * ever used as a Map/Set key.
 */
export interface BlendCheckSpec {
  readonly project: string;
  readonly blendSpace: BlendSpaceSpec;
  /** Clip names available to the samples. */
  readonly clipSet: readonly string[];
  /** Query points, coordinates in axis order (read from the members named by each axis's `param`). */
  readonly queryPoints: readonly BlendQuery[];
  readonly states: readonly string[];
  readonly transitionBudget: TransitionBudget;
  readonly transitions: readonly TransitionSpec[];
}

export interface BlendSpaceSpec {
  readonly name: string;
  /** Exactly two axes: x then y. */
  readonly axes: readonly [BlendAxis, BlendAxis];
  readonly samples: readonly BlendSample[];
}

export interface BlendAxis {
  /** Parameter name; a query point gives this axis's coordinate under this key. */
  readonly param: string;
  /** Lower bound (integer, any size). */
  readonly min: bigint;
  /** Upper bound, > min. */
  readonly max: bigint;
}

export interface BlendSample {
  readonly clip: string;
  /** Position on the x axis (should be x.min or x.max). */
  readonly x: bigint;
  /** Position on the y axis (should be y.min or y.max). */
  readonly y: bigint;
}

export interface BlendQuery {
  /** Coordinate on the x axis (`query[axes[0].param]`). */
  readonly x: bigint;
  /** Coordinate on the y axis (`query[axes[1].param]`). */
  readonly y: bigint;
}

/** Allowed crossfade lengths, in frames, inclusive: minFrames ≤ frames ≤ maxFrames. */
export interface TransitionBudget {
  readonly minFrames: bigint;
  readonly maxFrames: bigint;
}

export interface TransitionSpec {
  readonly from: string;
  readonly to: string;
  /** Crossfade length in frames. */
  readonly frames: bigint;
  /** Exit time in per-mille of the source state's clip (0 = any time). */
  readonly exitPermille: bigint;
  readonly interruptible: boolean;
}
