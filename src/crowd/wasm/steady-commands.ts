// Recording a settled character by template. Characters that share a steady plan (steady-advance.ts)
// record the same kernel commands — same clips, slots, weights, masks — except for their clip times
// and where their output goes. So the first of them is recorded by walking its graph state
// (`recordSteady`) and its commands are kept; the others copy those commands and patch the times
// (each computed by `childTimeAt`, as the walk does) and the output addresses. Same commands, same
// bits; recording a synthetic-64 bench character took 0.28 µs by the walk (docs/performance.md).
import type { GraphInstance } from "../../graph/graph-instance.ts";
import { wrapTimeAt } from "../../clip/wrap-time.ts";
import type { CrowdState } from "../crowd-state.ts";
import type { SteadyPlan } from "../steady-advance.ts";
import { flush, recordSteady } from "./record-pose.ts";
import { MAX_COMMANDS, type SteadyTemplate } from "./steady-template.ts";
import { COMMAND_CAPACITY, OP, type WasmCrowd } from "./wasm-crowd.ts";

/** One double of scratch: a time computed by childTimeAt (a returned double would be boxed). */
const x = new Float64Array(2);

/**
 * Records character `index`, which `advanceSteady` just advanced with `plan`, as `recordSteady` would:
 * by the plan's template when there is one, else by walking (and keeping the commands as the template).
 * Characters whose machines keep poses in the kernel (inertialize, deadBlend) are always walked: their
 * commands name their own pose blocks.
 */
export function recordSteadyCommands(w: WasmCrowd, inst: GraphInstance, index: number, plan: SteadyPlan, state: CrowdState): void {
  const tpl = w.steadyTemplate;
  if (inst.keeper !== undefined) {
    recordSteady(w, inst, index, plan);
    return;
  }
  if (tpl.generation !== plan.generation) {
    // Room for the whole character first, so no batch runs while its commands are being kept.
    if (w.count + MAX_COMMANDS > COMMAND_CAPACITY - 1) flush(w);
    const start = w.count;
    recordSteady(w, inst, index, plan);
    keep(w, tpl, inst, plan, start);
    return;
  }
  if (!tpl.usable) {
    recordSteady(w, inst, index, plan);
    return;
  }
  const n = tpl.count;
  if (w.count + n > COMMAND_CAPACITY - 1) flush(w);
  const o = (w.commandsAt >> 2) + 8 * w.count;
  const i32 = w.i32, commands = tpl.commands;
  for (let k = 0, end = 8 * n; k < end; k++) i32[o + k] = commands[k]!;
  const f64 = w.f64, layers = inst.layers, clocks = state.f64, block = state.stride * index;
  for (let k = 0; k < tpl.times; k++) {
    const li = tpl.timeLayer[k]!;
    const mi = layers[li]!;
    const s = mi.current;
    // childTimeAt, reading the clocks (MachineInstance.clocks) where advanceSteady wrote them: in the crowd's buffer from c.
    const states = mi.machine.states, c = block + state.layerClocks[li]!;
    const duration = tpl.timeSource[k]!.duration;
    if (duration === Infinity) {
      x[0] = clocks[c + s]!;
    } else {
      x[0] = tpl.timeSync[k] === 1 ? clocks[c + 2 * states.length + s]! * duration : clocks[c + s]!;
      x[1] = duration;
      wrapTimeAt(x, 0, states[s]!.loop);
    }
    f64[((o + 8 * tpl.timeCommand[k]!) >> 1) + 3] = x[0]!;
  }
  const J = w.jointCount;
  const output = o + 8 * (n - 1);
  i32[output + 2] = w.poseAt === 0 ? 0 : w.poseAt + 40 * J * index;
  i32[output + 3] = w.modelAt + 64 * J * index;
  w.count += n;
  w.slotTop = tpl.slotTop;
}

/**
 * Keeps the commands `recordSteady` just wrote from command `start` as the plan's template, with where
 * each clip time came from: the walk samples, layer by layer, the current state's clip or the plan's
 * children in order (record-pose.ts's recordSteady / recordPlanned), one SAMPLE (or SAMPLE_LAYER) each.
 */
function keep(w: WasmCrowd, tpl: SteadyTemplate, inst: GraphInstance, plan: SteadyPlan, start: number): void {
  tpl.generation = plan.generation;
  tpl.usable = false;
  const n = w.count - start;
  if (n <= 0 || n > MAX_COMMANDS) return;
  const o = (w.commandsAt >> 2) + 8 * start;
  if (w.i32[o + 8 * (n - 1)] !== OP.output) return;
  // The clip times the walk took, in its order.
  let times = 0;
  const graph = inst.graph;
  for (let li = 0; li < inst.layers.length; li++) {
    const layer = graph.layers[li]!;
    const weight = plan.layerWeight[li]!;
    const base = li === 0 && layer.mode === "override" && weight >= 1 && layer.mask === null;
    if (!base && !(weight > 0)) continue;
    const mi = inst.layers[li]!;
    const st = mi.machine.states[mi.current]!;
    const m = st.motion;
    if (m.kind === "machine") return;
    const count = m.kind === "clip" ? 1 : plan.childCount[li]!;
    for (let k = 0; k < count; k++) {
      if (times === MAX_COMMANDS) return;
      const c = m.kind === "clip" ? 0 : plan.children[li]![k]!;
      // A clip the kernel does not sample (staged by JS) has no command to patch.
      if (w.sourceHeader[mi.machine.id]![mi.current]![c]! < 0) return;
      tpl.timeLayer[times] = li;
      tpl.timeSource[times] = m.kind === "clip" ? m.source : m.sources[c]!;
      tpl.timeSync[times] = m.kind !== "clip" && m.sync ? 1 : 0;
      times++;
    }
  }
  let found = 0;
  for (let k = 0; k < n; k++) {
    const op = w.i32[o + 8 * k]!;
    if (op === OP.load) return;
    if (op !== OP.sample && op !== OP.sampleLayer) continue;
    if (found === times) return;
    tpl.timeCommand[found++] = k;
  }
  if (found !== times) return;
  // Copied by a loop: a subarray view would allocate, and plans change whenever parameters do.
  for (let k = 0; k < 8 * n; k++) tpl.commands[k] = w.i32[o + k]!;
  tpl.count = n;
  tpl.times = times;
  tpl.slotTop = w.slotTop;
  tpl.usable = true;
}
