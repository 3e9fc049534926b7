import type { JsonDocument } from "../json/index.ts";
import type { LoopModeSpec } from "../spec/graph-spec.ts";

/** What the linter knows about one clip (from a glTF file, or given by the caller). */
export interface LintClipInfo {
  /** The clip's name, as states name it. */
  readonly name: string;
  /** Seconds, ≥ 0. */
  readonly duration: number;
  /** The clip's own loop mode, when known; a state's `loop` overrides it. Default "loop". */
  readonly loop?: LoopModeSpec;
}

/** What the linter may check names against, and where findings get their line and column from. */
export interface LintOptions {
  /** The clips the graph may name; without them clip names are not checked. */
  readonly clips?: readonly LintClipInfo[];
  /** The skeleton's joint names; without them mask joints are not checked. */
  readonly joints?: readonly string[];
  /**
   * Per joint of `joints`, the index of its parent in `joints` (−1 for a root), parents before children,
   * as `Skeleton.parents`.
   * With it the hierarchy rules `compileGraph` applies are checked too: IK chains (E_IK_NOT_A_CHAIN) and
   * the parents of mirrored joints (E_MIRROR_HIERARCHY).
   */
  readonly jointParents?: ArrayLike<number>;
  /**
   * Per joint of `joints`, its model-space position in the rest pose (3 numbers; `modelFrames` of
   * `Skeleton.rest`). With it (and `jointParents`) a foot-placement layer's `up` is checked against its legs
   * (W_IK_UP_ACROSS_LEGS).
   */
  readonly jointRest?: ArrayLike<number>;
  /** The document the spec was parsed from: findings then carry line and column. */
  readonly document?: JsonDocument;
}
