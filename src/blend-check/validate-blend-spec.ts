import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { JsonArrayNode, JsonDocument, JsonNode, JsonObjectNode } from "../json/index.ts";
import { JsonReader } from "../json/index.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import type { BlendAxis, BlendCheckSpec, BlendQuery, BlendSample, TransitionBudget, TransitionSpec } from "./blend-spec.ts";

/** The typed spec (when every required part is usable) and every problem found, in one pass. */
export interface BlendSpecValidation {
  /** Undefined when any error was found: the input is unusable and nothing should be written. */
  readonly spec: BlendCheckSpec | undefined;
  /** The document's own diagnostics (syntax, W_BOM, …) followed by the structural ones. */
  readonly diagnostics: Diagnostic[];
}

/**
 * Turns a parsed JSON document into a {@link BlendCheckSpec}, reporting every problem at once: the JSON
 * reader's codes (E_WRONG_TYPE, E_MISSING_KEY, E_NOT_INTEGER, E_NOT_BOOLEAN) plus E_AXIS_COUNT (not exactly
 * two axes), E_AXIS_RANGE (max ≤ min), E_AXIS_PARAM_DUPLICATE (both axes read the same query key) and
 * E_BUDGET_RANGE (minFrames > maxFrames). Members the spec does not use (e.g. `note`) are ignored.
 */
export function validateBlendSpec(input: JsonInput): BlendSpecValidation {
  const doc: JsonDocument = toJsonDocument("validateBlendSpec", "spec", input, "<input>");
  const r = new JsonReader(doc);
  const failed = (): BlendSpecValidation => ({ spec: undefined, diagnostics: r.diagnostics });
  // Syntax errors leave no tree; other document errors (duplicate keys, bad Unicode) still leave one,
  // so the structure is checked too and every problem is reported at once.
  if (!doc.root) return failed();

  const root = r.object(doc.root);
  const project = r.string(r.member(root, "project"));

  const bs = r.object(r.member(root, "blendSpace"));
  const name = r.string(r.member(bs, "name"));
  const { axes, params } = readAxes(r, r.array(r.member(bs, "axes")));
  const samples = each(r, r.array(r.member(bs, "samples")), (node) => readSample(r, node));

  const clipSet = each(r, r.array(r.member(root, "clipSet")), (node) => r.string(node));
  const queryPoints = each(r, r.array(r.member(root, "queryPoints")), (node) => readQuery(r, node, params));
  const states = each(r, r.array(r.member(root, "states")), (node) => r.string(node));
  const transitionBudget = readBudget(r, r.object(r.member(root, "transitionBudget")));
  const transitions = each(r, r.array(r.member(root, "transitions")), (node) => readTransition(r, node));

  if (r.diagnostics.some((d) => d.severity === "error")) return failed();
  if (
    project === undefined || name === undefined || axes === undefined || samples === undefined ||
    clipSet === undefined || queryPoints === undefined || states === undefined ||
    transitionBudget === undefined || transitions === undefined
  ) {
    throw new Error("validateBlendSpec: a part is missing but no error was recorded");
  }
  const spec: BlendCheckSpec = { project, blendSpace: { name, axes, samples }, clipSet, queryPoints, states, transitionBudget, transitions };
  return { spec, diagnostics: r.diagnostics };
}

/** Most items of any one list of a blend-check spec (samples, query points, transitions …). */
export const MAX_BLEND_SPEC_ITEMS = 10_000;

/** Reads every item (so all problems are reported); undefined when any item failed. */
function each<T>(r: JsonReader, arr: JsonArrayNode | undefined, read: (node: JsonNode) => T | undefined): T[] | undefined {
  if (!arr) return undefined;
  if (arr.items.length > MAX_BLEND_SPEC_ITEMS) {
    r.report(arr, "E_SPEC_LIMIT", `${arr.items.length} items; the limit is ${MAX_BLEND_SPEC_ITEMS} per list`);
    return undefined;
  }
  const out: T[] = [];
  let ok = true;
  for (const node of arr.items) {
    const v = read(node);
    if (v === undefined) ok = false;
    else out.push(v);
  }
  return ok ? out : undefined;
}

interface AxesRead {
  /** Both axes, when both are usable. */
  readonly axes: readonly [BlendAxis, BlendAxis] | undefined;
  /** The two parameter names, when known and distinct (enough to read the query points). */
  readonly params: readonly [string, string] | undefined;
}

function readAxes(r: JsonReader, arr: JsonArrayNode | undefined): AxesRead {
  if (!arr) return { axes: undefined, params: undefined };
  if (arr.items.length !== 2) {
    r.report(arr, "E_AXIS_COUNT", `a blend space needs exactly two axes (x, y), found ${arr.items.length}`);
  }
  const read = arr.items.map((node) => readAxis(r, node));
  if (read.length !== 2) return { axes: undefined, params: undefined };
  const [x, y] = read as [AxisRead, AxisRead];
  if (x.param === undefined || y.param === undefined) return { axes: undefined, params: undefined };
  if (x.param === y.param) {
    const paramNode = (arr.items[1] as JsonObjectNode).members.get("param");
    r.report(paramNode, "E_AXIS_PARAM_DUPLICATE", `both axes use the parameter "${y.param}"; a query point could not give two coordinates`);
    return { axes: undefined, params: undefined };
  }
  return { axes: x.axis && y.axis ? [x.axis, y.axis] : undefined, params: [x.param, y.param] };
}

interface AxisRead {
  readonly param: string | undefined;
  readonly axis: BlendAxis | undefined;
}

function readAxis(r: JsonReader, node: JsonNode): AxisRead {
  const obj = r.object(node);
  const param = r.string(r.member(obj, "param"));
  const min = r.integer(r.member(obj, "min"));
  const maxNode = r.member(obj, "max");
  const max = r.integer(maxNode);
  if (min !== undefined && max !== undefined && max <= min) {
    r.report(maxNode, "E_AXIS_RANGE", `axis max ${max} must be greater than min ${min}`);
    return { param, axis: undefined };
  }
  return { param, axis: param === undefined || min === undefined || max === undefined ? undefined : { param, min, max } };
}

function readSample(r: JsonReader, node: JsonNode): BlendSample | undefined {
  const obj = r.object(node);
  const clip = r.string(r.member(obj, "clip"));
  const x = r.integer(r.member(obj, "x"));
  const y = r.integer(r.member(obj, "y"));
  return clip === undefined || x === undefined || y === undefined ? undefined : { clip, x, y };
}

function readQuery(r: JsonReader, node: JsonNode, params: readonly [string, string] | undefined): BlendQuery | undefined {
  const obj = r.object(node);
  // Without the two parameter names the coordinates cannot be read; the axis problem is already reported.
  if (!obj || !params) return undefined;
  const x = r.integer(r.member(obj, params[0]));
  const y = r.integer(r.member(obj, params[1]));
  return x === undefined || y === undefined ? undefined : { x, y };
}

function readBudget(r: JsonReader, obj: JsonObjectNode | undefined): TransitionBudget | undefined {
  const minFrames = r.integer(r.member(obj, "minFrames"));
  const maxNode = r.member(obj, "maxFrames");
  const maxFrames = r.integer(maxNode);
  if (minFrames === undefined || maxFrames === undefined) return undefined;
  if (maxFrames < minFrames) {
    r.report(maxNode, "E_BUDGET_RANGE", `maxFrames ${maxFrames} is below minFrames ${minFrames}: no transition could fit`);
    return undefined;
  }
  return { minFrames, maxFrames };
}

function readTransition(r: JsonReader, node: JsonNode): TransitionSpec | undefined {
  const obj = r.object(node);
  const from = r.string(r.member(obj, "from"));
  const to = r.string(r.member(obj, "to"));
  const frames = r.integer(r.member(obj, "frames"));
  const exitPermille = r.integer(r.member(obj, "exitPermille"));
  const interruptible = r.boolean(r.member(obj, "interruptible"));
  if (from === undefined || to === undefined || frames === undefined || exitPermille === undefined || interruptible === undefined) {
    return undefined;
  }
  return { from, to, frames, exitPermille, interruptible };
}

/** The node at a JSON pointer of a document (for locating findings), or undefined. */
export function nodeAtPointer(root: JsonNode | undefined, pointer: string): JsonNode | undefined {
  if (pointer === "") return root;
  let node = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!node) return undefined;
    if (node.kind === "object") node = node.members.get(token);
    else if (node.kind === "array") node = /^(0|[1-9]\d*)$/.test(token) ? node.items[Number(token)] : undefined;
    else return undefined;
  }
  return node;
}
