import assert from "node:assert/strict";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { main } from "../../src/cli/main.ts";
import { standInClips } from "../../src/demo/stand-in-clips.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { parseTimeline } from "../../src/graph/timeline.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import { readGraphSpec } from "../../src/spec/read-graph-spec-file.ts";
import { repoPath } from "../helpers/assets.ts";

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd: repoPath("") });
  return { code, stdout, stderr };
}

test("the bundled assets are in the repository, with their licences", () => {
  for (const f of ["examples/robot/RobotExpressive.glb", "examples/robot/LICENSE.md", "examples/fox/Fox.glb", "examples/fox/LICENSE.md"]) {
    assert.ok(existsSync(repoPath(f)), f);
  }
});

test("examples/robot: the walk-run-jump timeline runs and shows every part of the machine", async () => {
  const r = await cli(["run", "examples/robot/robot.animgraph.json", "--clips", "examples/robot/RobotExpressive.glb", "--script", "examples/robot/walk-run-jump.timeline.json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 300);
  const text = r.stdout;
  for (const needle of ["transitionStarted base Idle→Walk", "transitionStarted base Walk→Run", "transitionStarted base Run→Jump", "notify land (base/Jump)",
    "transitionStarted base Jump→Run", "transitionStarted base Run→Walk", "transitionStarted emote None→Wave", "notify hit (base/Punch)",
    "notify footstep.L (base/Walk)", "notify footstep.L (base/Run)", "transitionStarted base Idle→Punch", "clipLooped base/Run", "[Idle→Walk s="]) {
    assert.ok(text.includes(needle), needle);
  }
  assert.match(lines[0]!, /^t=0\.000 {2}base: Idle {2}emote: None {2}root=/);
});

test("examples/robot --json: one document with every step, weights summing to 1", async () => {
  const r = await cli(["run", "examples/robot/robot.animgraph.json", "--clips", "examples/robot/RobotExpressive.glb", "--script", "examples/robot/walk-run-jump.timeline.json", "--json", "--dt", "1/15", "--digest"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { dt: number; steps: number; digest: string; frames: { t: number; layers: { weights: Record<string, number> }[]; events: { type: string }[] }[] };
  assert.equal(doc.steps, 150);
  assert.equal(doc.dt, 1 / 15);
  assert.match(doc.digest, /^[0-9a-f]{64}$/);
  for (const f of doc.frames) for (const l of f.layers) {
    const sum = Object.values(l.weights).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9, `t=${f.t}: ${sum}`);
  }
});

test("examples/robot run --explain: why each transition fires or not, before the step it explains; in --json every frame", async () => {
  const r = await cli(["run", "examples/robot/robot.animgraph.json", "--clips", "examples/robot/RobotExpressive.glb", "--script", "examples/robot/walk-run-jump.timeline.json", "--explain"]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split("\n");
  // The block that explains Idle → Walk comes right before the step line where it starts.
  const fires = lines.findIndex((l) => /✓ Idle → Walk \(\/layers\/0\/machine\/transitions\/2\) fires: speed > 0\.1 \(1\.5\)/.test(l));
  assert.ok(fires > 0, r.stdout.slice(0, 2000));
  assert.match(lines[fires + 1]!, /^t=0\.500 .*transitionStarted base Idle→Walk/);
  assert.ok(lines.some((l) => /✗ \* → Jump .*\[conditions\] jump is false, needs == true/.test(l)));
  assert.ok(lines.some((l) => /\[interruption\] not considered while .* fades, interruption "target"/.test(l)));
  const json = await cli(["run", "examples/robot/robot.animgraph.json", "--clips", "examples/robot/RobotExpressive.glb", "--script", "examples/robot/walk-run-jump.timeline.json", "--explain", "--json"]);
  const doc = JSON.parse(json.stdout) as { frames: { explain: { machines: { machine: string; fired: string | null; transitions: { verdict: string }[] }[] } }[] };
  assert.equal(doc.frames.length, 300);
  assert.ok(doc.frames.every((f) => f.explain.machines.length >= 2));
  assert.ok(doc.frames.some((f) => f.explain.machines[0]!.fired === "/layers/0/machine/transitions/2"));
});

test("examples/fox: Survey, Walk and Run with sync groups and root motion", async () => {
  const r = await cli(["run", "examples/fox/fox.animgraph.json", "--clips", "examples/fox/Fox.glb", "--script", "examples/fox/survey-walk-run.timeline.json", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { frames: { layers: { state: string }[]; rootDelta: number[]; events: { type: string; name?: string }[] }[] };
  const states = new Set(doc.frames.map((f) => f.layers[0]!.state));
  assert.deepEqual([...states].sort(), ["Run", "Survey", "Walk"]);
  const moving = doc.frames.filter((f) => f.layers[0]!.state !== "Survey").map((f) => Math.hypot(f.rootDelta[0]!, f.rootDelta[2]!));
  assert.ok(moving.some((d) => d > 0), "root motion reported while walking and running");
  assert.ok(doc.frames.some((f) => f.events.some((e) => e.name === "footstep")));
});

test("examples/stardust-inn/innkeeper: lints clean, compiles with stand-in clips and runs", async () => {
  const read = readGraphSpec(repoPath("examples/stardust-inn/innkeeper.animgraph.json"));
  assert.ok(read.spec, JSON.stringify(read.diagnostics));
  assert.deepEqual(lintGraph(read.spec, { document: read.document }), []);
  const { skeleton, clips } = standInClips(read.spec);
  assert.deepEqual([...clips.keys()], ["innkeeper_idle_lean_l", "innkeeper_idle_lean_r", "innkeeper_run_lean_l", "innkeeper_run_lean_r", "innkeeper_work", "innkeeper_sit", "innkeeper_celebrate"]);
  const compiled = compileGraph(read.spec, skeleton, clips);
  assert.deepEqual(compiled.diagnostics, []);
  const walk = compiled.graph!.layers[0]!.machine.states[1]!.motion;
  assert.ok(walk.kind === "blend2d" && walk.mode === "grid");
  const r = await cli(["run", "examples/stardust-inn/innkeeper.animgraph.json", "--stand-in-clips", "--script", "examples/stardust-inn/innkeeper.timeline.json"]);
  assert.equal(r.code, 0, r.stderr);
  for (const s of ["Idle→Walk", "Walk→Work", "Work→Idle", "Idle→Celebrate", "Idle→Sit"]) assert.ok(r.stdout.includes(`transitionStarted base ${s}`), s);
});

test("run: unusable input exits 2 with a diagnostic naming the file and pointer", async () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-run-"));
  const bad = join(dir, "bad.timeline.json");
  writeFileSync(bad, JSON.stringify({ dt: 0.1, duration: 1, events: [{ t: 0.5, set: { speed: "fast" } }] }));
  const spec = "examples/robot/robot.animgraph.json";
  const clips = ["--clips", "examples/robot/RobotExpressive.glb"];
  let r = await cli(["run", spec, ...clips, "--script", bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /bad\.timeline\.json: \/events\/0\/set\/speed: expected a number, found a string \[E_WRONG_TYPE\]/);
  r = await cli(["run", spec, "--script", bad]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /exactly one of --clips FILE or --stand-in-clips/);
  r = await cli(["run", spec, ...clips, "--script", "examples/robot/walk-run-jump.timeline.json", "--dt", "0"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--dt must be a number > 0/);
  r = await cli(["run", "examples/fox/fox.animgraph.json", ...clips, "--script", "examples/robot/walk-run-jump.timeline.json"]);
  assert.equal(r.code, 2, "the robot file has no Survey clip");
  assert.match(r.stderr, /unknown clip "Survey" \[E_UNKNOWN_CLIP\]/);
  r = await cli(["run", join(dir, "missing.animgraph.json"), ...clips, "--script", bad]);
  assert.equal(r.code, 2);
});

test("timeline validation: one row per bad input, with its code and pointer", async () => {
  const read = readGraphSpec(repoPath("examples/robot/robot.animgraph.json"));
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const graph = compileGraph(read.spec!, gltf.skeletons[0]!, gltf.clips).graph!;
  const base = { dt: 0.1, duration: 2 };
  const rows: [unknown, string][] = [
    [{ ...base, events: [{ t: 0, set: { nope: 1 } }] }, "E_UNKNOWN_PARAM /events/0/set/nope"],
    [{ ...base, events: [{ t: 0, set: { emote: 1.5 } }] }, "E_PARAM_TYPE /events/0/set/emote"],
    [{ ...base, events: [{ t: 0, set: { jump: true } }] }, "E_PARAM_TYPE /events/0/set/jump"],
    [{ ...base, events: [{ t: 0, trigger: "speed" }] }, "E_PARAM_TYPE /events/0/trigger"],
    [{ ...base, events: [{ t: 0, trigger: ["jump", "nope"] }] }, "E_UNKNOWN_PARAM /events/0/trigger/1"],
    [{ ...base, events: [{ t: 0, travel: "Ghost" }] }, "E_UNKNOWN_STATE /events/0/travel"],
    [{ ...base, events: [{ t: 0, travel: "Yes", layer: "nope" }] }, "E_UNKNOWN_LAYER /events/0/layer"],
    [{ ...base, events: [{ t: 0, travel: "Yes", layer: 9 }] }, "E_UNKNOWN_LAYER /events/0/layer"],
    [{ ...base, events: [{ t: 0 }] }, "E_TIMELINE_ACTION /events/0"],
    [{ ...base, events: [{ t: 0, trigger: "jump", travel: "Idle" }] }, "E_TIMELINE_ACTION /events/0"],
    [{ ...base, events: [{ t: -1, trigger: "jump" }] }, "E_TIMELINE_RANGE /events/0/t"],
    [{ ...base, events: [{ t: 0, trigger: "jump", when: 1 }] }, "E_TIMELINE_KEY /events/0/when"],
    [{ ...base, extra: 1, events: [] }, "E_TIMELINE_KEY /extra"],
    [{ dt: 0, duration: 1, events: [] }, "E_TIMELINE_DT /dt"],
    [{ dt: "1/0", duration: 1, events: [] }, "E_TIMELINE_DT /dt"],
    [{ dt: 0.1, duration: -1, events: [] }, "E_TIMELINE_RANGE /duration"],
    [{ dt: 0.1, events: [] }, "E_MISSING_KEY "],
  ];
  for (const [json, expected] of rows) {
    const r = parseTimeline(parseJsonText(JSON.stringify(json), "t.json"), graph);
    const got = r.diagnostics.map((d) => `${d.code} ${d.pointer}`);
    assert.ok(got.includes(expected), `${expected}: got ${got.join(", ")}`);
    assert.equal(r.timeline, undefined, expected);
  }
  const ok = parseTimeline(parseJsonText(JSON.stringify({ dt: "1/60", duration: 1, events: [{ t: 0.5, trigger: "jump" }, { t: 0.25, set: { speed: 1 } }, { t: 3, trigger: "punch" }] }), "t.json"), graph);
  assert.equal(ok.timeline!.dt, 1 / 60);
  assert.deepEqual(ok.timeline!.commands.map((c) => c.t), [0.25, 0.5, 3]);
  assert.deepEqual(ok.diagnostics.map((d) => `${d.severity} ${d.code}`), ["warning W_TIMELINE_AFTER_END"]);
});
