import { childPointer } from "../diagnostics/diagnostic.ts";
import type { GraphSpec } from "../spec/graph-spec.ts";
import { checkIkChain } from "./ik-chain-rule.ts";
import type { LintSink } from "./lint-sink.ts";

/**
 * With the skeleton's joints and their parents, each IK layer's chains are checked as `compileGraph`
 * checks them (E_IK_NOT_A_CHAIN), so a graph that lints clean against a character compiles against it.
 */
export function checkIkHierarchy(spec: GraphSpec, joints: readonly string[] | undefined, parents: ArrayLike<number> | undefined, sink: LintSink): void {
  if (!joints || !parents || !spec.ik || spec.ik.length === 0) return;
  const index = new Map<string, number>();
  joints.forEach((name, j) => {
    if (!index.has(name)) index.set(name, j);
  });
  const error = (code: string, pointer: string, message: string): void => sink.add(code, pointer, message);
  for (const layer of spec.ik) {
    const check = (names: readonly string[], pointer: string, shift: number): void => {
      checkIkChain(layer.name, names, names.map((n) => index.get(n) ?? -1), parents, pointer, shift, error);
    };
    if (layer.solver === "twoBone") check(layer.joints, childPointer(layer.pointer, "joints"), 0);
    else if (layer.solver === "aim") check(layer.chain, childPointer(layer.pointer, "chain"), 0);
    // A leg is a chain below the pelvis.
    else layer.legs.forEach((leg, i) => check([layer.pelvis, ...leg], childPointer(childPointer(layer.pointer, "legs"), i), 1));
  }
}
