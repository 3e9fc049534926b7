import { childPointer } from "../diagnostics/diagnostic.ts";
import { findMirrorPairs } from "../mirror/find-mirror-pairs.ts";
import type { GraphSpec, MachineSpec } from "../spec/graph-spec.ts";
import type { LintSink } from "./lint-sink.ts";

/**
 * Clips marked `mirror` need the skeleton's joints in left/right pairs. With joint names (a skeleton
 * from `--clips`), the pairs the graph's `mirror` settings and the names give are checked as
 * `compileGraph` will: E_MIRROR_UNPAIRED, E_MIRROR_AMBIGUOUS, E_MIRROR_UNKNOWN_JOINT and
 * E_MIRROR_PAIR_TWICE, at the first `mirror` flag (problems of the names) or at the pair; with the
 * joints' `parents` also the hierarchy (E_MIRROR_HIERARCHY), as `compileGraph` checks it.
 */
export function checkMirror(spec: GraphSpec, joints: readonly string[] | undefined, parents: ArrayLike<number> | undefined, sink: LintSink): void {
  if (!joints) return;
  const first = firstMirrorFlag(spec);
  if (first === undefined) return;
  const settings = spec.mirror;
  const r = findMirrorPairs(joints, parents, {
    pairs: settings?.pairs ?? [], detect: settings?.detect ?? true, file: spec.file, pairsFile: spec.file,
    pairsPointer: settings ? childPointer(settings.pointer, "pairs") : "/mirror/pairs",
  });
  for (const d of r.diagnostics) sink.add(d.code, d.pointer === "" ? first : d.pointer, d.message);
}

/** The JSON pointer of the first `mirror: true` in file order (a state's, a blend child's or a sample's). */
export function firstMirrorFlag(spec: GraphSpec): string | undefined {
  const inMachine = (m: MachineSpec): string | undefined => {
    for (const s of m.states.values()) {
      const motion = s.motion;
      if (motion.kind === "clip" && motion.mirror === true) return childPointer(s.pointer, "mirror");
      if (motion.kind === "blend1d") for (const c of motion.children) if (c.mirror === true) return childPointer(c.pointer, "mirror");
      if (motion.kind === "blend2d") for (const c of motion.samples) if (c.mirror === true) return childPointer(c.pointer, "mirror");
      if (motion.kind === "machine") {
        const nested = inMachine(motion.machine);
        if (nested !== undefined) return nested;
      }
    }
    return undefined;
  };
  for (const layer of spec.layers) {
    const found = inMachine(layer.machine);
    if (found !== undefined) return found;
  }
  return undefined;
}
