import { bilinearPermille } from "./bilinear-permille.ts";
import { expectBlendCheckSpec } from "./check-blend-check-arguments.ts";
import type { BlendCheckSpec } from "./blend-spec.ts";
import { sortedByCodePoint } from "./code-point-order.ts";
import { digest16 } from "./digest16.ts";

/**
 * The blend-check report, field for field the object the Python reference writes (same names, same
 * values, same order of list items). Counts are plain numbers (lengths); every list is sorted by code
 * point except `badSamples` (sample order, `cornersMissing` first) and `weights` (query order).
 */
export interface BlendCheckReport {
  readonly project: string;
  /** The blend space's name. */
  readonly blendSpace: string;
  readonly sampleCount: number;
  readonly queryCount: number;
  readonly transitionCount: number;
  /** `cornersMissing` when the set of sample positions is not exactly the four corners, then `outOfRange=<clip>` per sample outside the axes. */
  readonly badSamples: readonly string[];
  /** Sample clips absent from `clipSet` (each once). */
  readonly missingClipRefs: readonly string[];
  /** `from->to` for each transition with an unknown endpoint. */
  readonly danglingTransitions: readonly string[];
  /** `from->to:frames` for each transition outside the frame budget. */
  readonly outOfBudget: readonly string[];
  /** `from->to` once for each repeat of an earlier (from, to) pair. */
  readonly duplicateTransitions: readonly string[];
  /** Per query: `<paramX>=<qx> <paramY>=<qy>:` then `clip=permille` for every positive weight, in sample order. */
  readonly weights: readonly string[];
  /** digest16 of the weight lines. */
  readonly weightDigest: string;
  /** digest16 of the sorted `from->to:frames:exitPermille:T|F` lines. */
  readonly transitionDigest: string;
}

/** Whether the set of sample positions is exactly the set of the four corners (extra positions fail too). */
export function samplesOnCorners(spec: BlendCheckSpec): boolean {
  const [ax, ay] = spec.blendSpace.axes;
  const need = new Set<string>();
  for (const x of [ax.min, ax.max]) for (const y of [ay.min, ay.max]) need.add(`${x},${y}`);
  const have = new Set(spec.blendSpace.samples.map((s) => `${s.x},${s.y}`));
  return have.size === need.size && [...have].every((p) => need.has(p));
}

/** Whether a point lies inside both axis ranges (bounds included). */
export function insideAxes(spec: BlendCheckSpec, x: bigint, y: bigint): boolean {
  const [ax, ay] = spec.blendSpace.axes;
  return ax.min <= x && x <= ax.max && ay.min <= y && y <= ay.max;
}

/** Computes the report exactly as the Python reference does (see docs/blend-check.md). Pure. */
export function analyzeBlendSpec(spec: BlendCheckSpec): BlendCheckReport {
  expectBlendCheckSpec("analyzeBlendSpec", "spec", spec);
  const { blendSpace: bs, transitions } = spec;
  const [ax, ay] = bs.axes;

  const badSamples: string[] = samplesOnCorners(spec) ? [] : ["cornersMissing"];
  for (const s of bs.samples) if (!insideAxes(spec, s.x, s.y)) badSamples.push(`outOfRange=${s.clip}`);
  const clipSet = new Set(spec.clipSet);
  const missing = sortedByCodePoint(new Set(bs.samples.map((s) => s.clip).filter((c) => !clipSet.has(c))));

  const states = new Set(spec.states);
  const { minFrames, maxFrames } = spec.transitionBudget;
  const dangling: string[] = [];
  const outOfBudget: string[] = [];
  const dup: string[] = [];
  // Keyed on the (from, to) pair itself: "a->b"+"c" and "a"+"b->c" are different transitions.
  const seen = new Map<string, Set<string>>();
  for (const t of transitions) {
    const label = `${t.from}->${t.to}`;
    if (!states.has(t.from) || !states.has(t.to)) dangling.push(label);
    if (!(minFrames <= t.frames && t.frames <= maxFrames)) outOfBudget.push(`${label}:${t.frames}`);
    let tos = seen.get(t.from);
    if (!tos) seen.set(t.from, (tos = new Set()));
    if (tos.has(t.to)) dup.push(label);
    tos.add(t.to);
  }

  const weights = spec.queryPoints.map((q) => {
    const w = bilinearPermille(bs.samples, ax, ay, q.x, q.y);
    const parts: string[] = [];
    bs.samples.forEach((s, i) => {
      if (w[i]! > 0n) parts.push(`${s.clip}=${w[i]}`);
    });
    return `${ax.param}=${q.x} ${ay.param}=${q.y}:${parts.join(" ")}`;
  });
  const tlines = sortedByCodePoint(
    transitions.map((t) => `${t.from}->${t.to}:${t.frames}:${t.exitPermille}:${t.interruptible ? "T" : "F"}`),
  );

  return {
    project: spec.project,
    blendSpace: bs.name,
    sampleCount: bs.samples.length,
    queryCount: spec.queryPoints.length,
    transitionCount: transitions.length,
    badSamples,
    missingClipRefs: missing,
    danglingTransitions: sortedByCodePoint(dangling),
    outOfBudget: sortedByCodePoint(outOfBudget),
    duplicateTransitions: sortedByCodePoint(dup),
    weights,
    weightDigest: digest16(weights),
    transitionDigest: digest16(tlines),
  };
}
