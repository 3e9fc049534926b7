import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectString } from "../errors/check-argument.ts";
import { OP, type CompiledCondition, type CompiledGraph } from "../graph/compiled-graph.ts";
import type { CompiledProperty, StateRef } from "./explore.ts";

/**
 * A properties file: one property per line, `#` starts a comment (docs/check.md):
 *
 *   never Punch while speed > 3
 *   never base/Jump while grounded == false and speed >= 1
 *   always eventually Idle|Walk|Run after jump
 *   always eventually Idle after entering Punch
 *   from Jump reachable Idle
 *
 * A state is its name, or its machine's path and its name ("base/Locomotion/Walk") when the name is
 * used in more than one machine; `A|B` means either. Names with spaces or `|` are written as JSON
 * strings ("Big Jump"). A condition is `param op value` (op one of > >= < <= == !=, value a number or
 * true/false) or a bare bool parameter (it is true); `and` joins conditions.
 */
export interface CheckProperty {
  /** The property as written (trimmed). */
  readonly text: string;
  /** 1-based line in the file. */
  readonly line: number;
  readonly compiled: CompiledProperty;
}

/** What parseProperties returns: the properties, or the problems (each at its line and column). */
export interface ParsePropertiesResult {
  readonly properties: CheckProperty[];
  readonly diagnostics: Diagnostic[];
}

interface Token {
  readonly text: string;
  readonly quoted: boolean;
  readonly column: number;
}

const OPS: Record<string, number> = { ">": OP.gt, ">=": OP.ge, "<": OP.lt, "<=": OP.le, "==": OP.eq, "!=": OP.ne };
/** Most properties in one file (each costs a monitor bit in every configuration). */
export const MAX_PROPERTIES = 64;

class PropertyError extends Error {
  constructor(readonly code: string, readonly column: number, message: string) {
    super(message);
  }
}

/** Parses a properties file's text against a compiled graph; never throws on user data. */
export function parseProperties(text: string, file: string, graph: CompiledGraph): ParsePropertiesResult {
  expectString("parseProperties", "text", text);
  expectString("parseProperties", "file", file);
  if (!graph || typeof graph !== "object" || !Array.isArray(graph.machines) || !(graph.paramIndex instanceof Map)) throw argumentError("parseProperties", "graph", "a CompiledGraph (compileGraph)", graph);
  const properties: CheckProperty[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    try {
      const tokens = tokenize(raw);
      if (tokens.length === 0) return;
      if (properties.length >= MAX_PROPERTIES) throw new PropertyError("E_PROP_SYNTAX", 1, `more than ${MAX_PROPERTIES} properties in one file`);
      const compiled = parseLine(tokens, graph, properties.length, raw.length + 1);
      properties.push({ text: raw.trim(), line, compiled });
    } catch (e) {
      if (!(e instanceof PropertyError)) throw e;
      diagnostics.push({ code: e.code, severity: "error", file, pointer: `line ${line}`, line, column: e.column, message: `column ${e.column}: ${e.message}` });
    }
  });
  return { properties, diagnostics };
}

function tokenize(raw: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (ch === "#") break;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const column = i + 1;
    if (ch === '"') {
      let j = i + 1;
      while (j < raw.length && raw[j] !== '"') j += raw[j] === "\\" ? 2 : 1;
      if (j >= raw.length) throw new PropertyError("E_PROP_SYNTAX", column, "a quoted name is not closed");
      let value: unknown;
      try {
        value = JSON.parse(raw.slice(i, j + 1));
      } catch {
        throw new PropertyError("E_PROP_SYNTAX", column, "a quoted name is not a valid JSON string");
      }
      tokens.push({ text: String(value), quoted: true, column });
      i = j + 1;
      continue;
    }
    if (ch === "|") {
      tokens.push({ text: "|", quoted: false, column });
      i++;
      continue;
    }
    const op = /^(>=|<=|==|!=|>|<)/.exec(raw.slice(i));
    if (op) {
      tokens.push({ text: op[1]!, quoted: false, column });
      i += op[1]!.length;
      continue;
    }
    let j = i;
    while (j < raw.length && !/[\s|#"<>=!]/.test(raw[j]!)) j++;
    tokens.push({ text: raw.slice(i, j), quoted: false, column });
    i = j;
  }
  return tokens;
}

class Cursor {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly endColumn: number) {}
  peek(): Token | undefined {
    return this.tokens[this.i];
  }
  next(what: string): Token {
    const t = this.tokens[this.i++];
    if (!t) throw new PropertyError("E_PROP_SYNTAX", this.endColumn, `the line ends where ${what} belongs`);
    return t;
  }
  keyword(word: string): void {
    const t = this.next(`"${word}"`);
    if (t.quoted || t.text !== word) throw new PropertyError("E_PROP_SYNTAX", t.column, `expected "${word}", found "${t.text}"`);
  }
  isKeyword(word: string): boolean {
    const t = this.peek();
    return !!t && !t.quoted && t.text === word;
  }
  end(): void {
    const t = this.peek();
    if (t) throw new PropertyError("E_PROP_SYNTAX", t.column, `unexpected "${t.text}" after the end of the property`);
  }
}

function parseLine(tokens: Token[], graph: CompiledGraph, index: number, endColumn: number): CompiledProperty {
  const c = new Cursor(tokens, endColumn);
  const first = c.next("a property");
  if (first.text === "never" && !first.quoted) {
    const states = stateList(c, graph);
    c.keyword("while");
    const conditions: CompiledCondition[] = [condition(c, graph)];
    while (c.isKeyword("and")) {
      c.next("and");
      conditions.push(condition(c, graph));
    }
    c.end();
    return { kind: "never", index, states, conditions };
  }
  if (first.text === "always" && !first.quoted) {
    c.keyword("eventually");
    const states = stateList(c, graph);
    c.keyword("after");
    if (c.isKeyword("entering")) {
      c.next("entering");
      const at = c.peek()?.column ?? endColumn;
      const entering = stateList(c, graph);
      if (entering.length !== 1) throw new PropertyError("E_PROP_SYNTAX", at, "\"after entering\" names one state");
      c.end();
      return { kind: "eventually", index, states, trigger: -1, entering: entering[0]! };
    }
    const t = c.next("a trigger parameter");
    const slot = graph.paramIndex.get(t.text);
    if (slot === undefined) throw new PropertyError("E_PROP_UNKNOWN_PARAM", t.column, `unknown parameter "${t.text}"${nearby(t.text, graph.params.map((p) => p.name))}`);
    if (graph.params[slot]!.type !== "trigger") throw new PropertyError("E_PROP_CONDITION_TYPE", t.column, `"${t.text}" is a ${graph.params[slot]!.type} parameter: "after" takes a trigger, or "entering <state>"`);
    c.end();
    return { kind: "eventually", index, states, trigger: slot, entering: null };
  }
  if (first.text === "from" && !first.quoted) {
    const from = stateList(c, graph);
    c.keyword("reachable");
    const to = stateList(c, graph);
    c.end();
    return { kind: "reachable", index, from, to };
  }
  throw new PropertyError("E_PROP_SYNTAX", first.column, `a property starts with "never", "always eventually" or "from", not "${first.text}"`);
}

function stateList(c: Cursor, graph: CompiledGraph): StateRef[] {
  const refs: StateRef[] = [state(c.next("a state"), graph)];
  while (c.peek()?.text === "|" && !c.peek()!.quoted) {
    c.next("|");
    refs.push(state(c.next("a state after |"), graph));
  }
  return refs;
}

function state(t: Token, graph: CompiledGraph): StateRef {
  const keywords = ["while", "after", "reachable", "and", "entering", "|"];
  if (!t.quoted && keywords.includes(t.text)) throw new PropertyError("E_PROP_SYNTAX", t.column, `expected a state name, found "${t.text}"`);
  const matches: StateRef[] = [];
  const slash = t.quoted ? -1 : t.text.lastIndexOf("/");
  for (const m of graph.machines) {
    if (slash >= 0) {
      if (m.path !== t.text.slice(0, slash)) continue;
      const s = m.stateIndex.get(t.text.slice(slash + 1));
      if (s !== undefined) matches.push({ machine: m.id, state: s });
    } else {
      const s = m.stateIndex.get(t.text);
      if (s !== undefined) matches.push({ machine: m.id, state: s });
    }
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const where = matches.map((r) => `${graph.machines[r.machine]!.path}/${t.text}`).join(", ");
    throw new PropertyError("E_PROP_AMBIGUOUS_STATE", t.column, `"${t.text}" is a state of more than one machine: write ${where}`);
  }
  const all = graph.machines.flatMap((m) => m.states.map((s) => s.name));
  throw new PropertyError("E_PROP_UNKNOWN_STATE", t.column, `unknown state "${t.text}"${nearby(t.text, all)}`);
}

function condition(c: Cursor, graph: CompiledGraph): CompiledCondition {
  const t = c.next("a condition");
  const slot = graph.paramIndex.get(t.text);
  if (slot === undefined) throw new PropertyError("E_PROP_UNKNOWN_PARAM", t.column, `unknown parameter "${t.text}"${nearby(t.text, graph.params.map((p) => p.name))}`);
  const p = graph.params[slot]!;
  const opToken = c.peek();
  if (!opToken || opToken.quoted || !(opToken.text in OPS)) {
    if (p.type === "bool") return { slot, type: p.type, op: OP.eq, value: 1 };
    throw new PropertyError("E_PROP_SYNTAX", opToken?.column ?? t.column + t.text.length, `"${t.text}" is a ${p.type} parameter: compare it, as in ${t.text} > 1`);
  }
  c.next("an operator");
  const v = c.next("a value");
  if (p.type === "trigger") throw new PropertyError("E_PROP_CONDITION_TYPE", t.column, `"${t.text}" is a trigger: a "while" condition reads float, int and bool parameters`);
  if (p.type === "bool") {
    if (v.text !== "true" && v.text !== "false") throw new PropertyError("E_PROP_CONDITION_TYPE", v.column, `bool parameter "${t.text}" is compared with true or false, not "${v.text}"`);
    if (opToken.text !== "==" && opToken.text !== "!=") throw new PropertyError("E_PROP_CONDITION_TYPE", opToken.column, `bool parameter "${t.text}" is compared with == or !=`);
    return { slot, type: p.type, op: OPS[opToken.text]!, value: v.text === "true" ? 1 : 0 };
  }
  if (v.quoted || !/^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(v.text)) {
    throw new PropertyError("E_PROP_CONDITION_TYPE", v.column, `${p.type} parameter "${t.text}" is compared with a number, not "${v.text}"`);
  }
  return { slot, type: p.type, op: OPS[opToken.text]!, value: Number(v.text) };
}

/** " (did you mean "X"?)" for the closest name by edit distance, when one is close. */
function nearby(name: string, names: readonly string[]): string {
  let best = "";
  let bestD = Infinity;
  for (const n of names) {
    const d = editDistance(name.toLowerCase(), n.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return bestD <= Math.max(1, Math.floor(name.length / 3)) ? ` (did you mean "${best}"?)` : "";
}

function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[b.length]!;
}
