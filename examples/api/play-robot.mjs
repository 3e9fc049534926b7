// A runnable tour of the API: load a character, compile a graph, drive it, read poses and events.
// Run it with `node examples/api/play-robot.mjs` (after `npm ci`, which builds the library).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import {
  compileGraph, createCrowd, createInstance, crowdKernelSupported, evaluateCrowd, formatDiagnostic, loadCrowdKernel, loadGltfFile,
  localToModel, parseGraphSpec, parseJsonText, setParam, step, trigger,
} from "animgraph/node";

const here = (p) => new URL(p, import.meta.url);
const character = await loadGltfFile(here("../robot/RobotExpressive.glb").pathname);
const skeleton = character.skeletons[0];

// Parse (every problem reported with its JSON pointer), then compile names into indices, once.
const doc = parseJsonText(readFileSync(here("../robot/robot.animgraph.json"), "utf8"), "robot.animgraph.json");
const parsed = parseGraphSpec(doc);
const compiled = parsed.spec && compileGraph(parsed.spec, skeleton, character.clips);
if (!compiled?.graph) {
  for (const d of [...parsed.diagnostics, ...(compiled?.diagnostics ?? [])]) console.error(formatDiagnostic(d));
  process.exit(2);
}
const graph = compiled.graph;

// Per character: plain data. Per frame: commands in, step, pose and events out (nothing allocated).
const robot = createInstance(graph);
const model = new Float32Array(16 * skeleton.jointCount);
const dt = 1 / 30;
for (let frame = 0; frame < 90; frame++) {
  if (frame === 10) setParam(robot, "speed", 2);
  if (frame === 40) setParam(robot, "speed", 5);
  if (frame === 60) trigger(robot, "jump");
  const result = step(graph, robot, dt);
  localToModel(model, skeleton, result.pose);
  const machine = graph.layers[0].machine;
  for (let i = 0; i < result.events.count; i++) {
    const e = result.events.items[i];
    if (e.type === "stateEntered" && e.layer === 0) console.log(`t=${robot.time.toFixed(2)}s entered ${machine.states[e.state].name}`);
    if (e.type === "notify") console.log(`t=${robot.time.toFixed(2)}s notify ${e.name}`);
  }
}
const head = skeleton.indexOf.get("Head");
console.log(`head at (${[12, 13, 14].map((k) => model[16 * head + k].toFixed(3)).join(", ")}) in model space`);

// A crowd: many characters of one graph over contiguous buffers. With the WebAssembly SIMD kernel the
// graph logic stays in JS and the sampling, blending and model-space work runs in the kernel.
const kernel = crowdKernelSupported() ? await loadCrowdKernel() : undefined;
const crowd = createCrowd(graph, 100, kernel ? { kernel } : {});
crowd.instances.forEach((c, i) => setParam(c, "speed", (i % 6) * 0.9));
const t0 = performance.now();
for (let frame = 0; frame < 60; frame++) evaluateCrowd(crowd, 1 / 60);
const perFrame = (performance.now() - t0) / 60;
console.log(`crowd of ${crowd.count} on the ${crowd.wasm ? "WebAssembly SIMD kernel" : "JS path"}: ${perFrame.toFixed(2)} ms per frame, ` +
  `character 7 head at (${[12, 13, 14].map((k) => crowd.model[16 * (7 * skeleton.jointCount + head) + k].toFixed(3)).join(", ")})`);
