// The checker on clean graphs: the bundled examples and the seed demo's machine give no finding, and
// the two the issue times (the seed demo's machine and the robot graph) are checked in under 2 s of
// CPU time (CPU, not wall time: other processes on a loaded machine do not count against it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkGraph, type CheckReport } from "../../src/check/check-graph.ts";
import { compileSeedDemo, seedDemoSpec } from "../../src/demo/seed-demo.ts";
import { standInClips } from "../../src/demo/stand-in-clips.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { readGraphSpec } from "../../src/spec/read-graph-spec-file.ts";
import { repoPath } from "../helpers/assets.ts";

function noFindings(r: CheckReport): void {
  const shown = r.findings.filter((f) => f.severity !== "info");
  assert.deepEqual(shown.map((f) => `${f.code} ${f.pointer}: ${f.message}`), []);
  assert.ok(r.exploration.complete, `complete: ${r.exploration.limits.join("; ")}`);
}

function cpuSeconds<T>(fn: () => T): { value: T; cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1e6, wall: (performance.now() - w0) / 1000 };
}

async function loadExample(spec: string, glb: string): Promise<Parameters<typeof checkGraph>> {
  const s = readGraphSpec(repoPath(spec));
  const loaded = await loadGltfFile(repoPath(glb));
  const skeleton = loaded.skeletons[0]!;
  const compiled = compileGraph(s.spec!, skeleton, loaded.clips.filter((c) => c.skeleton === skeleton));
  return [s.spec!, compiled.graph!];
}

test("the seed demo's machine: no findings, under 2 s", () => {
  const { value, cpu, wall } = cpuSeconds(() => checkGraph(seedDemoSpec(), compileSeedDemo()));
  noFindings(value);
  console.log(`seed demo: ${value.exploration.configurations} configurations, ${value.exploration.steps} steps, ${cpu.toFixed(3)} s CPU, ${wall.toFixed(3)} s wall`);
  assert.ok(cpu < 2, `checked in ${cpu.toFixed(2)} s of CPU time`);
});

test("the robot graph with its real clips: no findings, under 2 s", async () => {
  const args = await loadExample("examples/robot/robot.animgraph.json", "examples/robot/RobotExpressive.glb");
  const { value, cpu, wall } = cpuSeconds(() => checkGraph(...args));
  noFindings(value);
  assert.equal(value.exploration.groups, 2, "the emote layer shares no trigger with the base layer");
  console.log(`robot: ${value.exploration.configurations} configurations, ${value.exploration.steps} steps, ${cpu.toFixed(3)} s CPU, ${wall.toFixed(3)} s wall`);
  assert.ok(cpu < 2, `checked in ${cpu.toFixed(2)} s of CPU time`);
});

test("the fox graph with its real clips and the innkeeper with stand-ins: no findings", async () => {
  noFindings(checkGraph(...(await loadExample("examples/fox/fox.animgraph.json", "examples/fox/Fox.glb"))));
  const s = readGraphSpec(repoPath("examples/stardust-inn/innkeeper.animgraph.json"));
  const { skeleton, clips } = standInClips(s.spec!);
  const r = checkGraph(s.spec!, compileGraph(s.spec!, skeleton, clips).graph!, { clipLengthsKnown: false });
  noFindings(r);
  assert.ok(r.findings.some((f) => f.code === "I_CHECK_CLIP_LENGTHS"), "says that clip lengths were not known");
});
