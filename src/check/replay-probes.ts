import type { CompiledCondition, CompiledGraph } from "../graph/compiled-graph.ts";
import type { GraphInstance, StepResult } from "../graph/graph-instance.ts";
import { conditionHolds } from "../state-machine/condition.ts";
import { isActive, normalizedTime, type CheckModel } from "./check-model.ts";
import type { StateRef } from "./explore.ts";
import { firedInStep, structuralKey, traceSelection, type ReplayProbe } from "./witness.ts";

// What a replay must show for each kind of finding. Each probe watches the real run (runTimeline →
// step) and says, at the end, whether the run showed the claim or what it showed instead.

/** Checks on the end of a run (and on the whole run) shared by the state-like findings. */
export interface EndChecks {
  /** This state is current at the end (its machine running). */
  readonly endState?: StateRef;
  /** ...and no crossfade runs in its machine. */
  readonly endSettled?: boolean;
  /** No transition of these machines fired in the last `quiet` steps. */
  readonly quiet?: { readonly machines: readonly number[]; readonly steps: number };
  /** These conditions hold at the end. */
  readonly conditions?: readonly CompiledCondition[];
  /** This state is never entered during the run. */
  readonly neverEntered?: StateRef;
  /** This transition never fires during the run. */
  readonly neverFired?: { readonly machine: number; readonly transition: number };
  /** No transition testing this trigger fires during the run. */
  readonly triggerNeverConsumed?: number;
  /** At the end, this transition's conditions hold but its exit time is not reached. */
  readonly exitPending?: { readonly machine: number; readonly transition: number };
  /** At the end, the end state's motion has played to its end (normalised time ≥ 1). */
  readonly motionEnded?: boolean;
}

export function endProbe(model: CheckModel, checks: EndChecks): ReplayProbe {
  const graph = model.graph;
  const lastFired: number[] = [];
  const problems: string[] = [];
  return {
    after(k: number, inst: GraphInstance, result: StepResult) {
      for (const f of firedInStep(result)) {
        if (checks.quiet?.machines.includes(f.machine)) lastFired.push(k);
        if (checks.neverFired && f.machine === checks.neverFired.machine && f.transition === checks.neverFired.transition) problems.push(`${pointerOf(graph, f.machine, f.transition)} fired at step ${k}`);
        if (checks.triggerNeverConsumed !== undefined && f.transition >= 0 && graph.machines[f.machine]!.transitions[f.transition]!.triggerSlots.includes(checks.triggerNeverConsumed)) {
          problems.push(`${pointerOf(graph, f.machine, f.transition)} fired on the trigger at step ${k}`);
        }
      }
      const ne = checks.neverEntered;
      if (ne) {
        const q = result.events;
        for (let i = 0; i < q.count; i++) {
          const e = q.items[i]!;
          if (e.type === "stateEntered" && e.machine === ne.machine && e.state === ne.state) problems.push(`the state was entered at step ${k}`);
        }
        if (inst.machines[ne.machine]!.current === ne.state && isActive(model, inst, ne.machine)) problems.push(`the state is current after step ${k}`);
      }
    },
    verdict(steps: number, inst: GraphInstance) {
      const out = [...new Set(problems)].slice(0, 3);
      const es = checks.endState;
      if (es) {
        const mi = inst.machines[es.machine]!;
        if (mi.current !== es.state || !isActive(model, inst, es.machine)) out.push(`the run ends in ${mi.machine.states[mi.current]!.name}, not ${mi.machine.states[es.state]!.name}`);
        else if (checks.endSettled && mi.depth > 0) out.push("a crossfade still runs at the end");
        if (checks.motionEnded && mi.current === es.state && !(normalizedTime(inst, mi, es.state) >= 1)) out.push("the state's motion has not reached its end");
      }
      if (checks.quiet) {
        const since = steps - checks.quiet.steps;
        const late = lastFired.filter((k) => k >= since);
        if (late.length > 0) out.push(`a transition fired at step ${late[0]} of the last ${checks.quiet.steps}`);
      }
      if (checks.conditions && !checks.conditions.every((c) => conditionHolds(inst.params, c))) out.push("the condition does not hold at the end");
      const xp = checks.exitPending;
      if (xp) {
        const v = traceSelection(inst, xp.machine).get(xp.transition);
        if (!v || !v.ok || v.exit) out.push(v ? (v.exit ? "the exit time is reached" : "the conditions do not hold") : "the transition is not a candidate at the end");
      }
      return out.length > 0 ? out.join("; ") : null;
    },
  };
}

/** Checks on the last step: what the selection saw before it and what fired during it. */
export interface LastStepChecks {
  /** Transition `transition` of `machine` could fire (conditions and exit time hold) but `by` fired instead. */
  readonly shadowed?: { readonly machine: number; readonly transition: number; readonly by: number };
  /** The selection chose `transition` of `machine` before the step, it did not fire, and `by` of `byMachine` consumed the trigger. */
  readonly stolen?: { readonly machine: number; readonly transition: number; readonly trigger: number; readonly byMachine: number; readonly by: number };
  /** The trigger is set before the step, consumed by `transition` of `machine`, which ends the step where it began. */
  readonly noEffect?: { readonly machine: number; readonly transition: number; readonly trigger: number };
  /** `machine` fires at least `count` transitions in the step. */
  readonly instantLoop?: { readonly machine: number; readonly count: number };
}

export function lastStepProbe(graph: CompiledGraph, checks: LastStepChecks, lastStep: number): ReplayProbe {
  let trace: ReturnType<typeof traceSelection> | null = null;
  let fired: ReturnType<typeof firedInStep> = [];
  let triggerBefore = 0;
  let currentBefore = -1;
  let depthBefore = -1;
  let triggerAfter = 0;
  let currentAfter = -1;
  let depthAfter = -1;
  const machineOf = checks.shadowed?.machine ?? checks.stolen?.machine ?? checks.noEffect?.machine ?? checks.instantLoop?.machine ?? 0;
  return {
    before(k: number, inst: GraphInstance) {
      if (k !== lastStep) return;
      trace = traceSelection(inst, machineOf);
      const slot = checks.stolen?.trigger ?? checks.noEffect?.trigger;
      if (slot !== undefined) triggerBefore = inst.params[slot]!;
      const mi = inst.machines[machineOf]!;
      currentBefore = mi.current;
      depthBefore = mi.depth;
    },
    after(k: number, inst: GraphInstance, result: StepResult) {
      if (k !== lastStep) return;
      fired = firedInStep(result);
      const slot = checks.stolen?.trigger ?? checks.noEffect?.trigger;
      if (slot !== undefined) triggerAfter = inst.params[slot]!;
      const mi = inst.machines[machineOf]!;
      currentAfter = mi.current;
      depthAfter = mi.depth;
    },
    verdict(steps: number) {
      if (steps !== lastStep + 1) return `the run took ${steps} steps, not ${lastStep + 1}`;
      if (!trace) return "the last step was not reached";
      const has = (machine: number, transition: number): boolean => fired.some((f) => f.machine === machine && f.transition === transition);
      const sh = checks.shadowed;
      if (sh) {
        const v = trace.get(sh.transition);
        if (!v || !v.ok || !v.exit || v.chosen) return "the transition could not fire before the last step";
        if (!has(sh.machine, sh.by)) return "the earlier transition did not fire";
        if (has(sh.machine, sh.transition)) return "the transition fired";
      }
      const st = checks.stolen;
      if (st) {
        const v = trace.get(st.transition);
        if (!v || !v.chosen) return "the selection did not choose the transition before the step";
        if (triggerBefore === 0) return "the trigger was not set";
        if (has(st.machine, st.transition)) return "the transition fired";
        if (!has(st.byMachine, st.by)) return "the other machine's transition did not fire";
      }
      const ne = checks.noEffect;
      if (ne) {
        if (triggerBefore === 0 || triggerAfter !== 0) return "the trigger was not consumed in the step";
        if (!has(ne.machine, ne.transition)) return "the transition did not fire";
        if (currentBefore !== currentAfter || depthBefore !== 0 || depthAfter !== 0) return "the machine did not end where it began";
      }
      const il = checks.instantLoop;
      if (il) {
        const n = fired.filter((f) => f.machine === il.machine).length;
        if (n < il.count) return `only ${n} transitions fired in the step`;
      }
      return null;
    },
  };
}

/** The machines come back to the configuration they had `cycleSteps` steps before the end, firing only transitions without exit time. */
export function cycleProbe(graph: CompiledGraph, machines: readonly number[], cycleSteps: number): ReplayProbe {
  // keys[0]: before the first step; keys[j + 1]: after step j.
  const keys: string[] = [];
  const firedAt: { step: number; machine: number; transition: number }[] = [];
  return {
    before(k: number, inst: GraphInstance) {
      if (k === 0) keys.push(structuralKey(inst, machines));
    },
    after(k: number, inst: GraphInstance, result: StepResult) {
      keys.push(structuralKey(inst, machines));
      for (const f of firedInStep(result)) if (machines.includes(f.machine)) firedAt.push({ step: k + 1, ...f });
    },
    verdict(steps: number) {
      const end = steps;
      const start = end - cycleSteps;
      if (start < 0) return "the run is shorter than one cycle";
      if (keys[start] !== keys[end]) return "the machines did not come back to the same configuration";
      const inCycle = firedAt.filter((f) => f.step > start && f.step <= end);
      if (inCycle.length === 0) return "no transition fired in the cycle";
      const timed = inCycle.find((f) => f.transition >= 0 && graph.machines[f.machine]!.transitions[f.transition]!.exitTime >= 0);
      if (timed) return `${pointerOf(graph, timed.machine, timed.transition)} waits for an exit time`;
      return null;
    },
  };
}

/**
 * "always eventually S after E": after the event (the trigger set, or E entered), S is never current
 * again, and the run ends either quiet for `quiet` steps or repeating its configuration every `cycleSteps`.
 */
export function eventuallyProbe(model: CheckModel, states: readonly StateRef[], trigger: number, entering: StateRef | null, machines: readonly number[], window: { quiet: number } | { cycleSteps: number }): ReplayProbe {
  let waitingSince = -1;
  let triggerSet = false;
  let triggerAfter = 0;
  const keys: string[] = [];
  const firedAt: number[] = [];
  const current = (inst: GraphInstance): boolean => states.some((r) => inst.machines[r.machine]!.current === r.state && isActive(model, inst, r.machine));
  return {
    before(k: number, inst: GraphInstance) {
      if (k === 0) keys.push(structuralKey(inst, machines));
      // The event is the trigger being set by a timeline command (it was clear after the last step).
      triggerSet = trigger >= 0 && inst.params[trigger] !== 0 && triggerAfter === 0;
    },
    after(k: number, inst: GraphInstance, result: StepResult) {
      let event = false;
      if (triggerSet) event = true;
      if (trigger >= 0) triggerAfter = inst.params[trigger]!;
      const q = result.events;
      for (let i = 0; i < q.count; i++) {
        const e = q.items[i]!;
        if (machines.includes(e.machine) && e.type === "transitionStarted") firedAt.push(k);
        if (entering && e.type === "stateEntered" && e.machine === entering.machine && e.state === entering.state) event = true;
      }
      if (current(inst)) waitingSince = -1;
      else if (event && waitingSince < 0) waitingSince = k + 1;
      keys.push(structuralKey(inst, machines));
    },
    verdict(steps: number) {
      if (waitingSince < 0) return "the run does not end waiting for the state after the event";
      if ("quiet" in window) {
        if (firedAt.some((k) => k > steps - 1 - window.quiet)) return "transitions still fire at the end";
        return null;
      }
      const end = steps;
      const start = end - window.cycleSteps;
      if (start < waitingSince) return "the event came after the cycle began";
      if (keys[start] !== keys[end]) return "the machines did not come back to the same configuration";
      return null;
    },
  };
}

function pointerOf(graph: CompiledGraph, machine: number, transition: number): string {
  return transition >= 0 ? graph.machines[machine]!.transitions[transition]!.pointer : "a teleport";
}
