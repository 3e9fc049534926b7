// IK layers driven by parameters at the ends of the double range (issue 18's held-out inputs): whatever a
// game writes into the parameters, the pose `step` outputs is finite. Before footPlacement clamped its
// ground offsets, a ground height of −1e100 under the Fox put its pelvis at −1e100, which the float32 pose
// stores as −Infinity (1,710 non-finite numbers in 5 frames).
import assert from "node:assert/strict";
import { test } from "node:test";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { repoPath } from "../helpers/assets.ts";
import { specOf } from "./fixtures.ts";

const fox = await loadGltfFile(repoPath("examples/fox/Fox.glb"));
const skeleton = fox.skeletons[0]!;
const EXTREMES = [0, 1, -5, 1e9, -1e9, 1e39, -1e39, 1e100, -1e100, 1e308, -1e308, Number.MIN_VALUE, -Number.MAX_VALUE];

test("Fox with twoBone, aim and footPlacement layers: parameters at ±1e308, ±1e39, denormals give finite output poses", () => {
  const param = (name: string) => ({ param: name });
  const json = {
    animgraph: 1,
    parameters: Object.fromEntries(["x", "w", "gy", "nx"].map((n) => [n, { type: "float", default: 0 }])),
    layers: [{ name: "base", machine: { entry: "Walk", states: { Walk: { clip: "Walk" } } } }],
    ik: [
      { name: "paw", solver: "twoBone", joints: ["b_LeftUpperArm_09", "b_LeftForeArm_010", "b_LeftHand_011"], target: [param("x"), 0.3, param("x")], pole: [0, 0, 1], weight: param("w") },
      { name: "look", solver: "aim", chain: ["b_Neck_04", "b_Head_05"], jointWeights: [0.5, 1], maxAngle: 60, target: [param("x"), 1, param("gy")], weight: param("w") },
      {
        name: "feet", solver: "footPlacement", pelvis: "b_Hip_01",
        legs: [["b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017"], ["b_RightLeg01_019", "b_RightLeg02_020", "b_RightFoot01_021"]],
        ground: { height: param("gy"), normal: [param("nx"), 1, 0] }, weight: param("w"),
      },
    ],
  };
  const compiled = compileGraph(specOf(json), skeleton, fox.clips, {});
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  const g = compiled.graph;
  const model = new Float32Array(16 * skeleton.jointCount);
  let frames = 0;
  for (const gy of EXTREMES) {
    const inst = createInstance(g);
    for (const x of EXTREMES) {
      setParam(inst, "gy", gy);
      setParam(inst, "x", x);
      setParam(inst, "w", frames % 3 === 0 ? 1 : x);
      setParam(inst, "nx", -x);
      const pose = step(g, inst, 1 / 60).pose;
      localToModel(model, skeleton, pose);
      for (const [what, values] of [["t", pose.t], ["r", pose.r], ["s", pose.s], ["model", model]] as const) {
        for (let i = 0; i < values.length; i++) assert.ok(Number.isFinite(values[i]!), `ground ${gy}, x ${x}: ${what}[${i}] = ${values[i]}`);
      }
      frames++;
    }
  }
  assert.equal(frames, EXTREMES.length ** 2);
});
