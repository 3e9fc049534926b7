// The seed's visual demo (seed 003, 可视化演示), on the loaded character: the idle/walk/run/jump/attack
// state machine, a 2D blend tree over (forward, speed), and an A/B crossfade. Each is an ordinary graph
// spec, so every panel (graph, blend space, crossfade curve, why-not, timeline) works on it as on any
// graph, and the editor shows its JSON.
import type { Clip } from "animgraph";

export type SeedDemo = "machine" | "blend2d" | "crossfade";

export interface CrossfadeChoice {
  readonly a: string;
  readonly b: string;
  /** Crossfade length d, seconds. */
  readonly duration: number;
  readonly curve: "linear" | "smoothstep";
}

/** The character's clip for a role: the first whose name matches, else a distinct clip by position. */
function pick(clips: readonly Clip[], patterns: readonly RegExp[], fallback: number): string {
  for (const re of patterns) {
    const c = clips.find((x) => re.test(x.name));
    if (c) return c.name;
  }
  return clips[Math.min(fallback, clips.length - 1)]!.name;
}

/** The roles the demos need, from the character's own clips (RobotExpressive has all of them). */
export function demoClips(clips: readonly Clip[]): Record<"idle" | "walk" | "run" | "jump" | "attack" | "dance", string> {
  return {
    idle: pick(clips, [/^idle$/i, /idle|survey|stand/i], 0),
    walk: pick(clips, [/^walk(ing)?$/i, /walk/i], 1),
    run: pick(clips, [/^run(ning)?$/i, /run/i], 2),
    jump: pick(clips, [/^jump$/i, /jump/i], 3),
    attack: pick(clips, [/^punch$/i, /punch|attack|hit|kick/i], 4),
    dance: pick(clips, [/^dance$/i, /dance|wave|yes/i], 5),
  };
}

const transition = (from: string, to: string, conditions: object[], extra: object = {}): object => ({ from, to, conditions, duration: 0.3, ...extra });

/** State machine M = (S, T, s0): S = idle, walk, run, jump, attack; s0 = idle; T on speed and two triggers. */
function machineDemo(clips: readonly Clip[]): object {
  const c = demoClips(clips);
  return {
    animgraph: 1,
    name: "seed-demo-state-machine",
    description: "Seed 003's demo machine: idle/walk/run by speed, jump and attack on triggers, back to idle when they end.",
    parameters: { speed: { type: "float", default: 0, min: 0, max: 3 }, jump: { type: "trigger" }, attack: { type: "trigger" } },
    layers: [{
      name: "base",
      machine: {
        entry: "idle",
        states: {
          idle: { clip: c.idle }, walk: { clip: c.walk }, run: { clip: c.run },
          jump: { clip: c.jump, loop: "clamp" }, attack: { clip: c.attack, loop: "clamp" },
        },
        transitions: [
          transition("*", "jump", [{ param: "jump" }], { duration: 0.1 }),
          transition("*", "attack", [{ param: "attack" }], { duration: 0.1 }),
          transition("idle", "walk", [{ param: "speed", op: ">", value: 0.5 }]),
          transition("walk", "run", [{ param: "speed", op: ">", value: 1.5 }]),
          transition("run", "walk", [{ param: "speed", op: "<=", value: 1.5 }]),
          transition("walk", "idle", [{ param: "speed", op: "<=", value: 0.5 }]),
          transition("jump", "idle", [], { exitTime: 0.9 }),
          transition("attack", "idle", [], { exitTime: 0.9 }),
        ],
      },
    }],
  };
}

/** A 2D blend tree over (forward, speed): on the spot at forward 0, travelling at forward 1. */
function blendDemo(clips: readonly Clip[]): object {
  const c = demoClips(clips);
  return {
    animgraph: 1,
    name: "seed-demo-blend-tree",
    description: "Seed 003's 2D blend tree over (forward, speed): drag the point in the blend panel. Barycentric weights over a Delaunay triangulation; they sum to 1.",
    parameters: { forward: { type: "float", default: 0, min: 0, max: 1 }, speed: { type: "float", default: 0, min: 0, max: 3 } },
    layers: [{
      name: "base",
      machine: {
        entry: "move",
        states: {
          move: {
            blend2d: {
              params: ["forward", "speed"],
              samples: [
                { x: 0, y: 0, clip: c.idle }, { x: 0, y: 3, clip: c.dance },
                { x: 1, y: 1, clip: c.walk }, { x: 1, y: 3, clip: c.run },
              ],
            },
          },
        },
        transitions: [],
      },
    }],
  };
}

/** Two states A and B and a trigger that swaps them: the crossfade P = w₁·P₁ + w₂·P₂, w₂ = curve(s). */
function crossfadeDemo(choice: CrossfadeChoice): object {
  return {
    animgraph: 1,
    name: "seed-demo-crossfade",
    description: "Seed 003's A/B crossfade: the swap trigger fades between A and B over d seconds; the crossfade panel plots w₁ and w₂.",
    parameters: { swap: { type: "trigger" } },
    layers: [{
      name: "base",
      machine: {
        entry: "A",
        states: { A: { clip: choice.a }, B: { clip: choice.b } },
        transitions: [
          transition("A", "B", [{ param: "swap" }], { duration: choice.duration, curve: choice.curve }),
          transition("B", "A", [{ param: "swap" }], { duration: choice.duration, curve: choice.curve }),
        ],
      },
    }],
  };
}

/** The demo's graph JSON for this character's clips. */
export function seedDemoText(demo: SeedDemo, clips: readonly Clip[], choice?: CrossfadeChoice): string {
  const c = demoClips(clips);
  const spec = demo === "machine" ? machineDemo(clips)
    : demo === "blend2d" ? blendDemo(clips)
    : crossfadeDemo(choice ?? { a: c.walk, b: c.run, duration: 1, curve: "smoothstep" });
  return `${JSON.stringify(spec, null, 2)}\n`;
}
