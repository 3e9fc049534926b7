import assert from "node:assert/strict";
import { test } from "node:test";
import { main } from "../../src/cli/main.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { repoPath } from "../helpers/assets.ts";

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd: repoPath("") });
  return { code, stdout, stderr };
}

const ROBOT = ["run", "examples/robot/robot.animgraph.json", "--clips", "examples/robot/RobotExpressive.glb", "--script", "examples/robot/walk-run-jump.timeline.json", "--dt", "1/60"];

interface Continuity { step: number; t: number; machine: string; from: string; to: string; blend: string; jump: number | null; joint: string | null }

test("run --json: every started transition with its blend mode and its angular-velocity jump in rad/s", async () => {
  const r = await cli([...ROBOT, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { transitions: Continuity[]; frames: { step: number; continuity?: Continuity[]; events: { type: string }[] }[] };
  const started = doc.frames.flatMap((f) => f.events.filter((e) => e.type === "transitionStarted"));
  assert.equal(doc.transitions.length, started.length);
  assert.ok(doc.transitions.length >= 8);
  for (const c of doc.transitions) {
    assert.equal(c.blend, "crossfade");
    assert.ok(typeof c.jump === "number" && c.jump >= 0 && Number.isFinite(c.jump), JSON.stringify(c));
    assert.ok(typeof c.joint === "string");
    // The same record sits on the frame where the transition started.
    assert.deepEqual(doc.frames[c.step]!.continuity?.find((x) => x.machine === c.machine && x.to === c.to), c);
  }
  const walkRun = doc.transitions.find((c) => c.from === "Walk" && c.to === "Run")!;
  assert.equal(walkRun.machine, "base");
  assert.ok(Math.abs(walkRun.t - 2) < 1e-9);
});

test("run (text): the step that starts a transition tells its mode and jump", async () => {
  const r = await cli(ROBOT);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /transitionStarted base Walk→Run.*~ Walk→Run \(crossfade\) jump \d+\.\d{3} rad\/s at \S+/);
});

test("run --json: a masked layer's transition is measured over the joints its mask moves, not the legs of the walk under it", async () => {
  const r = await cli([...ROBOT, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { transitions: Continuity[] };
  // The example's emote layer is masked to the upper body (Torso and below it).
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const skeleton = gltf.skeletons[0]!;
  const upper = new Set<string>();
  skeleton.names.forEach((name, j) => {
    for (let p = j; p >= 0; p = skeleton.parents[p]!) if (skeleton.names[p] === "Torso") upper.add(name);
  });
  const emote = doc.transitions.filter((c) => c.machine === "emote");
  assert.ok(emote.length >= 3);
  for (const c of emote) {
    assert.ok(c.joint !== null && upper.has(c.joint), `${c.from}→${c.to} is measured at ${c.joint}, outside the emote layer's mask`);
    // The base layer (no mask) started at the same step is measured over every joint: at least as large.
    const base = doc.transitions.find((b) => b.machine === "base" && b.step === c.step);
    if (base) assert.ok(base.jump! >= c.jump!, `${base.jump} < ${c.jump}`);
  }
  assert.ok(emote.some((c) => doc.transitions.some((b) => b.machine === "base" && b.step === c.step)), "the example starts an emote fade with a base transition");
});

test("run --explain on a graph that interrupts from the source state: the fade and its continuity line name the transition that fired and the one it interrupted", async () => {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(tmpdir(), "animgraph-interrupt-"));
  writeFileSync(join(dir, "interrupt.json"), JSON.stringify({
    animgraph: 1,
    parameters: { go: { type: "bool" }, wave: { type: "bool" } },
    layers: [{ name: "base", machine: {
      entry: "Idle",
      states: { Idle: { clip: "Idle" }, Walk: { clip: "Walking" }, Wave: { clip: "Wave" } },
      transitions: [
        { from: "Idle", to: "Walk", conditions: [{ param: "go" }], duration: 1, interruption: { source: "source" } },
        { from: "Idle", to: "Wave", conditions: [{ param: "wave" }], duration: 0.25 },
      ],
    } }],
  }));
  writeFileSync(join(dir, "interrupt.timeline.json"), JSON.stringify({ dt: "1/30", duration: 1, events: [{ t: 0.1, set: { go: true } }, { t: 0.4, set: { wave: true } }] }));
  const args = ["run", join(dir, "interrupt.json"), "--clips", repoPath("examples/robot/RobotExpressive.glb"), "--script", join(dir, "interrupt.timeline.json"), "--explain"];
  const text = await cli(args);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /✓ Idle → Wave \(\/layers\/0\/machine\/transitions\/1\) fires: wave == true/);
  assert.match(text.stdout, /~ Idle→Wave \(crossfade, interrupting Idle→Walk\) jump/);
  assert.match(text.stdout, /base: in Wave, fading Idle → Wave \d+ % \(interruption none; it interrupted Idle → Walk \(\/layers\/0\/machine\/transitions\/0\)\)/);
  assert.doesNotMatch(text.stdout, /fading Walk → Wave|~ Walk→Wave/);
  // The step lines (describeStep / formatStepLine) say the same: the fade and the started event read
  // Idle→Wave, interrupting Idle→Walk, never the live pair Walk→Wave.
  assert.match(text.stdout, /base: Wave \[Idle→Walk s=[\d.]+ w=[\d.]+\] \[Idle→Wave s=[\d.]+ w=[\d.]+, interrupting Idle→Walk\]/);
  assert.match(text.stdout, /transitionInterrupted base Idle→Walk; transitionStarted base Idle→Wave \(interrupting Idle→Walk\)/);
  assert.doesNotMatch(text.stdout, /Walk→Wave/);
  const json = await cli([...args, "--json"]);
  assert.equal(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as { transitions: (Continuity & { interrupted?: string })[] };
  assert.deepEqual(doc.transitions.map((c) => [c.from, c.to, c.interrupted]), [["Idle", "Walk", undefined], ["Idle", "Wave", "Idle→Walk"]]);
});
