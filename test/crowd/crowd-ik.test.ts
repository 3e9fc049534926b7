// A crowd of a graph with IK layers plays them: the WebAssembly kernel has no IK jobs, so such a crowd runs
// on the JS path even when given the kernel (it used to run the kernel and silently drop the IK). Measured
// from the crowd's model matrices against `step` on lone instances.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createCrowd, loadCrowdKernel } from "../../src/crowd/index.ts";
import { evaluateCrowd } from "../../src/crowd/evaluate-crowd.ts";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { repoPath } from "../helpers/assets.ts";

const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
const skeleton = gltf.skeletons[0]!;
const example = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as Record<string, unknown>;
const kernel = await loadCrowdKernel();

/** The robot example with the right hand reaching for a target the parameters move, and a look-at. */
function ikGraph(enabled: boolean) {
  const spec = {
    ...example,
    parameters: { ...(example["parameters"] as object), hx: { type: "float", default: -0.6 }, hy: { type: "float", default: 2 } },
    ik: [
      { name: "hand", solver: "twoBone", enabled, joints: ["UpperArm.R", "LowerArm.R", "Palm2.R"], target: [{ param: "hx" }, { param: "hy" }, 0.8] },
      { name: "look", solver: "aim", enabled, chain: ["Neck", "Head"], target: [2, 3, 2] },
    ],
  };
  const r = compileGraph(spec, skeleton, gltf.clips);
  assert.ok(r.graph, JSON.stringify(r.diagnostics));
  return r.graph;
}

/** Largest difference between the crowd's model matrices and lone instances stepped the same way. */
function gapToLoneInstances(enabled: boolean, withKernel: boolean): { gap: number; onKernel: boolean } {
  const graph = ikGraph(enabled);
  const N = 6, J = skeleton.jointCount;
  const crowd = createCrowd(graph, N, withKernel ? { kernel } : {});
  const lone = Array.from({ length: N }, () => createInstance(graph));
  const model = new Float32Array(16 * J);
  let gap = 0;
  for (let f = 0; f < 90; f++) {
    for (let i = 0; i < N; i++) {
      for (const inst of [crowd.instances[i]!, lone[i]!]) {
        setParam(inst, "speed", f < 30 ? 0 : 1 + i);
        setParam(inst, "hx", -0.6 + 0.1 * Math.sin(f / 10 + i));
        setParam(inst, "hy", 2 + 0.2 * Math.cos(f / 7));
      }
    }
    evaluateCrowd(crowd, 1 / 60);
    for (let i = 0; i < N; i++) {
      localToModel(model, skeleton, step(graph, lone[i]!, 1 / 60).pose);
      const m = crowd.matrices[i]!;
      for (let k = 0; k < model.length; k++) gap = Math.max(gap, Math.abs(m[k]! - model[k]!));
    }
  }
  return { gap, onKernel: crowd.wasm !== null };
}

test("a kernel crowd of a graph with IK layers plays the IK: its matrices match lone instances' as the JS crowd's do", () => {
  const js = gapToLoneInstances(true, false);
  const asked = gapToLoneInstances(true, true);
  assert.ok(js.gap < 1e-4, `JS crowd: ${js.gap}`);
  assert.ok(asked.gap < 1e-4, `crowd given the kernel: ${asked.gap}`);
  assert.equal(asked.onKernel, false, "the IK graph runs on the JS path");
});

test("a graph whose IK layers are all disabled still runs on the kernel", () => {
  const r = gapToLoneInstances(false, true);
  assert.equal(r.onKernel, true);
  assert.ok(r.gap < 1e-4, `${r.gap}`);
});
