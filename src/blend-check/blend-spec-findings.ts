import { argumentError, expectString } from "../errors/check-argument.ts";
import { compareDiagnosticsUnchecked, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { diagnosticAt, type JsonDocument } from "../json/index.ts";
import { insideAxes, samplesOnCorners } from "./analyze-blend-spec.ts";
import type { BlendCheckSpec } from "./blend-spec.ts";
import { expectBlendCheckSpec } from "./check-blend-check-arguments.ts";
import { nodeAtPointer } from "./validate-blend-spec.ts";

/**
 * The report's findings as diagnostics with JSON pointers into the spec, for printing and for other
 * linters to reuse: E_BLEND_CORNERS_MISSING, E_SAMPLE_OUT_OF_RANGE, E_MISSING_CLIP, E_UNKNOWN_STATE,
 * E_TRANSITION_BUDGET, E_DUPLICATE_TRANSITION (errors) and W_QUERY_OUT_OF_RANGE (warning: the weights
 * are still computed, by extrapolation). With the document the spec was read from, each diagnostic also
 * gets its line and column and the list is in source order.
 */
export function blendSpecFindings(spec: BlendCheckSpec, file: string, doc?: JsonDocument): Diagnostic[] {
  expectBlendCheckSpec("blendSpecFindings", "spec", spec);
  expectString("blendSpecFindings", "file", file);
  const d = doc as Partial<JsonDocument> | null | undefined;
  if (d !== undefined && (typeof d !== "object" || d === null || typeof d.text !== "string" || typeof d.source !== "object" || d.source === null)) {
    throw argumentError("blendSpecFindings", "doc", "a JsonDocument from parseJsonText, or undefined", doc);
  }
  const out: Diagnostic[] = [];
  const add = (pointer: string, code: string, message: string, severity: Diagnostic["severity"] = "error"): void => {
    const node = doc ? nodeAtPointer(doc.root, pointer) : undefined;
    const at = node ? { pointer, offset: node.offset } : undefined;
    const d = doc && at ? diagnosticAt(doc, at, code, message, severity) : { code, severity, file, pointer, message };
    out.push({ ...d, file });
  };
  const [ax, ay] = spec.blendSpace.axes;
  const box = `[${ax.min}..${ax.max}] × [${ay.min}..${ay.max}]`;

  if (!samplesOnCorners(spec)) {
    const corners = [ax.min, ax.max].flatMap((x) => [ay.min, ay.max].map((y) => `${x},${y}`));
    const have = new Set(spec.blendSpace.samples.map((s) => `${s.x},${s.y}`));
    const need = new Set(corners);
    const missing = corners.filter((c) => !have.has(c)).map((c) => `(${c.replace(",", ", ")})`);
    const extra = [...have].filter((c) => !need.has(c)).map((c) => `(${c.replace(",", ", ")})`);
    const parts = [
      missing.length > 0 ? `no sample at ${missing.join(" ")}` : "",
      extra.length > 0 ? `samples off the corners at ${extra.join(" ")}` : "",
    ].filter((p) => p !== "");
    add("/blendSpace/samples", "E_BLEND_CORNERS_MISSING", `the samples must sit exactly on the four corners of ${box}: ${parts.join("; ")}`);
  }
  const clipSet = new Set(spec.clipSet);
  spec.blendSpace.samples.forEach((s, i) => {
    if (!insideAxes(spec, s.x, s.y)) {
      add(`/blendSpace/samples/${i}`, "E_SAMPLE_OUT_OF_RANGE", `sample "${s.clip}" at (${s.x}, ${s.y}) is outside the blend space ${box}`);
    }
    if (!clipSet.has(s.clip)) add(`/blendSpace/samples/${i}/clip`, "E_MISSING_CLIP", `clip "${s.clip}" is not in clipSet`);
  });
  spec.queryPoints.forEach((q, i) => {
    if (!insideAxes(spec, q.x, q.y)) {
      add(
        `/queryPoints/${i}`,
        "W_QUERY_OUT_OF_RANGE",
        `query (${ax.param}=${q.x}, ${ay.param}=${q.y}) is outside the blend space ${box}; its weights are extrapolated`,
        "warning",
      );
    }
  });

  const states = new Set(spec.states);
  const { minFrames, maxFrames } = spec.transitionBudget;
  const firstIndex = new Map<string, Map<string, number>>();
  spec.transitions.forEach((t, i) => {
    if (!states.has(t.from)) add(`/transitions/${i}/from`, "E_UNKNOWN_STATE", `unknown state "${t.from}"`);
    if (!states.has(t.to)) add(`/transitions/${i}/to`, "E_UNKNOWN_STATE", `unknown state "${t.to}"`);
    if (!(minFrames <= t.frames && t.frames <= maxFrames)) {
      add(`/transitions/${i}/frames`, "E_TRANSITION_BUDGET", `${t.frames} frames is outside the budget ${minFrames}..${maxFrames}`);
    }
    let byTo = firstIndex.get(t.from);
    if (!byTo) firstIndex.set(t.from, (byTo = new Map()));
    const first = byTo.get(t.to);
    if (first === undefined) byTo.set(t.to, i);
    else add(`/transitions/${i}`, "E_DUPLICATE_TRANSITION", `transition "${t.from}" -> "${t.to}" repeats /transitions/${first}`);
  });
  return doc ? out.sort(compareDiagnosticsUnchecked) : out;
}
