// Whole-transition continuity measured from output poses (docs/transitions.md, "Continuity"): the
// largest per-frame angular-velocity jump over a transition (and interruptions of it) in each blend mode,
// and the part of it that the clips' own motion does not explain. Shared by
// test/graph/transition-whole.test.ts and bench/transition-quality.ts.
import { angularVelocitiesInto } from "../../src/continuity/angular-velocity-jump.ts";
import type { Clip } from "../../src/clip/clip.ts";
import { trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { copyPose, createPose, type Pose } from "../../src/pose/pose.ts";
import type { Skeleton } from "../../src/skeleton/skeleton.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { repoPath } from "./assets.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";

export const BLEND_MODES = ["crossfade", "inertialize", "deadBlend"] as const;
export type BlendMode = (typeof BLEND_MODES)[number];

/** One leg of a scenario: at `frame`, trigger a transition from `from` to `to` of `duration` seconds. */
export interface Leg {
  readonly from: string;
  readonly to: string;
  readonly frame: number;
  readonly duration: number;
}

/**
 * A chain of transitions on one machine: the entry plays from frame 0, each leg fires at its frame (a
 * later leg interrupts an earlier one still running). States are named after their clips.
 */
export interface Scenario {
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly entry: string;
  readonly legs: readonly Leg[];
  /** Seconds into a state's clip where a transition enters it (one clip used as two states). */
  readonly offset?: number;
  /** State name → clip name, where they differ. */
  readonly clipOf?: Readonly<Record<string, string>>;
}

export interface TransitionJumps {
  /** The first leg's first-frame jump (rad/s): the continuity figure. */
  readonly first: number;
  /** The largest jump from the first leg's first frame to two frames after the last leg ends. */
  readonly whole: number;
  /**
   * The largest excess of a joint's jump over the clips' own jump at that joint and frame (each state's
   * clip played alone, from when the machine entered it): what the transition adds.
   */
  readonly excess: number;
  /** The frame (from the first leg) and joint of `whole`. */
  readonly at: number;
  readonly joint: string;
}

function graphOf(s: Scenario, blend: BlendMode | "cut"): CompiledGraph {
  const states: Record<string, { clip: string }> = {};
  for (const name of [s.entry, ...s.legs.flatMap((l) => [l.from, l.to])]) states[name] = { clip: s.clipOf?.[name] ?? name };
  const json = {
    animgraph: 1, name: "scenario",
    parameters: Object.fromEntries(s.legs.map((_, i) => [`go${i}`, { type: "trigger" }])),
    layers: [{ name: "base", machine: {
      entry: s.entry, states,
      transitions: s.legs.map((l, i) => ({
        from: l.from, to: l.to, conditions: [{ param: `go${i}` }],
        duration: blend === "cut" ? 0 : l.duration, blend: blend === "cut" ? "crossfade" : blend,
        offset: s.offset ?? 0, interruption: { source: "target" },
      })),
    } }],
  };
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify(json), "scenario.animgraph.json"));
  if (!parsed.spec) throw new Error(JSON.stringify(parsed.diagnostics));
  const compiled = compileGraph(parsed.spec, s.skeleton, s.clips, {});
  if (!compiled.graph) throw new Error(JSON.stringify(compiled.diagnostics));
  return compiled.graph;
}

/** Per-joint angular-velocity jumps (rad/s, one per joint) of a stream of poses, frame by frame. */
function jumpStream(g: CompiledGraph, s: Scenario, frames: number, dt: number, fire: boolean): Float64Array[] {
  const n = s.skeleton.jointCount;
  const inst = createInstance(g);
  const prev = createPose(n);
  let wBefore = new Float64Array(3 * n), wNow = new Float64Array(3 * n);
  const out: Float64Array[] = [];
  for (let k = 0; k < frames; k++) {
    if (fire) s.legs.forEach((l, i) => { if (l.frame === k) trigger(inst, `go${i}`); });
    const pose: Pose = step(g, inst, dt).pose;
    const jumps = new Float64Array(n).fill(NaN);
    if (k > 0) {
      [wBefore, wNow] = [wNow, wBefore];
      angularVelocitiesInto(wNow, prev, pose, dt);
      if (k > 1) for (let j = 0; j < n; j++) jumps[j] = Math.hypot(wNow[3 * j]! - wBefore[3 * j]!, wNow[3 * j + 1]! - wBefore[3 * j + 1]!, wNow[3 * j + 2]! - wBefore[3 * j + 2]!);
    }
    out.push(jumps);
    copyPose(prev, pose);
  }
  return out;
}

/**
 * Measures a scenario under one blend mode at step `dt`. The clips' own jumps come from two reference
 * runs: the entry state alone (no trigger), and the same chain with every transition a cut (each state's
 * clip alone from its entry on; its first two frames after a cut are the cut's, not the clip's, and are
 * not used).
 */
export function measureScenario(s: Scenario, mode: BlendMode, dt: number): TransitionJumps {
  const start = s.legs[0]!.frame;
  const end = Math.max(...s.legs.map((l) => l.frame + Math.ceil(l.duration / dt - 1e-9))) + 2;
  const frames = end + 1;
  const out = jumpStream(graphOf(s, mode), s, frames, dt, true);
  const alone = jumpStream(graphOf(s, mode), s, frames, dt, false);
  const cut = jumpStream(graphOf(s, "cut"), s, frames, dt, true);
  const cutFrames = new Set(s.legs.flatMap((l) => [l.frame, l.frame + 1]));
  let whole = 0, excess = -Infinity, at = 0, joint = 0;
  for (let k = start; k < frames; k++) {
    for (let j = 0; j < s.skeleton.jointCount; j++) {
      const jump = out[k]![j]!;
      if (jump > whole) {
        whole = jump;
        at = k - start;
        joint = j;
      }
      let own = alone[k]![j]!;
      if (!cutFrames.has(k)) own = Math.max(own, cut[k]![j]!);
      excess = Math.max(excess, jump - own);
    }
  }
  return { first: Math.max(...out[start]!), whole, excess, at, joint: s.skeleton.names[joint] ?? String(joint) };
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The first skeleton of a bundled glTF and the clips that animate it. */
export async function skeletonClips(path: string): Promise<{ skeleton: Skeleton; clips: Clip[] }> {
  const gltf = await loadGltfFile(repoPath(path));
  const skeleton = gltf.skeletons[0]!;
  return { skeleton, clips: gltf.clips.filter((c) => c.skeleton === skeleton) };
}
