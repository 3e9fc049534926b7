import type { CompareOp, ConditionSpec, ParamSpec } from "../spec/graph-spec.ts";

/**
 * The values of one parameter that a conjunction of conditions allows. Numbers: an interval with open
 * or closed ends minus finitely many excluded points (from `!=`); for int parameters the ends are
 * integers. Booleans and triggers: which of true/false remain. This is exact for the conditions the
 * format can express (each compares one parameter with a constant), so emptiness and inclusion are
 * decided, not guessed.
 */
export type Domain = NumberDomain | BoolDomain;

export interface NumberDomain {
  readonly kind: "number";
  readonly integer: boolean;
  readonly lo: number;
  readonly loOpen: boolean;
  readonly hi: number;
  readonly hiOpen: boolean;
  /** Points inside (lo, hi) that are not allowed. */
  readonly excluded: readonly number[];
}

export interface BoolDomain {
  readonly kind: "bool";
  readonly allowTrue: boolean;
  readonly allowFalse: boolean;
}

/** The whole domain of a parameter: its declared [min, max] for numbers, both values for booleans. */
export function paramDomain(p: ParamSpec): Domain {
  if (p.type === "bool" || p.type === "trigger") return { kind: "bool", allowTrue: true, allowFalse: true };
  return normalize({
    kind: "number", integer: p.type === "int",
    lo: p.min ?? -Infinity, loOpen: p.min === undefined, hi: p.max ?? Infinity, hiOpen: p.max === undefined, excluded: [],
  });
}

/**
 * Whether a condition is well-typed for its parameter (so it can be reasoned about): numbers are
 * compared with numbers by any op; booleans and triggers only with `==`/`!=` and a boolean, and a
 * trigger only tested for being set (`== true`, the form `{ "param": "jump" }`).
 */
export function conditionTypeError(c: ConditionSpec, p: ParamSpec): string | undefined {
  const isBoolOp = c.op === "==" || c.op === "!=";
  switch (p.type) {
    case "float":
    case "int":
      return typeof c.value === "number"
        ? undefined
        : `${p.type} parameter "${p.name}" is compared with a boolean; give "op" and a number "value"`;
    case "bool":
      if (!isBoolOp) return `bool parameter "${p.name}" cannot be compared with "${c.op}"; use "==" or "!=" with true or false`;
      return typeof c.value === "boolean" ? undefined : `bool parameter "${p.name}" is compared with the number ${c.value}; use true or false`;
    case "trigger":
      return c.op === "==" && c.value === true
        ? undefined
        : `trigger "${p.name}" can only be tested for being set: write { "param": "${p.name}" } without "op" or "value"`;
  }
}

/** The domain narrowed by one (well-typed) comparison. */
export function restrict(d: Domain, op: CompareOp, value: number | boolean): Domain {
  if (d.kind === "bool") {
    const v = value === true;
    const keepTrue = op === "==" ? v : !v;
    return { kind: "bool", allowTrue: d.allowTrue && keepTrue, allowFalse: d.allowFalse && !keepTrue };
  }
  const v = value as number;
  let { lo, loOpen, hi, hiOpen } = d;
  const raiseLo = (x: number, open: boolean): void => {
    if (x > lo || (x === lo && open && !loOpen)) {
      lo = x;
      loOpen = open;
    }
  };
  const lowerHi = (x: number, open: boolean): void => {
    if (x < hi || (x === hi && open && !hiOpen)) {
      hi = x;
      hiOpen = open;
    }
  };
  switch (op) {
    case ">": raiseLo(v, true); break;
    case ">=": raiseLo(v, false); break;
    case "<": lowerHi(v, true); break;
    case "<=": lowerHi(v, false); break;
    case "==": raiseLo(v, false); lowerHi(v, false); break;
    case "!=": return normalize({ ...d, excluded: [...d.excluded, v] });
  }
  return normalize({ ...d, lo, loOpen, hi, hiOpen });
}

/** Canonical form: integer ends for int domains, excluded points strictly inside, excluded ends opened. */
function normalize(d: NumberDomain): NumberDomain {
  let { lo, loOpen, hi, hiOpen } = d;
  if (d.integer) {
    if (Number.isFinite(lo)) {
      lo = loOpen ? Math.floor(lo) + 1 : Math.ceil(lo);
      loOpen = false;
    }
    if (Number.isFinite(hi)) {
      hi = hiOpen ? Math.ceil(hi) - 1 : Math.floor(hi);
      hiOpen = false;
    }
  }
  const excluded = new Set(d.excluded.filter((e) => !d.integer || Number.isInteger(e)));
  // Move closed ends past excluded points (an int domain steps by one, a real one just opens).
  for (let guard = 0; guard <= excluded.size && !loOpen && excluded.has(lo); guard++) {
    if (d.integer) lo += 1;
    else loOpen = true;
  }
  for (let guard = 0; guard <= excluded.size && !hiOpen && excluded.has(hi); guard++) {
    if (d.integer) hi -= 1;
    else hiOpen = true;
  }
  const inside = [...excluded].filter((e) => e > lo && e < hi).sort((a, b) => a - b);
  return { kind: "number", integer: d.integer, lo, loOpen, hi, hiOpen, excluded: inside };
}

export function isEmpty(d: Domain): boolean {
  if (d.kind === "bool") return !d.allowTrue && !d.allowFalse;
  if (d.lo > d.hi) return true;
  // After normalisation the closed ends are never excluded, so a non-degenerate interval has values.
  if (d.lo === d.hi) return d.loOpen || d.hiOpen || !Number.isFinite(d.lo);
  return false;
}

/** Whether every value `a` allows is allowed by `b` (a implies b). */
export function isSubset(a: Domain, b: Domain): boolean {
  if (isEmpty(a)) return true;
  if (a.kind === "bool" || b.kind === "bool") {
    if (a.kind !== "bool" || b.kind !== "bool") return false;
    return (!a.allowTrue || b.allowTrue) && (!a.allowFalse || b.allowFalse);
  }
  const loOk = a.lo > b.lo || (a.lo === b.lo && (a.loOpen || !b.loOpen));
  const hiOk = a.hi < b.hi || (a.hi === b.hi && (a.hiOpen || !b.hiOpen));
  if (!loOk || !hiOk) return false;
  const aExcluded = new Set(a.excluded);
  return b.excluded.every((e) => aExcluded.has(e) || e < a.lo || e > a.hi || (e === a.lo && a.loOpen) || (e === a.hi && a.hiOpen));
}

export function intersect(a: Domain, b: Domain): Domain {
  if (a.kind === "bool" || b.kind === "bool") {
    if (a.kind !== "bool" || b.kind !== "bool") return { kind: "bool", allowTrue: false, allowFalse: false };
    return { kind: "bool", allowTrue: a.allowTrue && b.allowTrue, allowFalse: a.allowFalse && b.allowFalse };
  }
  let d: Domain = a;
  d = restrict(d, b.loOpen ? ">" : ">=", b.lo);
  d = restrict(d, b.hiOpen ? "<" : "<=", b.hi);
  return d.kind === "number" ? normalize({ ...d, excluded: [...d.excluded, ...b.excluded] }) : d;
}

/** A readable form for messages: `speed in (5, 2)`, `grounded = true`. */
export function describeDomain(name: string, d: Domain): string {
  if (d.kind === "bool") {
    if (d.allowTrue && d.allowFalse) return `${name} is anything`;
    if (!d.allowTrue && !d.allowFalse) return `${name} has no possible value`;
    return `${name} = ${d.allowTrue}`;
  }
  const lo = `${d.loOpen ? "(" : "["}${d.lo === -Infinity ? "−∞" : d.lo}`;
  const hi = `${d.hi === Infinity ? "∞" : d.hi}${d.hiOpen ? ")" : "]"}`;
  const ex = d.excluded.length > 0 ? ` except ${d.excluded.join(", ")}` : "";
  return `${name} in ${lo}, ${hi}${ex}`;
}
