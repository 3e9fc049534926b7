// Issue 10: a file may only read what it is given, nothing hangs or grows without bound, the user's
// files are never destroyed, and bad input never reaches exit 3. One regression test per reported item.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { unpackGlb } from "../io/gltf/gltf-fixtures.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";
import { cpuClock } from "../helpers/cpu-clock.ts";

// These bounds (CPU time, test/helpers/cpu-clock.ts) tell "refused at once" from a hang or a quadratic
// blow-up (minutes), not fast from slow: speed is measured in the bench.
const NO_HANG_MS = 30_000;

const ROBOT = repoPath("examples/robot/RobotExpressive.glb");
const BIN = repoPath("bin/animgraph.js");
const DIAGNOSTIC_LINE = /^.+: (.+: )?(warning: |info: )?.+ \[[EWI]_[A-Z0-9_]+\]$/;

async function run(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd });
  return { code, stdout, stderr };
}

function dir(): string {
  return mkdtempSync(join(tmpdir(), "animgraph-hostile-"));
}

/** RobotExpressive as robot.gltf + robot.bin in a folder of its own, with `edit` applied to the JSON. */
function robotGltf(folder: string, edit: (json: Record<string, unknown> & { buffers: { uri?: string }[] }) => void = () => {}): string {
  const u = unpackGlb(new Uint8Array(readFileSync(ROBOT)));
  u.json.buffers[0].uri = "robot.bin";
  edit(u.json);
  writeFileSync(join(folder, "robot.bin"), u.bin);
  writeFileSync(join(folder, "robot.gltf"), JSON.stringify(u.json));
  return join(folder, "robot.gltf");
}

/** Exit 2 with the code; every stderr line a diagnostic (lint prints its findings on stdout). */
function assertUnusable(r: { code: number; stdout: string; stderr: string }, code: string, what: string): void {
  assert.equal(r.code, 2, `${what}: exit ${r.code}\n${r.stderr}${r.stdout}`);
  assert.ok(`${r.stderr}${r.stdout}`.includes(`[${code}]`), `${what}: no ${code} in\n${r.stderr}${r.stdout}`);
  for (const line of r.stderr.trimEnd().split("\n")) if (line !== "") assert.match(line, DIAGNOSTIC_LINE, what);
}

test("a .gltf buffer or image URI outside its folder is E_GLTF_URI with the pointer; nothing is read or copied", async () => {
  const d = dir();
  const sub = join(d, "model");
  mkdirSync(sub);
  writeFileSync(join(d, "secret.bin"), "TOP SECRET BYTES");
  symlinkSync(join(d, "secret.bin"), join(sub, "link.bin"));
  mkdirSync(join(sub, "folder.bin"));
  const cases: [string, (j: { buffers: { uri?: string }[]; images?: unknown[] }) => void, string][] = [
    ["../../../../etc/passwd", (j) => void (j.buffers[0]!.uri = "../../../../etc/passwd"), "/buffers/0/uri"],
    ["absolute", (j) => void (j.buffers[0]!.uri = "/etc/passwd"), "/buffers/0/uri"],
    ["percent-encoded ..", (j) => void (j.buffers[0]!.uri = "%2e%2e/secret.bin"), "/buffers/0/uri"],
    ["file: scheme", (j) => void (j.buffers[0]!.uri = "file:///etc/passwd"), "/buffers/0/uri"],
    ["a symbolic link out", (j) => void (j.buffers[0]!.uri = "link.bin"), "/buffers/0/uri"],
    ["a directory", (j) => void (j.buffers[0]!.uri = "folder.bin"), "/buffers/0/uri"],
    ["/dev/zero", (j) => void (j.buffers[0]!.uri = "/dev/zero"), "/buffers/0/uri"],
    ["an image URI", (j) => void (j.images = [{ uri: "../secret.bin" }]), "/images/0/uri"],
  ];
  for (const [what, edit, pointer] of cases) {
    const path = robotGltf(sub, edit);
    const inspect = await run(["inspect", path], d);
    assertUnusable(inspect, "E_GLTF_URI", `inspect, ${what}`);
    assert.ok(inspect.stderr.includes(`${pointer}: `), `${what}: ${inspect.stderr}`);
    assert.ok(!inspect.stdout.includes("SECRET") && !inspect.stderr.includes("SECRET"));
    const out = join(d, "out.glb");
    const retarget = await run(["retarget", ROBOT, "--clip", "Walking", "--to", path, "--out", out], d);
    assertUnusable(retarget, "E_GLTF_URI", `retarget, ${what}`);
    assert.equal(existsSync(out), false, `${what}: an output was written`);
  }
  // A fine .gltf with its .bin beside it (and data: URIs) still loads.
  const ok = await run(["inspect", robotGltf(sub)], d);
  assert.equal(ok.code, 0, ok.stderr);
});

test("special files as inputs: /dev/zero and a FIFO are refused at once, never read without bound or waited on", { skip: process.platform === "win32" }, async () => {
  const d = dir();
  symlinkSync("/dev/zero", join(d, "zero.json"));
  symlinkSync("/dev/zero", join(d, "zero.glb"));
  symlinkSync("/dev/zero", join(d, "zero.bvh"));
  assert.equal(spawnSync("mkfifo", [join(d, "fifo.json")]).status, 0);
  const cpuMs = cpuClock();
  for (const argv of [
    ["blend-check", "zero.json"], ["lint", "zero.json"], ["inspect", "zero.glb"], ["compress", "zero.bvh", "--tolerance", "1mm", "--out", "o.agc"],
    ["blend-check", "fifo.json"], ["lint", "fifo.json"], ["map", "zero.bvh", ROBOT],
  ]) {
    const r = await run(argv, d);
    assertUnusable(r, "E_FILE_READ", argv.join(" "));
    assert.match(`${r.stderr}${r.stdout}`, /not a regular file/);
  }
  assert.ok(cpuMs() < NO_HANG_MS, `took ${Math.round(cpuMs())} ms of CPU`);
});

test("the GLB padding trim is linear: megabytes of whitespace load (or fail) at once", async () => {
  const spaces = new Uint8Array(8 << 20).fill(0x20);
  spaces[spaces.length - 1] = 0x78; // not whitespace at the very end: a backtracking /[\0\s]+$/ goes quadratic
  const cpuMs = cpuClock();
  const r = await loadGltfFile(spaces, { fileName: "spaces.gltf" });
  assert.ok(cpuMs() < NO_HANG_MS, `took ${Math.round(cpuMs())} ms of CPU`);
  assert.equal(r.diagnostics[0]!.code, "E_GLTF_READ");
});

test("run: the number of steps is bounded (E_TIMELINE_LIMIT), dt has a strict grammar, trigger [] is refused", async () => {
  const d = dir();
  const spec = repoPath("examples/robot/robot.animgraph.json");
  const script = (tl: unknown): string => {
    const p = join(d, `t${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(p, JSON.stringify(tl));
    return p;
  };
  const base = ["run", spec, "--clips", ROBOT, "--script"];
  const rows: [unknown, string[], string][] = [
    [{ dt: 1e-300, duration: 1, events: [] }, [], "E_TIMELINE_LIMIT"],
    [{ dt: "1e-9", duration: 1, events: [] }, [], "E_TIMELINE_LIMIT"],
    [{ dt: "1/30", duration: 86400, events: [] }, [], "E_TIMELINE_LIMIT"],
    [{ dt: "1/30", duration: 1, events: [] }, ["--dt", "1/1000000000"], "E_TIMELINE_LIMIT"],
    [{ dt: "0x10", duration: 1, events: [] }, [], "E_TIMELINE_DT"],
    [{ dt: "Infinity", duration: 1, events: [] }, [], "E_TIMELINE_DT"],
    [{ dt: "1/30", duration: 1, events: [{ t: 0, trigger: [] }] }, [], "E_TIMELINE_ACTION"],
  ];
  for (const [tl, extra, code] of rows) {
    const cpuMs = cpuClock();
    const r = await run([...base, script(tl), ...extra], d);
    assertUnusable(r, code, JSON.stringify(tl));
    assert.equal(r.stdout, "");
    assert.ok(cpuMs() < NO_HANG_MS, `took ${Math.round(cpuMs())} ms of CPU`);
  }
});

test("run | head -1: a closed stdout ends the command quietly (no EPIPE stack trace)", async () => {
  const child = spawn(process.execPath, [BIN, "run", repoPath("examples/robot/robot.animgraph.json"), "--clips", ROBOT, "--script", repoPath("examples/robot/walk-run-jump.timeline.json")], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b) => void (stderr += b));
  const first = await new Promise<string>((resolve) => child.stdout.once("data", (b: Buffer) => resolve(b.toString())));
  child.stdout.destroy();
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.match(first, /^t=0\.000/);
  assert.equal(stderr, "");
  assert.equal(code, 0);
});

test("compress: a 4,000-joint BVH finishes in seconds; 30,000 frames is E_COMPRESS_LIMIT at once", async () => {
  const d = dir();
  const bvh = (joints: number, frames: number): string => {
    const lines = ["HIERARCHY", "ROOT Hips", "{", "OFFSET 0 0 0", "CHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation"];
    for (let j = 1; j < joints; j++) lines.push(`JOINT J${j}`, "{", "OFFSET 0 1 0", "CHANNELS 3 Zrotation Yrotation Xrotation", "End Site", "{", "OFFSET 0 1 0", "}", "}");
    lines.push("}", "MOTION", `Frames: ${frames}`, "Frame Time: 0.0083333");
    const row = (f: number): string => [f * 0.01, 0, 0, 0, 0, 0, ...Array.from({ length: 3 * (joints - 1) }, (_, k) => Math.round(1000 * Math.sin(f * 0.05 + k)) / 100)].join(" ");
    for (let f = 0; f < frames; f++) lines.push(row(f));
    return lines.join("\n");
  };
  writeFileSync(join(d, "wide.bvh"), bvh(4000, 24));
  let cpuMs = cpuClock();
  const wide = await run(["compress", "wide.bvh", "--tolerance", "0.1mm", "--out", "wide.agc"], d);
  const wideMs = cpuMs();
  assert.ok(wide.code === 0 || wide.code === 1, wide.stderr);
  assert.ok(wideMs < 30_000, `${wideMs} ms`);
  writeFileSync(join(d, "long.bvh"), bvh(31, 30_000));
  cpuMs = cpuClock();
  const long = await run(["compress", "long.bvh", "--tolerance", "0.1mm", "--out", "long.agc"], d);
  assertUnusable(long, "E_COMPRESS_LIMIT", "30,000 frames");
  assert.ok(cpuMs() < NO_HANG_MS * 2, `took ${Math.round(cpuMs())} ms of CPU`);
  assert.equal(existsSync(join(d, "long.agc")), false);
});

test("blend-check: an 8-million-digit integer and 500,000 query points are refused at once", async () => {
  const d = dir();
  const spec = JSON.parse(readFileSync(repoPath("examples/stardust-inn/ta09_blend.json"), "utf8"));
  writeFileSync(join(d, "digits.json"), JSON.stringify(spec).replace('"min":0', `"min":${"9".repeat(8_000_000)}`).replace('"min": 0', `"min": ${"9".repeat(8_000_000)}`));
  let cpuMs = cpuClock();
  assertUnusable(await run(["blend-check", "digits.json"], d), "E_JSON_NUMBER_TOO_LONG", "8M digits");
  assert.ok(cpuMs() < NO_HANG_MS, `took ${Math.round(cpuMs())} ms of CPU`);
  spec.queryPoints = Array.from({ length: 500_000 }, () => ({ speed: 1, lean: 0 }));
  writeFileSync(join(d, "queries.json"), JSON.stringify(spec));
  cpuMs = cpuClock();
  assertUnusable(await run(["blend-check", "queries.json"], d), "E_JSON_TOO_LARGE", "500k queries");
  assert.ok(cpuMs() < NO_HANG_MS, `took ${Math.round(cpuMs())} ms of CPU`);
  spec.queryPoints = Array.from({ length: 20_000 }, () => ({ speed: 1, lean: 0 }));
  writeFileSync(join(d, "queries.json"), JSON.stringify(spec));
  assertUnusable(await run(["blend-check", "queries.json"], d), "E_SPEC_LIMIT", "20k queries");
});

test("--out naming an input (same inode: another spelling, a symlink, a hard link) is refused and the input is untouched", async () => {
  const d = dir();
  const bvh = sharedAsset("bvh-cmu-131/131_01.bvh");
  const spec = join(d, "spec.json");
  writeFileSync(spec, readFileSync(repoPath("examples/stardust-inn/ta09_blend.json")));
  const map = join(d, "map.json");
  writeFileSync(map, JSON.stringify({ bones: {} }));
  const robot = join(d, "robot.glb");
  writeFileSync(robot, readFileSync(ROBOT));
  symlinkSync(robot, join(d, "alias.glb"));
  linkSync(spec, join(d, "hard.json"));
  const before = [spec, map, robot].map((p) => readFileSync(p));
  const rows: string[][] = [
    ["blend-check", "spec.json", "--out", "spec.json"],
    ["blend-check", "spec.json", "--out", "./hard.json"],
    ["retarget", ROBOT, "--clip", "Walking", "--to", "robot.glb", "--out", "robot.glb"],
    ["retarget", ROBOT, "--clip", "Walking", "--to", "robot.glb", "--out", "alias.glb"],
    ["retarget", ROBOT, "--clip", "Walking", "--to", "robot.glb", "--map", "map.json", "--out", "map.json"],
    ["compress", "robot.glb", "--tolerance", "1mm", "--out", "alias.glb"],
  ];
  if (HAVE_SHARED_ASSETS) rows.push(["retarget", bvh, "--to", "robot.glb", "--out", bvh]);
  for (const argv of rows) assertUnusable(await run(argv, d), "E_OUT_IS_INPUT", argv.join(" "));
  assert.deepEqual([spec, map, robot].map((p) => readFileSync(p)), before);
  // Not a regular file as --out.
  assertUnusable(await run(["blend-check", "spec.json", "--out", "/dev/null"], d), "E_FILE_WRITE", "--out /dev/null");
});

test("retarget write failures are E_FILE_WRITE (exit 2), never exit 3; a two-buffer .gltf target is written", async () => {
  const d = dir();
  const args = (out: string): string[] => ["retarget", ROBOT, "--clip", "Walking", "--to", ROBOT, "--out", out];
  assertUnusable(await run(args(join(d, "no", "such", "folder.glb")), d), "E_FILE_WRITE", "missing folder");
  mkdirSync(join(d, "folder.glb"));
  assertUnusable(await run(args("folder.glb"), d), "E_FILE_WRITE", "a folder as --out");
  assertUnusable(await run(args(""), d), "E_FILE_WRITE", "empty --out");
  if (process.getuid?.() !== 0) {
    mkdirSync(join(d, "ro"));
    chmodSync(join(d, "ro"), 0o555);
    assertUnusable(await run(args(join("ro", "x.glb")), d), "E_FILE_WRITE", "read-only folder");
  }
  // Two buffers: the robot's BIN split in two .bin files (the second holding nothing the first needs).
  const split = join(d, "split");
  mkdirSync(split);
  const target = robotGltf(split, (j) => {
    (j.buffers as unknown[]).push({ uri: "extra.bin", byteLength: 4 });
    (j["bufferViews"] as unknown[]).push({ buffer: 1, byteLength: 4 });
  });
  writeFileSync(join(split, "extra.bin"), new Uint8Array(4));
  const r = await run(["retarget", ROBOT, "--clip", "Walking", "--to", target, "--out", "two.glb"], d);
  assert.ok(r.code === 0 || r.code === 1, `${r.code}\n${r.stderr}`);
  assert.ok(statSync(join(d, "two.glb")).size > 1000);
  assert.equal((await loadGltfFile(join(d, "two.glb"))).ok, true);
});

test("JSON nested 10,000 deep is E_JSON_TOO_DEEP in every reader (blend-check, lint, run spec and script, retarget --map)", async () => {
  const d = dir();
  writeFileSync(join(d, "deep.json"), `${"[".repeat(10_000)}${"]".repeat(10_000)}`);
  writeFileSync(join(d, "deepobj.json"), `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`);
  for (const file of ["deep.json", "deepobj.json"]) {
    for (const argv of [
      ["blend-check", file], ["lint", file],
      ["run", file, "--clips", ROBOT, "--script", repoPath("examples/robot/walk-run-jump.timeline.json")],
      ["run", repoPath("examples/robot/robot.animgraph.json"), "--clips", ROBOT, "--script", file],
      ["retarget", ROBOT, "--clip", "Walking", "--to", ROBOT, "--map", file, "--out", "o.glb"],
    ]) {
      const r = await run(argv, d);
      assertUnusable(r, "E_JSON_TOO_DEEP", argv.join(" "));
    }
  }
  // The glTF JSON too.
  const u = unpackGlb(new Uint8Array(readFileSync(ROBOT)));
  u.json.extras = JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`);
  const text = JSON.stringify(u.json).replace(/"extras":\[.*?\]+/, `"extras":${"[".repeat(10_000)}${"]".repeat(10_000)}`);
  writeFileSync(join(d, "deep.gltf"), text.replace('"buffers":[{', '"buffers":[{"uri":"robot.bin",'));
  writeFileSync(join(d, "robot.bin"), u.bin);
  assertUnusable(await run(["inspect", "deep.gltf"], d), "E_JSON_TOO_DEEP", "deep glTF");
});

test("200,000 findings print at most 200 lines per file and a count; a 30,000-joint chain inspects", async () => {
  const d = dir();
  const channels = Array.from({ length: 200_000 }, () => ({ sampler: 99, target: { node: 0, path: "rotation" } }));
  const gltf = { asset: { version: "2.0" }, nodes: [{ name: "root" }], animations: [{ samplers: [], channels }] };
  writeFileSync(join(d, "many.gltf"), JSON.stringify(gltf));
  const many = await run(["inspect", "many.gltf"], d);
  assert.equal(many.code, 2);
  const lines = many.stderr.trimEnd().split("\n");
  assert.ok(lines.length <= 201, `${lines.length} lines`);
  assert.match(lines.at(-1)!, /199800 more findings not shown.*\[I_MORE_FINDINGS\]$/);
  // A chain of 30,000 joints (no skin: all nodes form the skeleton).
  const nodes = Array.from({ length: 30_000 }, (_, i) => (i + 1 < 30_000 ? { name: `j${i}`, children: [i + 1], translation: [0, 1, 0] } : { name: `j${i}` }));
  writeFileSync(join(d, "chain.gltf"), JSON.stringify({ asset: { version: "2.0" }, scenes: [{ nodes: [0] }], nodes }));
  const chain = await run(["inspect", "chain.gltf"], d);
  assert.ok(chain.code === 0 || chain.code === 1, chain.stderr.slice(0, 500));
  assert.ok(chain.stdout.length < 10_000_000, `${chain.stdout.length} bytes of output`);
  assert.match(chain.stdout, /\[depth 29999\] j29999/);
});

test("numbers out of range never reach a file: rootMotionScale 1e308, --units-per-metre 1e-320, --virtual-vertex 1e308m", async () => {
  const d = dir();
  writeFileSync(join(d, "map.json"), JSON.stringify({ bones: { Hips: "Hips" }, rootMotionScale: 1e308 }));
  const r = await run(["retarget", ROBOT, "--clip", "Walking", "--to", ROBOT, "--map", "map.json", "--out", "o.glb"], d);
  assertUnusable(r, "E_OUT_OF_RANGE", "rootMotionScale 1e308");
  assert.ok(r.stderr.includes("/rootMotionScale"));
  for (const extra of [["--units-per-metre", "1e-320"], ["--virtual-vertex", "1e308m"], ["--tolerance", "1e308m"]]) {
    const c = await run(["compress", ROBOT, "--tolerance", "0.1mm", "--out", "o.agc", ...extra], d);
    assert.equal(c.code, 2, extra.join(" "));
  }
  assert.equal(existsSync(join(d, "o.glb")) || existsSync(join(d, "o.agc")), false);
});

test("a sparse accessor index out of range is E_GLTF_RANGE", async () => {
  const u = unpackGlb(new Uint8Array(readFileSync(ROBOT)));
  const acc = u.json.accessors.findIndex((a: { type: string; componentType: number }) => a.type === "VEC3" && a.componentType === 5126);
  // Sparse: 1 index (uint16, read from the first 2 bytes of view 0) into accessor `acc`.
  u.json.bufferViews.push({ buffer: 0, byteOffset: 0, byteLength: 2 }, { buffer: 0, byteOffset: 0, byteLength: 12 });
  const views = u.json.bufferViews.length;
  u.json.accessors[acc].sparse = { count: 1, indices: { bufferView: views - 2, componentType: 5123 }, values: { bufferView: views - 1 } };
  const count = u.json.accessors[acc].count;
  const bin = u.bin.slice();
  new DataView(bin.buffer).setUint16(0, 65535, true);
  assert.ok(count < 65535);
  const { packGlb } = await import("../io/gltf/gltf-fixtures.ts");
  const r = await loadGltfFile(packGlb({ json: u.json, bin }), { fileName: "sparse.glb" });
  const found = r.diagnostics.find((x) => x.code === "E_GLTF_RANGE");
  assert.equal(found?.pointer, `/accessors/${acc}/sparse/indices`, JSON.stringify(r.diagnostics.slice(0, 3)));
});

test("a name holding a newline cannot forge a diagnostic line: control characters are escaped, long values cut", async () => {
  const d = dir();
  const spec = {
    animgraph: 1, name: "x", parameters: {},
    layers: [{ name: "base", machine: { entry: "A", states: { A: { clip: "Nope\nforged.json: /x: pwned [E_FAKE]" } }, transitions: [] } }],
  };
  writeFileSync(join(d, "s.json"), JSON.stringify(spec));
  const r = await run(["lint", "s.json", "--clips", ROBOT], d);
  assert.equal(r.code, 1);
  assert.ok(!r.stdout.split("\n").some((l) => l.startsWith("forged.json")), r.stdout);
  assert.match(r.stdout, /Nope\\nforged\.json/);
  const long = await run(["lint", "s.json", "--clips", ROBOT], d);
  for (const line of long.stdout.split("\n")) assert.ok(line.length < 1200);
});

test("map gives the loader's verdict: a BVH that retarget calls unusable is exit 2 for map too", async () => {
  const d = dir();
  const text = readFileSync(repoPath("test/golden/demo-seed.txt"), "utf8").length > 0
    ? "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 2\nFrame Time: 0.0333\n0 0 0 0 0 0\n0 0 0 nan 0 0\n"
    : "";
  writeFileSync(join(d, "bad.bvh"), text);
  const map = await run(["map", "bad.bvh", ROBOT], d);
  const retarget = await run(["retarget", "bad.bvh", "--to", ROBOT, "--out", "o.glb"], d);
  assert.equal(retarget.code, 2, retarget.stderr);
  assert.equal(map.code, 2, map.stderr);
  assert.equal(map.stdout, "");
});
