import { childPointer } from "../diagnostics/diagnostic.ts";

/**
 * The linter's form of the hierarchy rule `compileIkLayers` applies (src/graph/ik-layers.ts keeps its own
 * inline copy so the browser runtime stays within its size budget): each joint of `joints` (indices, −1
 * for a name the skeleton lacks, skipped) must be an ancestor of the next (E_IK_NOT_A_CHAIN, at
 * `pointer`/(k − shift) for the k-th joint; a leg's chain starts with its pelvis, shift 1, and the pelvis
 * message says so; its foot may instead hang from an ancestor of its upper joint, as an IK rig's foot does).
 * `parents` lists parents before children (`parents[j] < j`).
 */
export function checkIkChain(
  layer: string,
  names: readonly string[],
  joints: readonly number[],
  parents: ArrayLike<number>,
  pointer: string,
  shift: number,
  error: (code: string, pointer: string, message: string) => void,
): void {
  const below = (a: number, t: number): boolean => {
    // Parents come before their children: the walk up from t stops below `a`.
    let p = t;
    do p = parents[p]!; while (p > a);
    return p === a;
  };
  for (let k = 1; k < joints.length; k++) {
    const a = joints[k - 1]!, t = joints[k]!;
    if (a < 0 || t < 0 || below(a, t)) continue;
    // A leg's foot may hang from above the leg (an IK rig's foot under the root: RobotExpressive's Foot.L).
    if (shift === 1 && k === 3 && joints[1]! >= 0 && parents[t]! >= 0 && below(parents[t]!, joints[1]!)) continue;
    const message = k === 1 && shift === 1
      ? `IK layer "${layer}": the pelvis "${names[0]}" is not an ancestor of "${names[1]}"`
      : `IK layer "${layer}": "${names[k - 1]}" is not an ancestor of "${names[k]}"`;
    error("E_IK_NOT_A_CHAIN", childPointer(pointer, k - shift), message);
  }
}
