import { compileGraph } from "../graph/compile-graph.ts";
import type { CompiledGraph } from "../graph/compiled-graph.ts";
import { setParam } from "../graph/commands.ts";
import { createInstance } from "../graph/graph-instance.ts";
import { createProceduralClip, type ProceduralClip } from "../graph/motion-source.ts";
import { step } from "../graph/step.ts";
import { createSkeleton, type Skeleton } from "../skeleton/skeleton.ts";
import type { GraphSpec, StateSpec, TransitionSpec } from "../spec/graph-spec.ts";
import { formatFixed, padRight } from "./python-format.ts";

// The seed's Python demo ("Python 演示", test/golden/demo-seed.py), rebuilt from the library's pieces:
// three states on procedural sine clips, five transitions on an int parameter, and the seed's key
// script. Its StateMachine differs from the library's defaults in three ways, configured here:
// the fading-out state's time stands still (sourceTime "freeze"), a re-entered state resumes its old
// local time (targetTime "resume"), and a new transition cuts an unfinished one (interruptMode "cut").
// Its crossfade is linear (mix = blend_t / blend_dur), every transition 0.3 s, checked every frame
// from the current state even mid-fade (interruption "target").

/** The seed's SineClip: three scalars per pose, one joint's translation here. */
function sineClip(skeletonName: string, amp: number, freq: number, moveSpeed: number): ProceduralClip {
  return createProceduralClip({
    name: skeletonName,
    duration: Infinity, // the seed samples sin(time · freq) at the unwrapped local time
    sample(out, time) {
      out.t[0] = amp * Math.sin(time * freq);
      out.t[1] = amp * Math.cos(time * freq * 0.5);
      out.t[2] = amp * 0.3 * Math.sin(time * freq * 0.25);
    },
    rootVelocity: [moveSpeed, 0, 0],
  });
}

const FILE = "<seed-demo>";

function state(name: string): StateSpec {
  const pointer = `/layers/0/machine/states/${name}`;
  return {
    pointer, name, speed: 1, events: [], final: false,
    motion: { kind: "clip", clip: name, pointer: `${pointer}/motion` },
  };
}

function transition(index: number, from: string, to: string, speed: number): TransitionSpec {
  const pointer = `/layers/0/machine/transitions/${index}`;
  return {
    pointer, from, to,
    conditions: [{ pointer: `${pointer}/conditions/0`, param: "speed", op: "==", value: speed }],
    duration: 0.3, curve: "linear", offset: 0,
    interruption: { source: "target", freeze: false }, canTransitionToSelf: false,
  };
}

/** The seed demo's machine as a GraphSpec: idle / walk / run, entry idle, five transitions on `speed`. */
export function seedDemoSpec(): GraphSpec {
  const states = new Map<string, StateSpec>(["idle", "walk", "run"].map((n) => [n, state(n)]));
  return {
    file: FILE, version: 1, name: "seed-demo", frameRate: 30,
    parameters: new Map([["speed", { pointer: "/parameters/speed", name: "speed", type: "int", default: 0, min: 0, max: 2 }]]),
    masks: new Map(),
    layers: [{
      pointer: "/layers/0", name: "base", weight: 1, mode: "override",
      machine: {
        pointer: "/layers/0/machine", entry: "idle", states,
        transitions: [
          transition(0, "idle", "walk", 1),
          transition(1, "walk", "run", 2),
          transition(2, "run", "walk", 1),
          transition(3, "walk", "idle", 0),
          transition(4, "run", "idle", 0),
        ],
      },
    }],
  };
}

/** The seed's one-joint "skeleton" and its three clips (amplitude, frequency, move speed). */
export function seedDemoAssets(): { skeleton: Skeleton; clips: Map<string, ProceduralClip> } {
  const skeleton = createSkeleton({ names: ["pose"], parents: [-1] });
  const clips = new Map<string, ProceduralClip>([
    ["idle", sineClip("idle", 0.1, 1.0, 0.0)],
    ["walk", sineClip("walk", 0.2, 3.0, 1.4)],
    ["run", sineClip("run", 0.35, 6.0, 4.2)],
  ]);
  return { skeleton, clips };
}

/** The compiled seed graph with the seed's semantics. */
export function compileSeedDemo(): CompiledGraph {
  const { skeleton, clips } = seedDemoAssets();
  const r = compileGraph(seedDemoSpec(), skeleton, clips, { sourceTime: "freeze", targetTime: "resume", interruptMode: "cut" });
  if (!r.graph) throw new Error(`seed demo failed to compile: ${r.diagnostics.map((d) => d.message).join("; ")}`);
  return r.graph;
}

/** The seed's key script: (time, keys held); speed_input maps run → 2, walk → 1, nothing → 0. */
const SCRIPT: readonly (readonly [number, readonly string[]])[] = [
  [0.0, []], [0.5, ["walk"]], [2.0, ["run"]], [4.0, ["walk"]], [5.5, []], [7.0, []],
];

function speedInput(keys: readonly string[]): number {
  if (keys.includes("run")) return 2;
  if (keys.includes("walk")) return 1;
  return 0;
}

/**
 * Runs the seed demo and returns its 81 lines (`t=… state=… mix=… speed=… pose=[…]`), byte-equal to
 * the Python original's output: t accumulated as t += dt in doubles and printed like Python's %.1f;
 * mix is the running crossfade's linear progress (0 when none); speed the root-motion velocity.
 */
export function runSeedDemo(): string[] {
  const graph = compileSeedDemo();
  const instance = createInstance(graph);
  const names = graph.layers[0]!.machine.states.map((s) => s.name);
  const lines: string[] = [];
  const dt = 1.0 / 10.0;
  let idx = 0;
  let t = 0.0;
  while (t <= 8.0) {
    while (idx < SCRIPT.length - 1 && t >= SCRIPT[idx + 1]![0]) idx++;
    setParam(instance, "speed", speedInput(SCRIPT[idx]![1]));
    const result = step(graph, instance, dt);
    const machine = instance.layers[0]!;
    const mix = machine.depth > 0 ? machine.stack[machine.depth - 1]!.progress : 0;
    const speed = result.rootDelta[0]! / dt;
    const pose = result.pose.t;
    lines.push(
      `t=${formatFixed(t, 1)} state=${padRight(names[machine.current]!, 4)} mix=${formatFixed(mix, 2)} ` +
      `speed=${formatFixed(speed, 2)} pose=[${formatFixed(pose[0]!, 2)} ${formatFixed(pose[1]!, 2)} ${formatFixed(pose[2]!, 2)}]`,
    );
    t += dt;
  }
  return lines;
}

