import type { GraphSpec } from "../spec/graph-spec.ts";
import { checkIkChains } from "../spec/ik-chains.ts";
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
  for (const layer of spec.ik) checkIkChains(layer, (name) => index.get(name), parents, (code, pointer, message) => sink.add(code, pointer, message));
}
