// Issue 10's fuzz test: every command on mutated copies of the real assets. Each run must exit 0, 1 or
// 2; on 2 print at least one `file: pointer: message [CODE]` line and write no output file; leave its
// inputs byte-identical; and finish within 10 s (and, for the runs in a child process, 1 GB).
// Seeded and bounded: ANIMGRAPH_FUZZ_RUNS (default 48) and ANIMGRAPH_FUZZ_SEED replay or soak it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";
import { mulberry32 } from "../helpers/seeded-random.ts";
import { cpuClock } from "../helpers/cpu-clock.ts";

const RUNS = Number(process.env["ANIMGRAPH_FUZZ_RUNS"] ?? 48);
const SEED = Number(process.env["ANIMGRAPH_FUZZ_SEED"] ?? 20261203);
const DIAGNOSTIC_LINE = /^.+: (.+: )?(warning: |info: )?.+ \[[EWI]_[A-Z0-9_]+\]$/m;

const rng = mulberry32;

const EXTREMES = ["1e308", "-1e308", "1e-320", "0", "-0", "NaN", "Infinity", "99999999999999999999", "-1", "0.5", '"x"', "null", "[]", "{}", "true", "1e9"];

/** One random mutation of `bytes`: byte flips, a cut, a spliced copy, a number or token replaced. */
function mutate(bytes: Uint8Array, r: () => number, text: boolean): Uint8Array {
  const pick = (n: number): number => Math.floor(r() * n);
  const kind = pick(text ? 6 : 4);
  const out = Array.from(bytes);
  switch (kind) {
    case 0: // flip a few bytes
      for (let i = 0, n = 1 + pick(8); i < n; i++) out[pick(out.length)] = pick(256);
      break;
    case 1: // cut
      out.length = pick(out.length);
      break;
    case 2: { // splice a copy of a slice somewhere else
      const a = pick(out.length), len = Math.min(pick(4096), out.length - a);
      out.splice(pick(out.length), 0, ...out.slice(a, a + len));
      break;
    }
    case 3: // overwrite 4 bytes with an extreme little-endian value (float or int)
    {
      const at = pick(Math.max(1, out.length - 4));
      const dv = new DataView(new ArrayBuffer(4));
      const v = [NaN, Infinity, -Infinity, 3.4e38, 1e-45, 0xffffffff, 0x7fffffff][pick(7)]!;
      if (Number.isInteger(v)) dv.setUint32(0, v >>> 0, true); else dv.setFloat32(0, v, true);
      for (let k = 0; k < 4; k++) out[at + k] = dv.getUint8(k);
      break;
    }
    case 4: { // replace a number in text with an extreme token
      const s = new TextDecoder().decode(bytes);
      const numbers = [...s.matchAll(/-?\d+(\.\d+)?(e-?\d+)?/g)];
      if (numbers.length === 0) break;
      const m = numbers[pick(numbers.length)]!;
      return new TextEncoder().encode(s.slice(0, m.index) + EXTREMES[pick(EXTREMES.length)] + s.slice(m.index! + m[0].length));
    }
    case 5: { // insert structure noise into text
      const s = new TextDecoder().decode(bytes);
      const at = pick(s.length);
      const noise = ["[".repeat(1 + pick(200)), "}", '"', "\n", "\\u0000", ",", '"\\n[E_FAKE]"', "\u2028"][pick(8)]!;
      return new TextEncoder().encode(s.slice(0, at) + noise + s.slice(at));
    }
  }
  return Uint8Array.from(out);
}

interface Scenario {
  readonly name: string;
  /** Input files (name in the work folder → original bytes); the first is the one mutated. */
  readonly inputs: Record<string, Uint8Array>;
  readonly text: boolean;
  readonly argv: string[];
  readonly out?: string;
}

function scenarios(): Scenario[] {
  const read = (p: string): Uint8Array => new Uint8Array(readFileSync(p));
  const robot = read(repoPath("examples/robot/RobotExpressive.glb"));
  const spec = read(repoPath("examples/robot/robot.animgraph.json"));
  const timeline = read(repoPath("examples/robot/walk-run-jump.timeline.json"));
  const blend = read(repoPath("examples/stardust-inn/ta09_blend.json"));
  // A short BVH (the first 60 frames of CMU 131_01) keeps compress and retarget fast.
  const bvhText = HAVE_SHARED_ASSETS ? readFileSync(sharedAsset("bvh-cmu-131/131_01.bvh"), "utf8") : undefined;
  const bvh = bvhText === undefined ? undefined : (() => {
    const lines = bvhText.split(/\r?\n/);
    const m = lines.findIndex((l) => l.startsWith("Frames:"));
    lines[m] = "Frames: 60";
    return new TextEncoder().encode(lines.slice(0, m + 2 + 60).join("\n"));
  })();
  const map = new TextEncoder().encode(JSON.stringify({ bones: { Hips: "Hips", LeftHip: "UpperLeg.L", RightHip: "UpperLeg.R" }, auto: true, rootMotionScale: 0.5 }));
  const list: Scenario[] = [
    { name: "inspect glb", inputs: { "a.glb": robot }, text: false, argv: ["inspect", "a.glb"] },
    { name: "inspect --json glb", inputs: { "a.glb": robot }, text: false, argv: ["inspect", "a.glb", "--json"] },
    { name: "lint spec", inputs: { "s.json": spec, "a.glb": robot }, text: true, argv: ["lint", "s.json", "--clips", "a.glb"] },
    { name: "lint --clips glb", inputs: { "a.glb": robot, "s.json": spec }, text: false, argv: ["lint", "s.json", "--clips", "a.glb", "--format", "sarif"] },
    { name: "run timeline", inputs: { "t.json": timeline, "s.json": spec, "a.glb": robot }, text: true, argv: ["run", "s.json", "--clips", "a.glb", "--script", "t.json", "--dt", "1/10"] },
    { name: "run spec", inputs: { "s.json": spec, "t.json": timeline, "a.glb": robot }, text: true, argv: ["run", "s.json", "--clips", "a.glb", "--script", "t.json", "--json", "--dt", "1/10"] },
    { name: "run glb", inputs: { "a.glb": robot, "s.json": spec, "t.json": timeline }, text: false, argv: ["run", "s.json", "--clips", "a.glb", "--script", "t.json", "--dt", "1/10"] },
    { name: "blend-check", inputs: { "b.json": blend }, text: true, argv: ["blend-check", "b.json", "--out", "o.json"], out: "o.json" },
    { name: "compress glb", inputs: { "a.glb": robot }, text: false, argv: ["compress", "a.glb", "--tolerance", "1mm", "--clip", "Wave", "--out", "o.agc"], out: "o.agc" },
  ];
  if (bvh) {
    list.push(
      { name: "compress bvh", inputs: { "m.bvh": bvh }, text: true, argv: ["compress", "m.bvh", "--tolerance", "0.5mm", "--out", "o.agc"], out: "o.agc" },
      { name: "map bvh", inputs: { "m.bvh": bvh, "a.glb": robot }, text: true, argv: ["map", "m.bvh", "a.glb", "--json"] },
      { name: "retarget bvh", inputs: { "m.bvh": bvh, "a.glb": robot }, text: true, argv: ["retarget", "m.bvh", "--to", "a.glb", "--out", "o.glb"], out: "o.glb" },
      { name: "retarget target", inputs: { "a.glb": robot, "m.bvh": bvh }, text: false, argv: ["retarget", "m.bvh", "--to", "a.glb", "--out", "o.glb"], out: "o.glb" },
      { name: "retarget map", inputs: { "map.json": map, "m.bvh": bvh, "a.glb": robot }, text: true, argv: ["retarget", "m.bvh", "--to", "a.glb", "--map", "map.json", "--out", "o.glb"], out: "o.glb" },
    );
  }
  return list;
}

const digest = (b: Uint8Array): string => createHash("sha256").update(b).digest("hex");

function check(s: Scenario, folder: string, code: number, stdout: string, stderr: string, before: Record<string, string>, label: string): void {
  assert.ok(code === 0 || code === 1 || code === 2, `${label}: exit ${code}\n${stderr.slice(0, 2000)}`);
  if (code === 2) {
    if (s.argv.includes("sarif")) {
      const sarif = JSON.parse(stdout) as { runs: { results: { ruleId: string; level: string }[] }[] };
      assert.ok(sarif.runs[0]!.results.some((x) => /^E_/.test(x.ruleId) && x.level === "error"), `${label}: exit 2 without an error result`);
    } else {
      assert.match(`${stderr}\n${stdout}`, DIAGNOSTIC_LINE, `${label}: exit 2 without a diagnostic line\n${stderr.slice(0, 2000)}`);
    }
    if (s.out) assert.equal(existsSync(join(folder, s.out)), false, `${label}: exit 2 but ${s.out} was written`);
  }
  for (const [name, hash] of Object.entries(before)) {
    assert.equal(digest(readFileSync(join(folder, name))), hash, `${label}: input ${name} changed`);
  }
}

test(`every command on mutated real assets: exit 0/1/2, a diagnostic on 2, no output on 2, inputs intact, < 10 s (${RUNS} runs, seed ${SEED})`, { timeout: 600_000 }, async () => {
  const all = scenarios();
  const r = rng(SEED);
  const folder = mkdtempSync(join(tmpdir(), "animgraph-fuzz-"));
  let slowest = 0;
  for (let k = 0; k < RUNS; k++) {
    const s = all[k % all.length]!;
    const [first, ...rest] = Object.keys(s.inputs);
    const mutated = mutate(s.inputs[first!]!, r, s.text);
    const before: Record<string, string> = {};
    writeFileSync(join(folder, first!), mutated);
    before[first!] = digest(mutated);
    for (const name of rest) {
      writeFileSync(join(folder, name), s.inputs[name]!);
      before[name] = digest(s.inputs[name]!);
    }
    if (s.out) rmSync(join(folder, s.out), { force: true });
    let stdout = "";
    let stderr = "";
    const cpuMs = cpuClock();
    const code = await main(s.argv, { stdout: (x) => void (stdout += x), stderr: (x) => void (stderr += x), cwd: folder });
    const ms = cpuMs();
    slowest = Math.max(slowest, ms);
    const label = `run ${k} (${s.name}, seed ${SEED})`;
    assert.ok(ms < 10_000, `${label}: ${Math.round(ms)} ms`);
    check(s, folder, code, stdout, stderr, before, label);
  }
  console.log(`fuzz: ${RUNS} runs over ${all.length} scenarios, slowest ${Math.round(slowest)} ms of CPU`);
});

test("a few mutated inputs in a child process: exit 0/1/2 within 10 s and a 1 GB heap", { timeout: 300_000 }, () => {
  const all = scenarios();
  const r = rng(SEED + 1);
  const folder = mkdtempSync(join(tmpdir(), "animgraph-fuzz-child-"));
  for (let k = 0; k < Math.min(6, all.length); k++) {
    const s = all[(k * 5) % all.length]!;
    const [first, ...rest] = Object.keys(s.inputs);
    const mutated = mutate(s.inputs[first!]!, r, s.text);
    const before: Record<string, string> = { [first!]: digest(mutated) };
    writeFileSync(join(folder, first!), mutated);
    for (const name of rest) {
      writeFileSync(join(folder, name), s.inputs[name]!);
      before[name] = digest(s.inputs[name]!);
    }
    if (s.out) rmSync(join(folder, s.out), { force: true });
    const res = spawnSync(process.execPath, ["--max-old-space-size=1024", repoPath("bin/animgraph.js"), ...s.argv], { cwd: folder, timeout: 10_000, encoding: "utf8" });
    const label = `child ${k} (${s.name})`;
    assert.equal(res.error, undefined, `${label}: ${String(res.error)}`);
    check(s, folder, res.status ?? -1, res.stdout, res.stderr, before, label);
    assert.ok(!/\n\s+at .+:\d+:\d+\)?\n/.test(res.stderr), `${label}: a stack trace\n${res.stderr}`);
  }
});

test("mutated .agc containers: whatever loads cleanly samples finite values at any time", async () => {
  const { compressClip } = await import("../../src/compress/compress-clip.ts");
  const { readAgc, writeAgc } = await import("../../src/compress/agc-container.ts");
  const { createCompressedClipCursor, sampleCompressedClip } = await import("../../src/compress/sample-compressed-clip.ts");
  const { createPose } = await import("../../src/pose/pose.ts");
  const { loadGltfFile } = await import("../../src/io/gltf/load-gltf-file.ts");
  const robot = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const clips = robot.clips.filter((c) => c.name === "Wave" || c.name === "Yes");
  const compressed = clips.map((c) => compressClip(c, { tolerance: 1e-3 }).compressed!);
  const bytes = writeAgc(compressed, clips[0]!.skeleton);
  const r = rng(SEED + 2);
  let loaded = 0;
  const runs = Math.max(200, RUNS * 4);
  for (let k = 0; k < runs; k++) {
    const m = mutate(bytes, r, false);
    const read = readAgc(m, "m.agc");
    if (read.diagnostics.some((d) => d.severity === "error")) continue;
    loaded++;
    const pose = createPose(read.skeleton!.jointCount);
    for (const clip of read.clips) {
      const cursor = createCompressedClipCursor(clip);
      for (const t of [-1, 0, clip.duration * 0.37, clip.duration, clip.duration * 5.5, 1e9]) {
        sampleCompressedClip(pose, clip, t, cursor);
        assert.ok(pose.t.every(Number.isFinite) && pose.r.every(Number.isFinite) && pose.s.every(Number.isFinite), `mutation ${k} at t = ${t}`);
      }
    }
  }
  assert.ok(loaded > 0, "no mutation loaded cleanly (the mutator is too strong to test sampling)");
});
