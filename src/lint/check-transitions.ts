import type { ParamSpec } from "../spec/graph-spec.ts";
import { ANY_STATE } from "../spec/spec-keys.ts";
import { clip } from "../spec/spec-reader.ts";
import { contradiction, implies, overlaps, triggersOf, withoutTriggers, type ConditionSet } from "./condition-set.ts";
import type { LintSink } from "./lint-sink.ts";
import type { LintMachine, LintTransition } from "./machine-model.ts";

/** Work (transition comparisons) allowed per graph before the shadow/ambiguity analysis gives up (I_LINT_SKIPPED). */
export const PAIR_BUDGET = 2_000_000;

/** The work left for the pairwise analyses of one graph (shared by its machines). */
export interface LintBudget {
  left: number;
}

/**
 * Transitions that can never fire (E_TRANSITION_NEVER_FIRES), that inertialize or dead-blend over no
 * time (W_BLEND_WITHOUT_DURATION), that wait past the end of a state that
 * plays once (W_EXIT_TIME_PAST_END), that an earlier one always pre-empts
 * (W_SHADOWED_TRANSITION), that overlap another from the same source with only their order deciding
 * (W_AMBIGUOUS_TRANSITIONS). Returns the set of transitions that can never fire — by their conditions
 * or because they are shadowed — for the flow checks.
 */
export function checkTransitions(
  m: LintMachine,
  params: ReadonlyMap<string, ParamSpec>,
  sink: LintSink,
  budget: LintBudget = { left: PAIR_BUDGET },
): Set<LintTransition> {
  const dead = new Set<LintTransition>();
  for (const t of m.transitions) {
    const reason = neverFiresReason(t);
    if (reason) {
      sink.add("E_TRANSITION_NEVER_FIRES", t.pointer, `transition "${clip(t.from)}" -> "${clip(t.to)}" can never fire: ${reason}`);
      dead.add(t);
    }
    if (t.blend !== "crossfade" && t.duration <= 0) {
      sink.add(
        "W_BLEND_WITHOUT_DURATION",
        `${t.pointer}/blend`,
        `transition "${clip(t.from)}" -> "${clip(t.to)}" asks for "${t.blend}" but its duration is 0: it cuts to the target, with nothing to ${t.blend === "inertialize" ? "inertialize" : "blend"}`,
      );
    }
    const source = m.states.get(t.from);
    if (source && t.exitTime !== undefined && t.exitTime > source.motionEnd) {
      sink.add(
        "W_EXIT_TIME_PAST_END",
        `${t.pointer}/${t.exitPermille ? "exitPermille" : "exitTime"}`,
        `exit time ${t.exitTime} is past the end of state "${clip(t.from)}", which plays once and holds: its last pose stays frozen for ${round(t.exitTime - 1)} of its length before the transition may fire`,
      );
    }
  }
  const live = m.transitions.filter((t) => !dead.has(t) && t.conditions !== undefined && knownEnds(m, t));
  let exhausted = false;
  const spend = (n: number): boolean => {
    budget.left -= n;
    if (budget.left < 0) exhausted = true;
    return !exhausted;
  };
  const shadowed = new Set<LintTransition>();

  // Per source value: the transitions from it, in order (the "*" group included).
  const bySource = new Map<string, LintTransition[]>();
  for (const t of live) {
    let list = bySource.get(t.from);
    if (!list) bySource.set(t.from, (list = []));
    list.push(t);
  }
  const stars = bySource.get(ANY_STATE) ?? [];
  const order = new Map(m.transitions.map((t, i) => [t, i]));
  const before = (a: LintTransition, b: LintTransition): boolean => order.get(a)! < order.get(b)!;

  for (const t2 of live) {
    if (t2.from === ANY_STATE && !spend(m.states.size + bySource.size + stars.length)) break;
    const states = t2.from === ANY_STATE ? candidateStatesOfStar(m, t2, bySource, before) : [t2.from];
    if (!spend(states.length * (stars.length + (bySource.get(t2.from)?.length ?? 0)))) break;
    let shadower: LintTransition | undefined;
    let everywhere = states.length > 0;
    for (const s of states) {
      const earlier = [...(bySource.get(s) ?? []), ...stars].filter((t1) => before(t1, t2) && isCandidate(t1, s));
      const by = earlier.find((t1) => preempts(t1, t2, params));
      if (!by) {
        everywhere = false;
        break;
      }
      shadower ??= by;
    }
    if (everywhere && shadower) {
      shadowed.add(t2);
      sink.add(
        "W_SHADOWED_TRANSITION",
        t2.pointer,
        `transition "${clip(t2.from)}" -> "${clip(t2.to)}" never fires: ${shadower.pointer} ("${clip(shadower.from)}" -> "${clip(shadower.to)}") comes first and can fire whenever this one can`,
      );
    }
  }

  for (const [from, list] of bySource) {
    if (exhausted || !spend((list.length * (list.length - 1)) / 2)) break;
    for (let j = 1; j < list.length; j++) {
      const t2 = list[j]!;
      if (shadowed.has(t2)) continue;
      for (let i = 0; i < j; i++) {
        const t1 = list[i]!;
        if (shadowed.has(t1) || t1.to === t2.to) continue;
        const c1 = t1.conditions!;
        const c2 = t2.conditions!;
        if (!overlaps(c1, c2) || implies(c1, c2, params) || implies(c2, c1, params) || eventSpecialCase(c1, c2, params)) continue;
        const laterEvent = triggersOf(c2, params).some((t) => !triggersOf(c1, params).includes(t));
        const hint = laterEvent ? " or move this transition on a trigger before the other" : "";
        sink.add(
          "W_AMBIGUOUS_TRANSITIONS",
          t2.pointer,
          `transitions "${clip(from)}" -> "${clip(t1.to)}" (${t1.pointer}) and "${clip(from)}" -> "${clip(t2.to)}" can both fire at once and neither is a special case of the other; only their order decides: make the conditions exclusive${hint}`,
        );
        break;
      }
    }
  }
  if (exhausted) {
    sink.add("I_LINT_SKIPPED", m.pointer, "too many transitions to compare every pair: shadowed and ambiguous transitions were not all looked for");
  }
  // A shadowed transition never fires either: reachability and dead ends must not count on it.
  for (const t of shadowed) dead.add(t);
  return dead;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Why a transition can never fire, or undefined. */
function neverFiresReason(t: LintTransition): string | undefined {
  const param = t.conditions ? contradiction(t.conditions) : undefined;
  if (param !== undefined) return `its conditions on "${clip(param)}" contradict each other or the parameter's range`;
  return undefined;
}

function knownEnds(m: LintMachine, t: LintTransition): boolean {
  return (t.from === ANY_STATE || m.states.has(t.from)) && m.states.has(t.to);
}

/** Whether transition `t` is looked at while the machine is in state `s`. */
export function isCandidate(t: LintTransition, s: string): boolean {
  if (t.from === ANY_STATE) return t.to !== s || t.canTransitionToSelf;
  return t.from === s;
}

/**
 * The states in which a "*" transition has to be pre-empted: one representative of the states with
 * nothing special about them (no earlier own transition, not an earlier "*" target), plus each special one.
 */
function candidateStatesOfStar(
  m: LintMachine,
  t2: LintTransition,
  bySource: ReadonlyMap<string, LintTransition[]>,
  before: (a: LintTransition, b: LintTransition) => boolean,
): string[] {
  const special = new Set<string>();
  for (const [from, list] of bySource) {
    if (from !== ANY_STATE && before(list[0]!, t2)) special.add(from); // lists are in priority order
  }
  for (const t1 of bySource.get(ANY_STATE) ?? []) {
    if (!before(t1, t2)) break;
    special.add(t1.to);
  }
  const out: string[] = [];
  let generic = false;
  for (const s of m.states.keys()) {
    if (!isCandidate(t2, s)) continue;
    if (special.has(s)) out.push(s);
    else if (!generic) {
      generic = true;
      out.push(s);
    }
  }
  return out;
}

/**
 * Whether an earlier transition is the later one's situation plus an event: it tests a trigger the
 * later one does not, and its other conditions follow from the later one's. Putting such a special
 * case first is the intended order (a jump or a hit takes precedence), not an accident.
 */
function eventSpecialCase(c1: ConditionSet, c2: ConditionSet, params: ReadonlyMap<string, ParamSpec>): boolean {
  const own = triggersOf(c2, params);
  return triggersOf(c1, params).some((t) => !own.includes(t)) && implies(c2, withoutTriggers(c1, params), params);
}

/** Whether `t1` (earlier) fires whenever `t2` could: its conditions follow from t2's and it waits no longer. */
function preempts(t1: LintTransition, t2: LintTransition, params: ReadonlyMap<string, ParamSpec>): boolean {
  if (!t1.conditions || !t2.conditions) return false;
  const exitOk = !t1.exitTime || (t2.exitTime !== undefined && t2.exitTime >= t1.exitTime);
  return exitOk && implies(t2.conditions, t1.conditions, params);
}
