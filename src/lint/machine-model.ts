import { childPointer } from "../diagnostics/diagnostic.ts";
import type { GraphSpec, MachineSpec, StateSpec, TransitionBlend } from "../spec/graph-spec.ts";
import { buildConditionSet, type ConditionSet } from "./condition-set.ts";
import type { LintClipInfo } from "./lint-options.ts";

/**
 * A state machine as the flow and transition checks see it, built from a graph spec's machine or
 * from a seed-format (blend-check) spec, so both formats get the same analyses.
 */
export interface LintMachine {
  readonly pointer: string;
  readonly entry: string;
  readonly states: ReadonlyMap<string, LintState>;
  /** In priority order. */
  readonly transitions: readonly LintTransition[];
}

export interface LintState {
  readonly name: string;
  readonly pointer: string;
  readonly final: boolean;
  /**
   * Where the state's motion ends, in normalised time (time / cycle length): 1 when it plays once
   * and holds its last pose ("clamp"), Infinity when it loops.
   */
  readonly motionEnd: number;
}

export interface LintTransition {
  readonly pointer: string;
  readonly from: string;
  readonly to: string;
  readonly canTransitionToSelf: boolean;
  /** Undefined when the format does not state the conditions (the seed's transition table). */
  readonly conditions: ConditionSet | undefined;
  readonly exitTime?: number;
  /** Whether the exit time was written as exitPermille. */
  readonly exitPermille?: boolean;
  /** Crossfade length in seconds. */
  readonly duration: number;
  /** Crossfade length in frames (as authored, or seconds × frameRate). */
  readonly frames: number;
  /** Where the duration was written (for the budget finding). */
  readonly durationPointer: string;
  /** The blend mode (`crossfade` when the format has none). */
  readonly blend: TransitionBlend;
}

/** Every machine of a graph spec (layers' machines and nested ones), outermost first. */
export function graphMachines(spec: GraphSpec, clips: ReadonlyMap<string, LintClipInfo> | undefined): LintMachine[] {
  const out: LintMachine[] = [];
  const visit = (m: MachineSpec): void => {
    out.push(machineModel(spec, m, clips));
    for (const s of m.states.values()) if (s.motion.kind === "machine") visit(s.motion.machine);
  };
  for (const layer of spec.layers) visit(layer.machine);
  return out;
}

function machineModel(spec: GraphSpec, m: MachineSpec, clips: ReadonlyMap<string, LintClipInfo> | undefined): LintMachine {
  const states = new Map<string, LintState>();
  for (const s of m.states.values()) {
    states.set(s.name, { name: s.name, pointer: s.pointer, final: s.final, motionEnd: motionEnd(s, clips) });
  }
  const transitions = m.transitions.map((t): LintTransition => {
    const frames = t.durationFrames ?? roundFrames(t.duration * spec.frameRate);
    const durationKey = t.durationFrames !== undefined ? "durationFrames" : "duration";
    return {
      pointer: t.pointer, from: t.from, to: t.to, canTransitionToSelf: t.canTransitionToSelf,
      conditions: buildConditionSet(t.conditions, spec.parameters),
      ...(t.exitTime !== undefined ? { exitTime: t.exitTime } : {}),
      ...(t.exitPermille ? { exitPermille: true } : {}),
      duration: t.duration, frames, durationPointer: childPointer(t.pointer, durationKey),
      blend: t.blend ?? "crossfade",
    };
  });
  return { pointer: m.pointer, entry: m.entry, states, transitions };
}

/** Seconds × frame rate, rid of float noise (0.1 × 30 is 3, not 3.0000000000000004). */
function roundFrames(frames: number): number {
  return Math.round(frames * 1e6) / 1e6;
}

function motionEnd(s: StateSpec, clips: ReadonlyMap<string, LintClipInfo> | undefined): number {
  if (s.motion.kind === "machine") return Infinity;
  const loop = s.loop ?? (s.motion.kind === "clip" ? clips?.get(s.motion.clip)?.loop : undefined) ?? "loop";
  return loop === "clamp" ? 1 : Infinity;
}
