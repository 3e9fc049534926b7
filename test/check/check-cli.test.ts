// `animgraph check` end to end: exit codes, text and JSON reports, a witness written out and replayed
// with `animgraph run --script` showing the fault, and properties files with errors at their line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import type { CliIo } from "../../src/cli/context.ts";
import { repoPath } from "../helpers/assets.ts";

const dir = mkdtempSync(join(tmpdir(), "animgraph-check-"));

const STUCK = {
  animgraph: 1,
  name: "stuck",
  parameters: { speed: { type: "float", default: 0, min: 0, max: 6 }, jump: { type: "trigger" } },
  layers: [{
    name: "base",
    machine: {
      entry: "Idle",
      states: { Idle: { clip: "idle" }, Walk: { clip: "walk" }, Jump: { clip: "jump", loop: "clamp" } },
      transitions: [
        { from: "*", to: "Jump", conditions: [{ param: "jump" }], duration: 0.1 },
        { from: "Idle", to: "Walk", conditions: [{ param: "speed", op: ">", value: 0.1 }], duration: 0.2 },
        { from: "Walk", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 0.1 }], duration: 0.2 },
        { from: "Jump", to: "Idle", exitTime: 0.9, conditions: [{ param: "speed", op: "<=", value: 0.1 }], duration: 0.2 },
        { from: "Jump", to: "Walk", exitTime: 0.9, conditions: [{ param: "speed", op: ">", value: 0.5 }], duration: 0.2 },
      ],
    },
  }],
};
writeFileSync(join(dir, "stuck.json"), JSON.stringify(STUCK, null, 2));
writeFileSync(join(dir, "good.prop"), "# locomotion comes back after a jump\nalways eventually Idle|Walk after jump\nnever Jump while speed > 7\n");
writeFileSync(join(dir, "bad.prop"), "never Jump while speed > 3\nalways eventualy Idle after jump\nfrom Jmp reachable Idle\nnever Jump while sped > 1\n");

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd: dir };
  const code = await main(argv, io);
  return { code, out, err };
}

test("check on the robot example with its clips: exit 0, complete, no findings", async () => {
  const r = await run("check", repoPath("examples/robot/robot.animgraph.json"), "--clips", repoPath("examples/robot/RobotExpressive.glb"));
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /explored \d+ configurations in 2 layer groups, depth \d+ \(bound 40\).*: complete/);
  assert.match(r.out, /no findings/);
});

test("a stuck state: exit 1; the JSON witness, replayed by `animgraph run`, ends in the stuck state", async () => {
  const r = await run("check", "stuck.json", "--json");
  assert.equal(r.code, 1, r.err);
  const report = JSON.parse(r.out);
  const f = report.findings.find((x: { code: string }) => x.code === "W_CHECK_STUCK_STATE");
  assert.equal(f.pointer, "/layers/0/machine/states/Jump");
  assert.equal(f.file, "stuck.json");
  assert.equal(f.line, JSON.stringify(STUCK, null, 2).split("\n").findIndex((l) => l.includes('"Jump": {')) + 1, "the finding has the line of the state in the file");
  assert.equal(f.witness.replayed, true);
  assert.equal(report.exploration.complete, true);
  assert.match(report.replayWith, /--stand-in-clips --script/);
  writeFileSync(join(dir, "witness.json"), JSON.stringify(f.witness.timeline));
  const replay = await run("run", "stuck.json", "--stand-in-clips", "--script", "witness.json", "--json");
  assert.equal(replay.code, 0, replay.err);
  const frames = JSON.parse(replay.out).frames as { layers: { state: string; fading?: unknown }[] }[];
  assert.equal(frames.length, f.witness.steps);
  const last = frames.slice(-30);
  assert.ok(last.every((fr) => fr.layers[0]!.state === "Jump"), "the last second of the run stays in Jump");
});

test("text report: each finding with its witness line, the exploration, and a replay command", async () => {
  const r = await run("check", "stuck.json", "--bound", "12");
  assert.equal(r.code, 1);
  assert.match(r.out, /stuck\.json: \/layers\/0\/machine\/states\/Jump: warning: state base\/Jump plays once/);
  assert.match(r.out, /witness \(\d+ steps at dt 1\/30; replayed: reproduced\):\n {4}\{"dt":"1\/30"/);
  assert.match(r.out, /animgraph run stuck\.json --stand-in-clips --script WITNESS\.json/);
});

test("properties: holding ones are reported as holding; a file with errors is refused at its lines (exit 2)", async () => {
  const good = await run("check", "stuck.json", "--prop", "good.prop");
  assert.match(good.out, /property line 2: VIOLATED: always eventually Idle\|Walk after jump/);
  assert.match(good.out, /property line 3: holds: never Jump while speed > 7/);
  const bad = await run("check", "stuck.json", "--prop", "bad.prop");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /bad\.prop: line 2: column 8: expected "eventually", found "eventualy" \[E_PROP_SYNTAX\]/);
  assert.match(bad.err, /bad\.prop: line 3: column 6: unknown state "Jmp" \(did you mean "Jump"\?\) \[E_PROP_UNKNOWN_STATE\]/);
  assert.match(bad.err, /bad\.prop: line 4: column 18: unknown parameter "sped" \(did you mean "speed"\?\) \[E_PROP_UNKNOWN_PARAM\]/);
  assert.doesNotMatch(bad.err, /line 1/);
});

test("unusable input: a bad bound, a missing graph, a missing properties file (exit 2, no stack trace)", async () => {
  const b = await run("check", "stuck.json", "--bound", "0");
  assert.equal(b.code, 2);
  assert.match(b.err, /--bound must be a whole number from 1 to 10000, got "0"/);
  const m = await run("check", "missing.json");
  assert.equal(m.code, 2);
  assert.match(m.err, /missing\.json: no such file \[E_FILE_NOT_FOUND\]/);
  const p = await run("check", "stuck.json", "--prop", "nope.prop");
  assert.equal(p.code, 2);
  assert.match(p.err, /nope\.prop: no such file \[E_FILE_NOT_FOUND\]/);
  for (const x of [b, m, p]) assert.doesNotMatch(x.err, /at .*\.ts:\d+/);
});

test("a configuration cap too small for the graph ends with a clear bounded report, not a hang", async () => {
  const r = await run("check", repoPath("examples/robot/robot.animgraph.json"), "--clips", repoPath("examples/robot/RobotExpressive.glb"), "--max-configurations", "20");
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /bounded \(stopped at the configuration cap: 20 configurations kept/);
  assert.match(r.out, /I_CHECK_BOUNDED/);
});

test("--witnesses writes each witness as a timeline file that `animgraph run --script` plays", async () => {
  const r = await run("check", "stuck.json", "--witnesses", "w");
  assert.equal(r.code, 1);
  const m = /wrote 1 witness: (w\/01-w-check-stuck-state\.timeline\.json)/.exec(r.out);
  assert.ok(m, r.out);
  const replay = await run("run", "stuck.json", "--stand-in-clips", "--script", m[1]!);
  assert.equal(replay.code, 0, replay.err);
  assert.match(replay.out.trim().split("\n").pop()!, /base: Jump/);
  writeFileSync(join(dir, "plain-file"), "x");
  const bad = await run("check", "stuck.json", "--witnesses", "plain-file");
  assert.equal(bad.code, 2);
  assert.match(bad.err, /plain-file: --witnesses names a file, not a folder \[E_FILE_WRITE\]/);
});
