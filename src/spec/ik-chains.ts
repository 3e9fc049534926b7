import { childPointer } from "../diagnostics/diagnostic.ts";
import type { IkLayerSpec } from "./ik-spec.ts";

/**
 * The hierarchy rule of one IK layer, shared by `compileGraph` and the linter (so a graph `lint` passes
 * with a skeleton always compiles): each chain joint must be an ancestor of the next, and a foot-placement
 * pelvis an ancestor of each leg's upper joint (E_IK_NOT_A_CHAIN, at the later name). Names `indexOf` does
 * not know are skipped (E_UNKNOWN_JOINT is reported where names are resolved). `parents[j]` is joint j's
 * parent, −1 for a root, parents before children (`parents[j] < j`). Returns false when it reported something.
 */
export function checkIkChains(
  spec: IkLayerSpec,
  indexOf: (name: string) => number | undefined,
  parents: ArrayLike<number>,
  error: (code: string, pointer: string, message: string) => void,
): boolean {
  let ok = true;
  // Link k of `names` (its joint k − 1 above its joint k) is reported at `pointer`/(k − shift).
  const chain = (names: readonly string[], pointer: string, shift: number): void => {
    for (let k = 1; k < names.length; k++) {
      const a = indexOf(names[k - 1]!), t = indexOf(names[k]!);
      if (a !== undefined && t !== undefined && !isAncestor(parents, a, t)) {
        error("E_IK_NOT_A_CHAIN", childPointer(pointer, k - shift), `IK layer "${spec.name}": "${names[k - 1]}" is not an ancestor of "${names[k]}"`);
        ok = false;
      }
    }
  };
  if (spec.solver === "twoBone") chain(spec.joints, childPointer(spec.pointer, "joints"), 0);
  else if (spec.solver === "aim") chain(spec.chain, childPointer(spec.pointer, "chain"), 0);
  // A leg is a chain below the pelvis.
  else spec.legs.forEach((leg, i) => chain([spec.pelvis, ...leg], childPointer(childPointer(spec.pointer, "legs"), i), 1));
  return ok;
}

/** Whether joint `a` is a proper ancestor of joint `t`: parents come before their children, so the walk up stops below `a`. */
function isAncestor(parents: ArrayLike<number>, a: number, t: number): boolean {
  let p = parents[t]!;
  while (p > a) p = parents[p]!;
  return p === a;
}
