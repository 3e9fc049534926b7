import { expectFunction } from "../errors/check-argument.ts";
import { expectCompiledGraph, expectInstance } from "./check-graph.ts";
import { expectArrayOfShape, expectShape, type FieldKind } from "../errors/check-shape.ts";
import { conditionHolds } from "../state-machine/condition.ts";
import { NONE, pickTransition, type ScanTrace } from "../state-machine/select-transition.ts";
import type { CompiledGraph, CompiledTransition } from "./compiled-graph.ts";
import type { GraphInstance, MachineInstance } from "./graph-instance.ts";

const OP_SYMBOL = [">", ">=", "<", "<=", "==", "!="] as const;

/** One condition of a transition, as the step will test it. */
export interface ConditionExplanation {
  /** The parameter's name. */
  readonly param: string;
  /** ">", ">=", "<", "<=", "==", "!=". */
  readonly op: string;
  /** The value compared with (bool and trigger: true/false). */
  readonly value: number | boolean;
  /** The parameter's value the step will see (after triggers consumed by earlier layers). */
  readonly actual: number | boolean;
  /** Whether the condition holds with that value. */
  readonly holds: boolean;
}

/**
 * Why a transition does or does not fire: `fired` (it is the one), `shadowed` (it could fire, but one
 * listed before it fires: `shadowedBy`), `conditions` (a condition is false), `exitTime` (the source has
 * not played far enough), `self` (it targets the current state and `canTransitionToSelf` is off),
 * `interruption` (a crossfade runs whose interruption policy does not consider it), `travel` (a
 * travel() path is being taken instead).
 */
export type TransitionVerdict = "fired" | "shadowed" | "conditions" | "exitTime" | "self" | "interruption" | "travel";

/** One transition out of the current state and why it does or does not fire on the next step. */
export interface TransitionExplanation {
  /** Index in the machine's transitions (file order) and JSON pointer in the spec. */
  readonly index: number;
  /** JSON pointer of the transition in the spec. */
  readonly pointer: string;
  /** Source state, "*" for any state. */
  readonly from: string;
  /** Target state. */
  readonly to: string;
  /** Whether it fires, and if not the first reason why not. */
  readonly verdict: TransitionVerdict;
  /** 1-based position in the order the step tries candidates (priority), 0 when not a candidate. */
  readonly priority: number;
  /** Each condition with the value it will see. */
  readonly conditions: readonly ConditionExplanation[];
  /** Exit time: the fraction of the source's cycle required, how far it has played, and whether that is enough. */
  readonly exitTime: { readonly required: number; readonly position: number; readonly reached: boolean } | null;
  /** `shadowed`: the pointer of the transition that fires instead. */
  readonly shadowedBy?: string;
  /** A trigger this transition tests that was set, but that an earlier layer's transition consumes first. */
  readonly triggerConsumed?: { readonly param: string; readonly layer: string; readonly by: string };
  /** One line in words. */
  readonly reason: string;
}

/** What the next step will do in one machine: its state, running crossfade, travel path and transitions. */
export interface MachineExplanation {
  /** The layer's name. */
  readonly layer: string;
  /** "base", "base/Locomotion" for a nested machine. */
  readonly machine: string;
  /** The machine's current state. */
  readonly state: string;
  /**
   * The running crossfade (top of the stack) and its interruption policy, or null. `from` and `to` are
   * its transition's states (an any-state transition's `from` is the state it left). `interrupted` is the
   * crossfade it interrupted when it fired during one (a transition from that fade's source state, say
   * A → C during A → B): the fade below it on the stack, or, when the interruption dropped the stack
   * (`cut`, inertialize, deadBlend, a frozen source), the state it left instead of its own `from`.
   */
  readonly crossfade: {
    readonly pointer: string; readonly from: string; readonly to: string; readonly progress: number; readonly interruption: string;
    readonly interrupted?: { readonly pointer?: string; readonly from: string; readonly to: string };
  } | null;
  /** A travel() path being taken: the next transition's pointer (or "teleport to S"). */
  readonly travel: string | null;
  /** Pointer of the transition that fires at the start of the step, or null. */
  readonly fired: string | null;
  /** Every transition out of the current state (and out of the fading-out state during a crossfade). */
  readonly transitions: readonly TransitionExplanation[];
}

/** What `explainStep` returns: an explanation per machine the next step decides in. */
export interface StepExplanation {
  /** Each layer's machine in layer order, each followed by the nested machine of its current state (when it stays). */
  readonly machines: readonly MachineExplanation[];
}

/**
 * Why (not)? For the next `step(graph, instance, dt)` — call it before stepping — tells for each layer's
 * machine (and the nested machine of a current state that stays) which transition fires at the start of
 * the step and, for every other transition out of the current state, why not: each condition with the
 * parameter's value, exit-time progress, priority (shadowed by which), the running crossfade's
 * interruption policy, and triggers consumed by an earlier layer. It runs the same selection code as
 * `step` (pickTransition with a trace), on the same values, in the same layer order, so it agrees with
 * step's first decision per machine (a property test holds it to that on random graphs). Not covered:
 * later transitions of a chain in the same sub-step (a travel step or an instant transition followed by
 * another; a trigger such a follower consumes is still shown as available to later layers) and later
 * sub-steps of a long dt. The instance is left as it was. Allocates (a tool API, not for the frame loop).
 */
export function explainStep(graph: CompiledGraph, instance: GraphInstance): StepExplanation {
  expectCompiledGraph("explainStep", "graph", graph);
  expectInstance("explainStep", "instance", instance, graph);
  const saved = Float64Array.from(instance.params);
  const consumedBy = new Map<number, { layer: string; by: string }>();
  const machines: MachineExplanation[] = [];
  try {
    instance.layers.forEach((mi, li) => {
      const layer = graph.layers[li]!.name;
      let current: MachineInstance | null = mi;
      let path = layer;
      while (current) {
        const explained = explainMachine(graph, instance, current, layer, path, saved, consumedBy);
        machines.push(explained.explanation);
        if (explained.fired) {
          // The step consumes the fired transition's triggers before the next layer looks at them.
          for (const slot of explained.fired.triggerSlots) {
            if (instance.params[slot] !== 0) consumedBy.set(slot, { layer, by: explained.fired.pointer });
            instance.params[slot] = 0;
          }
          break; // the target's nested machine starts afresh
        }
        const nested: MachineInstance | null = current.nested[current.current] ?? null;
        if (nested) path = `${path}/${current.machine.states[current.current]!.name}`;
        current = nested;
      }
    });
  } finally {
    instance.params.set(saved);
  }
  return { machines };
}

function explainMachine(
  graph: CompiledGraph, inst: GraphInstance, mi: MachineInstance, layer: string, path: string,
  original: Float64Array, consumedBy: Map<number, { layer: string; by: string }>,
): { explanation: MachineExplanation; fired: CompiledTransition | null } {
  const m = mi.machine;
  const stateName = (s: number): string => (s === -1 ? "*" : m.states[s]!.name);
  const seen = new Map<number, { self: boolean; position: number; exit: boolean; ok: boolean; chosen: boolean; order: number }>();
  let order = 0;
  const trace: ScanTrace = {
    visit(t, self, position, exit, ok, chosen) {
      // A transition in both lists of a "sourceThenTarget" crossfade is looked at twice: the first look decides.
      if (!seen.has(t)) seen.set(t, { self, position, exit, ok, chosen, order: ++order });
    },
  };
  const code = pickTransition(inst, mi, trace);
  const top = mi.depth > 0 ? mi.stack[mi.depth - 1]! : null;
  const topTransition = top && top.transition >= 0 ? m.transitions[top.transition]! : null;
  const travelling = mi.travelLength > 0;
  const firedTransition = code !== NONE && code >= 0 ? m.transitions[code]! : null;
  let travel: string | null = null;
  if (travelling) travel = mi.depth > 0 ? "waiting for the running crossfade to end" : code >= 0 ? m.transitions[code]!.pointer : `teleport to ${stateName(-1 - code)}`;

  // Every transition out of the current state, and out of the fading-out state during a crossfade.
  const candidates = new Set<number>(m.outgoing[mi.current]!);
  if (top && top.from >= 0) for (const t of m.outgoing[top.from]!) if (m.transitions[t]!.from === top.from) candidates.add(t);
  const transitions: TransitionExplanation[] = [...candidates].sort((a, b) => a - b).map((ti) => {
    const t = m.transitions[ti]!;
    const conditions = t.conditions.map((c): ConditionExplanation => {
      const p = graph.params.find((q) => q.slot === c.slot)!;
      const boolish = p.type === "bool" || p.type === "trigger";
      const v = inst.params[c.slot]!;
      const holds = conditionHolds(inst.params, c);
      return { param: p.name, op: OP_SYMBOL[c.op]!, value: boolish ? c.value !== 0 : c.value, actual: boolish ? v !== 0 : v, holds };
    });
    const s = seen.get(ti);
    const exitTime = t.exitTime >= 0 ? { required: t.exitTime, position: s && !Number.isNaN(s.position) ? s.position : NaN, reached: s ? s.exit : false } : null;
    let consumed: TransitionExplanation["triggerConsumed"];
    for (const slot of t.triggerSlots) {
      const by = consumedBy.get(slot);
      if (by && original[slot] !== 0 && inst.params[slot] === 0) consumed = { param: graph.params.find((q) => q.slot === slot)!.name, layer: by.layer, by: by.by };
    }
    let verdict: TransitionVerdict;
    let reason: string;
    const failed = conditions.filter((c) => !c.holds).map((c) => `${c.param} is ${String(c.actual)}, needs ${c.op} ${String(c.value)}`);
    if (travelling) {
      verdict = "travel";
      reason = `a travel() path is being taken (${travel})`;
    } else if (!s) {
      verdict = "interruption";
      reason = mi.depth > 0 && topTransition
        ? `not considered while ${topTransition.pointer} (${stateName(top!.from)} → ${stateName(top!.to)}) fades, interruption "${topTransition.interruptionName}"`
        : "not considered";
    } else if (s.chosen) {
      verdict = "fired";
      reason = conditions.length > 0 || exitTime ? `fires: ${[...conditions.map((c) => `${c.param} ${c.op} ${String(c.value)} (${String(c.actual)})`), ...(exitTime ? [`exit time ${exitTime.required} reached (${exitTime.position.toFixed(3)})`] : [])].join(", ")}` : "fires: no conditions";
    } else if (s.self) {
      verdict = "self";
      reason = "it targets the current state and canTransitionToSelf is off";
    } else if (s.ok && s.exit) {
      verdict = "shadowed";
      reason = `could fire, but ${firedTransition ? firedTransition.pointer : "another transition"} comes first`;
    } else if (!s.exit) {
      verdict = "exitTime";
      reason = `exit time ${exitTime!.required} not reached (the source is at ${exitTime!.position.toFixed(3)} of its cycle)${failed.length > 0 ? `; also ${failed.join(", ")}` : ""}`;
    } else {
      verdict = "conditions";
      reason = failed.join(", ");
    }
    if (consumed) reason += `; trigger ${consumed.param} was consumed by layer ${consumed.layer}'s ${consumed.by}`;
    return {
      index: t.index, pointer: t.pointer, from: stateName(t.from), to: stateName(t.to), verdict,
      priority: s ? s.order : 0, conditions, exitTime,
      ...(verdict === "shadowed" && firedTransition ? { shadowedBy: firedTransition.pointer } : {}),
      ...(consumed ? { triggerConsumed: consumed } : {}),
      reason,
    };
  });
  // A transition that fired during a fade interrupted it; the stack entry's `from` is the state the machine
  // was in (the running fade's target), which is not the transition's own source when it fired from the
  // fade's source state.
  let crossfade: MachineExplanation["crossfade"] = null;
  if (top && topTransition) {
    const below = mi.depth > 1 ? mi.stack[mi.depth - 2]! : null;
    const belowTransition = below && below.transition >= 0 && below.to === top.from ? m.transitions[below.transition]! : null;
    const interrupted = belowTransition ? { pointer: belowTransition.pointer, from: stateName(belowTransition.from === -1 ? below!.from : belowTransition.from), to: stateName(below!.to) }
      : topTransition.from >= 0 && topTransition.from !== top.from ? { from: stateName(topTransition.from), to: stateName(top.from) } : undefined;
    crossfade = {
      pointer: topTransition.pointer, from: stateName(topTransition.from === -1 ? top.from : topTransition.from), to: stateName(top.to),
      progress: top.progress, interruption: topTransition.interruptionName, ...(interrupted ? { interrupted } : {}),
    };
  }
  const explanation: MachineExplanation = {
    layer, machine: path, state: stateName(mi.current),
    crossfade,
    travel,
    fired: firedTransition && !travelling ? firedTransition.pointer : travelling && code !== NONE && code >= 0 && mi.depth === 0 ? m.transitions[code]!.pointer : null,
    transitions,
  };
  return { explanation, fired: travelling ? (code !== NONE && code >= 0 && mi.depth === 0 ? m.transitions[code]! : null) : firedTransition };
}

const EXPLANATION = "a StepExplanation (from explainStep)";
const EXPLANATION_SHAPE: Readonly<Record<string, FieldKind>> = { machines: "array" };
const MACHINE_SHAPE: Readonly<Record<string, FieldKind>> = { machine: "string", state: "string", transitions: "array" };

/** The explanation as text lines (what `animgraph run --explain` prints under each step). */
export function formatExplanation(explanation: StepExplanation, machineFilter?: (m: MachineExplanation) => boolean): string[] {
  expectShape("formatExplanation", "explanation", explanation, EXPLANATION, EXPLANATION_SHAPE);
  expectArrayOfShape("formatExplanation", "explanation.machines", explanation.machines, "MachineExplanation", MACHINE_SHAPE);
  if (machineFilter !== undefined) expectFunction("formatExplanation", "machineFilter", machineFilter);
  const lines: string[] = [];
  for (const m of explanation.machines) {
    if (machineFilter && !machineFilter(m)) continue;
    const cut = m.crossfade?.interrupted;
    const over = cut ? `; it interrupted ${cut.from} → ${cut.to}${cut.pointer ? ` (${cut.pointer})` : ""}` : "";
    const fade = m.crossfade ? `, fading ${m.crossfade.from} → ${m.crossfade.to} ${(100 * m.crossfade.progress).toFixed(0)} % (interruption ${m.crossfade.interruption}${over})` : "";
    lines.push(`  ${m.machine}: in ${m.state}${fade}${m.travel ? `, travelling: ${m.travel}` : ""}`);
    for (const t of m.transitions) {
      const mark = t.verdict === "fired" ? "✓" : "✗";
      lines.push(`    ${mark} ${t.from} → ${t.to} (${t.pointer}) ${t.verdict === "fired" ? "" : `[${t.verdict}] `}${t.reason}`);
    }
    if (m.transitions.length === 0) lines.push("    (no transition leaves this state)");
  }
  return lines;
}

