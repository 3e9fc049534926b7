import { childPointer } from "../diagnostics/diagnostic.ts";

/**
 * The linter's form of the hierarchy rule `compileIkLayers` applies (src/graph/ik-layers.ts keeps its own
 * inline copy so the browser runtime stays within its size budget): each joint of `joints` (indices, −1
 * for a name the skeleton lacks, skipped) must be an ancestor of the next (E_IK_NOT_A_CHAIN, at
 * `pointer`/(k − shift) for the k-th joint; a leg's chain starts with its pelvis, shift 1, and the pelvis
 * message says so). `parents` lists parents before children (`parents[j] < j`).
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
  for (let k = 1; k < joints.length; k++) {
    const a = joints[k - 1]!;
    let p = joints[k]!;
    if (a < 0 || p < 0) continue;
    // Parents come before their children: the walk up from joint k stops below `a`.
    do p = parents[p]!; while (p > a);
    if (p === a) continue;
    const message = k === 1 && shift === 1
      ? `IK layer "${layer}": the pelvis "${names[0]}" is not an ancestor of "${names[1]}"`
      : `IK layer "${layer}": "${names[k - 1]}" is not an ancestor of "${names[k]}"`;
    error("E_IK_NOT_A_CHAIN", childPointer(pointer, k - shift), message);
  }
}
