import type { ConditionSpec, ParamSpec } from "../spec/graph-spec.ts";
import { conditionTypeError, intersect, isEmpty, isSubset, paramDomain, restrict, type Domain } from "./condition-domain.ts";

/**
 * A transition's conditions as a conjunction: for each parameter it tests, the values that pass.
 * Conditions that cannot be reasoned about (unknown parameter, wrong type — reported elsewhere) are
 * kept as opaque atoms: assumed satisfiable, and implied only by the very same atom.
 */
export interface ConditionSet {
  readonly domains: ReadonlyMap<string, Domain>;
  readonly opaque: ReadonlySet<string>;
  /** Whether a trigger is tested (a trigger is consumed when its transition fires). */
  readonly usesTrigger: boolean;
}

export function buildConditionSet(conditions: readonly ConditionSpec[], params: ReadonlyMap<string, ParamSpec>): ConditionSet {
  const domains = new Map<string, Domain>();
  const opaque = new Set<string>();
  let usesTrigger = false;
  for (const c of conditions) {
    const p = params.get(c.param);
    if (!p || conditionTypeError(c, p) !== undefined) {
      opaque.add(`${c.param}\u0000${c.op}\u0000${String(c.value)}`);
      continue;
    }
    if (p.type === "trigger") usesTrigger = true;
    domains.set(c.param, restrict(domains.get(c.param) ?? paramDomain(p), c.op, c.value));
  }
  return { domains, opaque, usesTrigger };
}

/** The empty conjunction (no conditions: always true). */
export const ALWAYS: ConditionSet = { domains: new Map(), opaque: new Set(), usesTrigger: false };

/** The parameter whose allowed values are empty, if any (then the conditions can never all hold). */
export function contradiction(cs: ConditionSet): string | undefined {
  for (const [name, d] of cs.domains) if (isEmpty(d)) return name;
  return undefined;
}

/** Whether whenever `a` holds, `b` holds too. */
export function implies(a: ConditionSet, b: ConditionSet, params: ReadonlyMap<string, ParamSpec>): boolean {
  if (contradiction(a) !== undefined) return true;
  for (const atom of b.opaque) if (!a.opaque.has(atom)) return false;
  for (const [name, db] of b.domains) {
    const p = params.get(name);
    const da = a.domains.get(name) ?? (p ? paramDomain(p) : undefined);
    if (!da || !isSubset(da, db)) return false;
  }
  return true;
}

/** Both conjunctions at once. */
export function conjoin(a: ConditionSet, b: ConditionSet): ConditionSet {
  const domains = new Map(a.domains);
  for (const [name, d] of b.domains) {
    const prev = domains.get(name);
    domains.set(name, prev ? intersect(prev, d) : d);
  }
  return { domains, opaque: new Set([...a.opaque, ...b.opaque]), usesTrigger: a.usesTrigger || b.usesTrigger };
}

/** Whether both can hold at the same time. */
export function overlaps(a: ConditionSet, b: ConditionSet): boolean {
  return contradiction(conjoin(a, b)) === undefined;
}

/** The trigger parameters a conjunction tests. */
export function triggersOf(cs: ConditionSet, params: ReadonlyMap<string, ParamSpec>): string[] {
  return [...cs.domains.keys()].filter((name) => params.get(name)?.type === "trigger");
}

/** The conjunction without its trigger tests (what must hold besides the events). */
export function withoutTriggers(cs: ConditionSet, params: ReadonlyMap<string, ParamSpec>): ConditionSet {
  const domains = new Map([...cs.domains].filter(([name]) => params.get(name)?.type !== "trigger"));
  return { domains, opaque: cs.opaque, usesTrigger: false };
}
