// `"mirror": true` in the graph spec: parsing, linting, compiling, and the runtime playing the mirror
// image of every clip node (measured from the output pose, against mirrorPose of the unmirrored graph).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createCrowd, crowdKernelSupported, evaluateCrowd, loadCrowdKernelSync } from "../../src/crowd/index.ts";
import { setParam, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { createProceduralClip } from "../../src/graph/motion-source.ts";
import { step } from "../../src/graph/step.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import { compileMirrorMap, mirrorPose } from "../../src/mirror/index.ts";
import { createPose, type Pose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { repoPath } from "../helpers/assets.ts";
import { readFileSync } from "node:fs";

type Json = Record<string, unknown>;

function parse(json: unknown, file = "g.animgraph.json") {
  return parseGraphSpec(parseJsonText(JSON.stringify(json), file));
}

const tiny = (states: Json, extra: Json = {}): Json => ({
  animgraph: 1, parameters: { speed: { type: "float" } },
  layers: [{ name: "base", machine: { entry: Object.keys(states)[0], states } }], ...extra,
});

/** Sets `mirror: true` on every clip state, blend child and sample of a spec (JSON). */
function mirrorEverything(spec: Json): Json {
  const copy = structuredClone(spec);
  const visit = (machine: Json): void => {
    for (const state of Object.values(machine["states"] as Record<string, Json>)) {
      if (typeof state["clip"] === "string") state["mirror"] = true;
      const b1 = state["blend1d"] as Json | undefined;
      if (b1) for (const c of b1["children"] as Json[]) c["mirror"] = true;
      const b2 = state["blend2d"] as Json | undefined;
      if (b2) for (const c of b2["samples"] as Json[]) c["mirror"] = true;
      if (state["machine"]) visit(state["machine"] as Json);
    }
  };
  for (const layer of copy["layers"] as Json[]) visit(layer["machine"] as Json);
  return copy;
}

test("the parser reads mirror on clip states, blend children and samples, and the graph's mirror settings", () => {
  const r = parse(tiny({
    A: { clip: "a", mirror: true },
    B: { blend1d: { param: "speed", children: [{ at: 0, clip: "a", mirror: true }, { at: 1, clip: "b" }] } },
    C: { blend2d: { params: ["speed", "speed"], samples: [{ x: 0, y: 0, clip: "a", mirror: true }] } },
  }, { mirror: { axis: "z", pairs: [["Hand_A", "Hand_B"]], detect: false } }));
  assert.ok(r.spec, JSON.stringify(r.diagnostics));
  const states = r.spec.layers[0]!.machine.states;
  const a = states.get("A")!.motion;
  assert.ok(a.kind === "clip" && a.mirror === true);
  const b = states.get("B")!.motion;
  assert.ok(b.kind === "blend1d" && b.children[0]!.mirror === true && b.children[1]!.mirror === undefined);
  const c = states.get("C")!.motion;
  assert.ok(c.kind === "blend2d" && c.samples[0]!.mirror === true);
  assert.deepEqual({ ...r.spec.mirror }, { pointer: "/mirror", axis: "z", pairs: [["Hand_A", "Hand_B"]], detect: false });
});

test("bad mirror input is reported at its JSON pointer", () => {
  const cases: [Json, string, string][] = [
    [tiny({ A: { blend1d: { param: "speed", children: [{ at: 0, clip: "a" }] }, mirror: true } }), "E_SPEC_NOT_ALLOWED", "/layers/0/machine/states/A/mirror"],
    [tiny({ A: { clip: "a", mirror: "yes" } }), "E_NOT_BOOLEAN", "/layers/0/machine/states/A/mirror"],
    [tiny({ A: { clip: "a" } }, { mirror: { axis: "w" } }), "E_SPEC_BAD_ENUM", "/mirror/axis"],
    [tiny({ A: { clip: "a" } }, { mirror: { pairs: [["a", "b", "c"]] } }), "E_SPEC_ARITY", "/mirror/pairs/0"],
    [tiny({ A: { clip: "a" } }, { mirror: { pairs: [["a", 3]] } }), "E_WRONG_TYPE", "/mirror/pairs/0/1"],
    [tiny({ A: { clip: "a" } }, { mirror: { plane: "x" } }), "E_SPEC_UNKNOWN_KEY", "/mirror/plane"],
  ];
  for (const [json, code, pointer] of cases) {
    const r = parse(json);
    assert.equal(r.spec, undefined, code);
    assert.ok(r.diagnostics.some((d) => d.code === code && d.pointer === pointer), `${code} at ${pointer}: ${JSON.stringify(r.diagnostics)}`);
  }
});

test("the linter checks that the joints pair when a clip is mirrored, given the skeleton's joint names", () => {
  const spec = parse(tiny({ A: { clip: "a" }, B: { clip: "a", mirror: true } })).spec!;
  const robotNames = ["Bone", "Foot.L", "Foot.R", "Hips"];
  assert.deepEqual(lintGraph(spec, { joints: robotNames }).filter((d) => d.code.startsWith("E_MIRROR")), []);
  const unpaired = lintGraph(spec, { joints: ["Hips", "Eye.L"] }).find((d) => d.code === "E_MIRROR_UNPAIRED");
  assert.equal(unpaired?.pointer, "/layers/0/machine/states/B/mirror");
  const withPairs = parse(tiny({ B: { clip: "a", mirror: true } }, { mirror: { pairs: [["Ghost", "Hips"]] } })).spec!;
  const unknown = lintGraph(withPairs, { joints: ["Hips"] }).find((d) => d.code === "E_MIRROR_UNKNOWN_JOINT");
  assert.equal(unknown?.pointer, "/mirror/pairs/0/0");
  // Without mirror flags the pairs are not the linter's business; without joints it cannot tell.
  assert.deepEqual(lintGraph(parse(tiny({ A: { clip: "a" } })).spec!, { joints: ["Eye.L"] }).filter((d) => d.code.startsWith("E_MIRROR")), []);
  assert.deepEqual(lintGraph(spec).filter((d) => d.code.startsWith("E_MIRROR")), []);
});

test("compileGraph refuses a mirrored clip whose skeleton does not pair, naming the flag", () => {
  const skeleton = createSkeleton({ names: ["Hips", "Arm.L", "Arm.R", "Hand.L", "Hand.R"], parents: [-1, 0, 0, 1, 1] });
  const clip = createProceduralClip({ name: "a", duration: 1, sample: (out) => out.r.fill(0) });
  const spec = parse(tiny({ A: { clip: "a", mirror: true } })).spec!;
  const r = compileGraph(spec, skeleton, [clip]);
  assert.equal(r.graph, undefined);
  const d = r.diagnostics.find((x) => x.code === "E_MIRROR_HIERARCHY");
  assert.equal(d?.pointer, "/layers/0/machine/states/A/mirror");
});

/** Largest difference of two poses: translations, scales, and rotations as 1 − |dot|. */
function poseDistance(a: Pose, b: Pose): number {
  let d = 0;
  for (let i = 0; i < a.t.length; i++) d = Math.max(d, Math.abs(a.t[i]! - b.t[i]!) / (1 + Math.abs(a.t[i]!)), Math.abs(a.s[i]! - b.s[i]!));
  for (let j = 0; j < a.jointCount; j++) {
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += a.r[4 * j + c]! * b.r[4 * j + c]!;
    d = Math.max(d, 1 - Math.abs(dot));
  }
  return d;
}

async function robotGraphs() {
  const json = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as Json;
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const skeleton = gltf.skeletons[0]!;
  // The root-motion joint must lie on the plane: "auto" picks the robot's Foot.L (its IK foot moves first), whose
  // mirror image is Foot.R's motion, not its own.
  const plain = compileGraph(parse(json).spec!, skeleton, gltf.clips, { rootMotion: "Body" });
  const mirrored = compileGraph(parse(mirrorEverything(json)).spec!, skeleton, gltf.clips, { rootMotion: "Body" });
  assert.ok(plain.graph && mirrored.graph, JSON.stringify(mirrored.diagnostics));
  return { skeleton, plain: plain.graph, mirrored: mirrored.graph };
}

test("the robot graph with every clip mirrored plays the mirror image of the plain graph, frame by frame, root motion included", async () => {
  const { skeleton, plain, mirrored } = await robotGraphs();
  const map = compileMirrorMap(skeleton).map!;
  const a = createInstance(plain), b = createInstance(mirrored);
  const expected = createPose(skeleton.jointCount);
  let worst = 0, moved = 0;
  const sign = [-1, 1, 1, -1]; // x reflected; yaw about y turns the other way
  for (let k = 0; k < 900; k++) {
    for (const inst of [a, b]) {
      setParam(inst, "speed", (k % 300) / 50);
      if (k % 97 === 0) trigger(inst, "jump");
      if (k % 131 === 0) trigger(inst, "punch");
      if (k % 50 === 0) setParam(inst, "emote", (k / 50) % 4);
    }
    const ra = step(plain, a, 1 / 60);
    const rb = step(mirrored, b, 1 / 60);
    assert.equal(rb.layers[0]!.current, ra.layers[0]!.current, `frame ${k}: same state`);
    mirrorPose(expected, map, ra.pose);
    worst = Math.max(worst, poseDistance(rb.pose, expected));
    for (let c = 0; c < 4; c++) {
      assert.ok(Math.abs(rb.rootDelta[c]! - sign[c]! * ra.rootDelta[c]!) < 1e-6 * (1 + Math.abs(ra.rootDelta[c]!)), `frame ${k} root delta ${c}`);
      moved += Math.abs(ra.rootDelta[c]!);
    }
  }
  assert.ok(worst < 1e-5, `largest difference from mirrorPose of the plain graph: ${worst}`);
  assert.ok(moved > 0, "the robot graph moves its root, so the root-motion check is not vacuous");
});

test("a mirrored procedural clip samples the mirror image and reflects its root velocity", () => {
  const skeleton = createSkeleton({ names: ["Hips", "Foot.L", "Foot.R"], parents: [-1, 0, 0] });
  const clip = createProceduralClip({
    name: "sway", duration: 1, rootVelocity: [1, 0, 2],
    sample: (out, t) => {
      out.t.fill(0);
      out.s.fill(1);
      out.r.fill(0);
      out.t[3] = 0.2 + t;
      out.t[6] = -0.2;
      for (let j = 0; j < 3; j++) out.r[4 * j + 3] = 1;
      out.r[4] = Math.sin(t);
      out.r[7] = Math.cos(t);
    },
  });
  const spec = parse(tiny({ A: { clip: "sway", mirror: true } })).spec!;
  const g = compileGraph(spec, skeleton, [clip], { rootMotion: "Hips" }).graph!;
  const inst = createInstance(g);
  const r = step(g, inst, 0.25);
  assert.ok(Math.abs(r.pose.t[6]! - -(0.2 + 0.25)) < 1e-6, "Foot.R takes Foot.L's reflected translation");
  assert.ok(Math.abs(r.pose.t[3]! - 0.2) < 1e-6);
  assert.ok(Math.abs(r.pose.r[8]! - Math.sin(0.25)) < 1e-6, "Foot.R takes Foot.L's rotation about x (kept by an x mirror)");
  assert.deepEqual(Array.from(r.rootDelta.slice(0, 3)).map((v) => Number(v.toFixed(6))), [-0.25, 0, 0.5]);
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

test("stepping a graph of mirrored clips retains nothing: the heap does not grow round after round", async () => {
  const { mirrored } = await robotGraphs();
  const inst = createInstance(mirrored);
  const frame = (k: number): void => {
    setParam(inst, "speed", (k % 240) / 40);
    if (k % 97 === 0) trigger(inst, "jump");
    step(mirrored, inst, 1 / 60);
  };
  let k = 0;
  for (; k < 3000; k++) frame(k);
  // A leak grows the heap in every round; V8's own noise (10–37 kB a round here, once 147 kB in a full
  // run) does not, so the smallest of three rounds is the figure.
  const growths: number[] = [];
  for (let round = 0; round < 3; round++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const end = k + 20_000; k < end; k++) frame(k);
    gc();
    growths.push(process.memoryUsage().heapUsed - before);
  }
  assert.ok(Math.min(...growths) < 64 * 1024, `heap grew by ${growths.join(", ")} bytes in three rounds of 20,000 steps`);
});

test("a crowd plays the mirrored graph too: JS path and WebAssembly kernel, each character the mirror image of the plain crowd's", async () => {
  const { skeleton, plain, mirrored } = await robotGraphs();
  const map = compileMirrorMap(skeleton).map!;
  const kernel = crowdKernelSupported() ? loadCrowdKernelSync() : undefined;
  const crowds = [createCrowd(plain, 3), createCrowd(mirrored, 3), ...(kernel ? [createCrowd(mirrored, 3, { kernel })] : [])];
  const expected = createPose(skeleton.jointCount);
  let worst = 0;
  for (let k = 0; k < 300; k++) {
    for (const crowd of crowds) {
      crowd.instances.forEach((inst, i) => {
        setParam(inst, "speed", ((k + 60 * i) % 300) / 50);
        if ((k + i) % 97 === 0) trigger(inst, "jump");
      });
      evaluateCrowd(crowd, 1 / 60);
    }
    for (let i = 0; i < 3; i++) {
      mirrorPose(expected, map, crowds[0]!.poses[i]!);
      for (const crowd of crowds.slice(1)) worst = Math.max(worst, poseDistance(crowd.poses[i]!, expected));
    }
  }
  assert.ok(worst < 1e-4, `largest difference from the mirrored plain crowd: ${worst}`);
});
