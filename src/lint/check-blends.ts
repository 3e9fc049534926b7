import { childPointer } from "../diagnostics/diagnostic.ts";
import { compileBlendSpace2DUnchecked } from "../blend-space/compile-blend-space-2d.ts";
import type { Blend1DSpec, Blend2DSpec, GraphSpec, MachineSpec } from "../spec/graph-spec.ts";
import { clip } from "../spec/spec-reader.ts";
import type { LintSink } from "./lint-sink.ts";

/**
 * Blend trees and spaces: 1D children at the same position (E_BLEND_DUPLICATE_POSITION); 2D spaces
 * over one parameter twice (E_BLEND_SAME_PARAMS); freeform spaces through the blend-space compiler
 * (E_BLEND_DUPLICATE_SAMPLE, E_BLEND_COLLINEAR warning); grid spaces that are not a full rectangular
 * grid (E_BLEND_DUPLICATE_SAMPLE, E_BLEND_GRID_INCOMPLETE).
 */
export function checkBlends(spec: GraphSpec, sink: LintSink): void {
  const visit = (m: MachineSpec): void => {
    for (const s of m.states.values()) {
      const motion = s.motion;
      if (motion.kind === "blend1d") check1D(motion, sink);
      else if (motion.kind === "blend2d") check2D(spec.file, motion, sink);
      else if (motion.kind === "machine") visit(motion.machine);
    }
  };
  for (const layer of spec.layers) visit(layer.machine);
}

function check1D(b: Blend1DSpec, sink: LintSink): void {
  const seen = new Map<number, string>();
  for (const c of b.children) {
    const first = seen.get(c.at);
    if (first !== undefined) {
      sink.add("E_BLEND_DUPLICATE_POSITION", childPointer(c.pointer, "at"), `child "${clip(c.clip)}" sits at ${c.at} like ${first}: one of them never gets weight alone`);
    } else seen.set(c.at, c.pointer);
  }
}

function check2D(file: string, b: Blend2DSpec, sink: LintSink): void {
  if (b.params[0] === b.params[1]) {
    sink.add("E_BLEND_SAME_PARAMS", childPointer(b.pointer, "params"), `both axes read parameter "${clip(b.params[0])}": the space has no second dimension`);
  }
  const samplesPointer = childPointer(b.pointer, "samples");
  if (b.mode === "freeform") {
    for (const d of compileBlendSpace2DUnchecked(b.samples, { file, pointer: samplesPointer }).diagnostics) {
      sink.add(d.code, d.pointer, d.message, d.severity);
    }
    return;
  }
  const seen = new Map<string, string>();
  const xs = new Set<number>();
  const ys = new Set<number>();
  for (const s of b.samples) {
    const key = `${s.x},${s.y}`;
    const first = seen.get(key);
    if (first !== undefined) {
      sink.add("E_BLEND_DUPLICATE_SAMPLE", s.pointer, `sample "${clip(s.clip)}" at (${s.x}, ${s.y}) repeats the position of ${first}`);
      continue;
    }
    seen.set(key, s.pointer);
    xs.add(s.x);
    ys.add(s.y);
  }
  const missing: string[] = [];
  for (const x of [...xs].sort((a, c) => a - c)) {
    for (const y of [...ys].sort((a, c) => a - c)) if (!seen.has(`${x},${y}`)) missing.push(`(${x}, ${y})`);
  }
  if (missing.length > 0) {
    const shown = missing.slice(0, 8).join(" ") + (missing.length > 8 ? ` and ${missing.length - 8} more` : "");
    sink.add("E_BLEND_GRID_INCOMPLETE", samplesPointer, `a grid blend space needs a sample at every (x, y) of its ${xs.size} × ${ys.size} grid; missing ${shown}`);
  }
}
