import type { GraphSpec, MachineSpec } from "../spec/graph-spec.ts";
import { clip } from "../spec/spec-reader.ts";
import type { LintSink } from "./lint-sink.ts";

/**
 * A trigger tested in more than one layer (W_TRIGGER_SHARED_BY_LAYERS). A trigger is consumed by the
 * first transition that fires on it, and layers update in order, so when an earlier layer fires on it
 * a later layer never sees it that step (docs/runtime.md, "Triggers"). Reported at the later layers'
 * conditions.
 */
export function checkSharedTriggers(spec: GraphSpec, sink: LintSink): void {
  const firstLayer = new Map<string, string>();
  for (const layer of spec.layers) {
    const here = new Map<string, string>(); // trigger → first condition pointer in this layer
    const visit = (m: MachineSpec): void => {
      for (const t of m.transitions) {
        for (const c of t.conditions) {
          if (spec.parameters.get(c.param)?.type === "trigger" && !here.has(c.param)) here.set(c.param, c.pointer);
        }
      }
      for (const s of m.states.values()) if (s.motion.kind === "machine") visit(s.motion.machine);
    };
    visit(layer.machine);
    for (const [name, pointer] of here) {
      const earlier = firstLayer.get(name);
      if (earlier === undefined) {
        firstLayer.set(name, layer.name);
        continue;
      }
      sink.add(
        "W_TRIGGER_SHARED_BY_LAYERS", pointer,
        `trigger "${clip(name)}" is also tested in layer "${clip(earlier)}", which updates first: when a transition there fires on it, the trigger is consumed and layer "${clip(layer.name)}" does not see it (use a separate trigger per layer)`,
      );
    }
  }
}
