// A runnable tour of the API: load a character, compile a graph, drive it, read poses and events.
// Run it with `node examples/api/play-robot.mjs` (after `npm ci`, which builds the library).
import { readFileSync } from "node:fs";
import {
  compileGraph, createInstance, formatDiagnostic, loadGltf, localToModel, parseGraphSpec, parseJsonText, setParam, step, trigger,
} from "animgraph";

const here = (p) => new URL(p, import.meta.url);
const character = await loadGltf(here("../robot/RobotExpressive.glb").pathname);
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
