// IK layers from the spec to the output pose: parse → lint → compile → step, measured on the pose the step
// writes (its model-space positions), on RobotExpressive's example graph and on the CMU 131_01 capture.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import { quatRotateVec3 } from "../../src/math/quat.ts";
import type { Pose } from "../../src/pose/pose.ts";
import { modelFrames } from "../../src/retarget/model-frames.ts";
import type { Skeleton } from "../../src/skeleton/skeleton.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

const robotSpec = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as Record<string, unknown>;
const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
const robot = gltf.skeletons[0]!;

function parse(json: unknown, file = "ik.animgraph.json") {
  return parseGraphSpec(parseJsonText(JSON.stringify(json), file));
}

function frames(skeleton: Skeleton, pose: Pose): { q: Float64Array; p: Float64Array } {
  const J = skeleton.jointCount;
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  modelFrames(q, p, s, skeleton, pose);
  return { q, p };
}

/** The robot example with IK layers and their parameters added. */
function robotWithIk(ik: unknown[], params: Record<string, unknown>): unknown {
  return { ...robotSpec, parameters: { ...(robotSpec["parameters"] as object), ...params }, ik };
}

const float = { type: "float", default: 0 };

test("a twoBone IK layer puts the robot's hand on a target read from parameters; weight 0 leaves the pose as the machine made it", () => {
  const spec = parse(robotWithIk([
    { name: "leftHand", solver: "twoBone", joints: ["UpperArm.L", "LowerArm.L", "Palm2.L"], target: [{ param: "hx" }, { param: "hy" }, { param: "hz" }], pole: [0, 0, -1], softness: 0, weight: { param: "handIk" } },
  ], { hx: float, hy: float, hz: float, handIk: float }));
  assert.ok(spec.spec, JSON.stringify(spec.diagnostics));
  const compiled = compileGraph(spec.spec, robot, gltf.clips);
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  const withIk = createInstance(compiled.graph), without = createInstance(compiled.graph);
  const [ua, la, hand] = ["UpperArm.L", "LowerArm.L", "Palm2.L"].map((n) => robot.indexOf.get(n)!);
  // A target inside the arm's reach: the rest hand moved 30 % of the limb towards the shoulder and sideways.
  const rest = frames(robot, robot.rest).p;
  const limb = Math.hypot(...[0, 1, 2].map((c) => rest[3 * la! + c]! - rest[3 * ua! + c]!) as [number, number, number])
    + Math.hypot(...[0, 1, 2].map((c) => rest[3 * hand! + c]! - rest[3 * la! + c]!) as [number, number, number]);
  let worst = 0;
  for (let f = 0; f < 90; f++) {
    step(compiled.graph, without, 1 / 30);
    const now = frames(robot, without.result.pose).p;
    const target = [0, 1, 2].map((c) => now[3 * hand! + c]! + 0.3 * (now[3 * ua! + c]! - now[3 * hand! + c]!) + (c === 0 ? 0.1 * limb : 0));
    setParam(withIk, "hx", target[0]!);
    setParam(withIk, "hy", target[1]!);
    setParam(withIk, "hz", target[2]!);
    setParam(withIk, "handIk", 1);
    step(compiled.graph, withIk, 1 / 30);
    const p = frames(robot, withIk.result.pose).p;
    worst = Math.max(worst, Math.hypot(p[3 * hand!]! - target[0]!, p[3 * hand! + 1]! - target[1]!, p[3 * hand! + 2]! - target[2]!) / limb);
  }
  assert.ok(worst < 1e-4, `the hand misses its target by ${worst} of the limb`);
  setParam(withIk, "handIk", 0);
  step(compiled.graph, withIk, 1 / 30);
  step(compiled.graph, without, 1 / 30);
  assert.deepEqual(Array.from(withIk.result.pose.r), Array.from(without.result.pose.r));
});

test("a layer with enabled false is checked but does not run: the machine's pose bit for bit, whatever its weight", () => {
  const layer = { name: "leftHand", solver: "twoBone", joints: ["UpperArm.L", "LowerArm.L", "Palm2.L"], target: [0.5, 1, 0.5], weight: { param: "handIk" } };
  const params = { handIk: { type: "float", default: 1 } };
  const on = parse(robotWithIk([layer], params)), off = parse(robotWithIk([{ ...layer, enabled: false }], params));
  assert.ok(on.spec && off.spec, JSON.stringify([...on.diagnostics, ...off.diagnostics]));
  assert.equal(off.spec.ik?.[0]?.enabled, false);
  assert.equal(on.spec.ik?.[0]?.enabled, true);
  const plain = compileGraph(parse(robotSpec).spec!, robot, gltf.clips).graph!;
  const withOn = compileGraph(on.spec, robot, gltf.clips).graph!, withOff = compileGraph(off.spec, robot, gltf.clips).graph!;
  const a = createInstance(plain), b = createInstance(withOff), c = createInstance(withOn);
  for (let f = 0; f < 20; f++) { step(plain, a, 1 / 30); step(withOff, b, 1 / 30); step(withOn, c, 1 / 30); }
  assert.deepEqual(Array.from(b.result.pose.r), Array.from(a.result.pose.r));
  assert.notDeepEqual(Array.from(c.result.pose.r), Array.from(a.result.pose.r), "the enabled layer moves the arm");
  // Still checked: a disabled layer's unknown joint is a finding at its pointer.
  const broken = parse(robotWithIk([{ ...layer, enabled: false, joints: ["UpperArm.L", "LowerArm.L", "Nope"] }], params));
  assert.ok(lintGraph(broken.spec!, { joints: robot.names }).some((d) => d.pointer === "/ik/0/joints/2" && d.code === "E_UNKNOWN_JOINT"));
  assert.ok(parse(robotWithIk([{ ...layer, enabled: "no" }], params)).diagnostics.some((d) => d.pointer === "/ik/0/enabled"));
});

test("an aim IK layer turns the robot's torso, neck and head so the head's forward looks at the target", () => {
  const head = robot.indexOf.get("Head")!;
  const rest = frames(robot, robot.rest);
  // The head's local axis that points forward (+Z of the model) in the rest pose.
  const inv = [-rest.q[4 * head]!, -rest.q[4 * head + 1]!, -rest.q[4 * head + 2]!, rest.q[4 * head + 3]!];
  const axis = Array.from(quatRotateVec3(new Float64Array(3), 0, inv, 0, [0, 0, 1], 0));
  const spec = parse(robotWithIk([
    { name: "look", solver: "aim", chain: ["Torso", "Neck", "Head"], jointWeights: [0.2, 0.4, 1], maxAngle: [30, 45, 90], axis, target: [{ param: "lx" }, 0, 0] },
  ], { lx: float }));
  assert.ok(spec.spec, JSON.stringify(spec.diagnostics));
  const compiled = compileGraph(spec.spec, robot, gltf.clips);
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  const inst = createInstance(compiled.graph);
  let worst = 0;
  for (let f = 0; f < 60; f++) {
    setParam(inst, "lx", f % 2 === 0 ? 4 : -4);
    step(compiled.graph, inst, 1 / 30);
    const { q, p } = frames(robot, inst.result.pose);
    const fwd = quatRotateVec3(new Float64Array(3), 0, q, 4 * head, axis, 0);
    const to = [(f % 2 === 0 ? 4 : -4) - p[3 * head]!, -p[3 * head + 1]!, -p[3 * head + 2]!];
    const cos = (fwd[0]! * to[0]! + fwd[1]! * to[1]! + fwd[2]! * to[2]!) / Math.hypot(...to);
    worst = Math.max(worst, Math.acos(Math.min(1, cos)));
  }
  assert.ok(worst < 1e-3, `the head looks ${worst} rad away from its target`);
});

test("a footPlacement layer on the CMU 131_01 capture: on a slope set by parameters each ankle keeps its animated height above the ground", { skip: !HAVE_SHARED_ASSETS }, () => {
  const { skeleton, clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(skeleton && clip);
  const legs = [["LeftHip", "LeftKnee", "LeftAnkle"], ["RightHip", "RightKnee", "RightAnkle"]];
  const spec = parse({
    animgraph: 1, parameters: { groundHeight: float, slopeX: float, feet: { type: "float", default: 1 } },
    layers: [{ name: "base", machine: { entry: "Walk", states: { Walk: { clip: clip.name } } } }],
    ik: [{ name: "feet", solver: "footPlacement", pelvis: "Hips", legs, ground: { height: { param: "groundHeight" }, normal: [{ param: "slopeX" }, 1, 0] }, softness: 0, weight: { param: "feet" } }],
  });
  assert.ok(spec.spec, JSON.stringify(spec.diagnostics));
  const compiled = compileGraph(spec.spec, skeleton, [clip]);
  assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
  const inst = createInstance(compiled.graph), flat = createInstance(compiled.graph);
  setParam(flat, "feet", 0);
  setParam(inst, "groundHeight", 2);
  setParam(inst, "slopeX", -0.2); // height 2 + 0.2·x
  const ankles = legs.map((l) => skeleton.indexOf.get(l[2]!)!);
  let worst = 0;
  for (let f = 0; f < 240; f++) {
    step(compiled.graph, inst, 1 / 30);
    step(compiled.graph, flat, 1 / 30);
    const a = frames(skeleton, flat.result.pose).p, b = frames(skeleton, inst.result.pose).p;
    for (const j of ankles) worst = Math.max(worst, Math.abs(b[3 * j + 1]! - (a[3 * j + 1]! + 2 + 0.2 * a[3 * j]!)));
  }
  assert.ok(worst < 1e-3, `an ankle is ${worst} units off its height above the slope (legs ≈ 40 units)`);
});

test("lint and compile name unknown joints and parameters of IK layers and broken chains, each at its JSON pointer", () => {
  const spec = parse(robotWithIk([
    { name: "hand", solver: "twoBone", joints: ["UpperArm.L", "LowerArm.L", "Palm.L"], target: [{ param: "hx" }, { param: "nope" }, 0] },
    { name: "look", solver: "aim", chain: ["Neck", "Head"], target: [0, 0, 1], weight: { param: "jump" } },
    { name: "feet", solver: "footPlacement", pelvis: "Hips", legs: [["UpperLeg.L", "LowerLeg.L", "Foot.L"]] },
  ], { hx: float }));
  assert.ok(spec.spec, JSON.stringify(spec.diagnostics));
  const lint = lintGraph(spec.spec, { joints: robot.names, jointParents: robot.parents });
  const found = lint.filter((d) => d.severity === "error").map((d) => `${d.pointer} ${d.code}`);
  assert.ok(found.includes("/ik/0/joints/2 E_UNKNOWN_JOINT"), found.join("; "));
  assert.match(lint.find((d) => d.pointer === "/ik/0/joints/2")!.message, /did you mean "Palm2\.L"\?/);
  assert.ok(found.includes("/ik/0/target/1/param E_UNKNOWN_PARAM"), found.join("; "));
  assert.ok(found.includes("/ik/1/weight/param E_PARAM_TYPE"), found.join("; "));
  const compiled = compileGraph(spec.spec, robot, gltf.clips);
  assert.equal(compiled.graph, undefined);
  const codes = compiled.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.pointer} ${d.code}`);
  // RobotExpressive's legs hang from Body, beside Hips: Hips is no pelvis to lower them by. (Its feet hang
  // from the root bone, an IK rig's, which a leg accepts: see the slope test below.)
  assert.ok(codes.includes("/ik/2/legs/0/0 E_IK_NOT_A_CHAIN"), codes.join("; "));
  assert.ok(!codes.includes("/ik/2/legs/0/2 E_IK_NOT_A_CHAIN"), codes.join("; "));
  assert.ok(lint.some((d) => d.pointer === "/ik/2/legs/0/0" && d.code === "E_IK_NOT_A_CHAIN" && /the pelvis "Hips" is not an ancestor of "UpperLeg\.L"/.test(d.message)), JSON.stringify(lint));
  assert.ok(!lint.some((d) => d.code === "W_UNUSED_PARAM" && d.message.includes('"hx"')), "a parameter read by an IK layer is used");
});

test("the parser checks IK layers' shape: solver, keys that belong to another solver, vector lengths, ranges", () => {
  const r = parse({
    animgraph: 1, layers: robotSpec["layers"],
    ik: [
      { name: "a", solver: "twoBone", joints: ["x", "y"], target: [0, 0], chain: ["z"] },
      { name: "b", solver: "spline", target: [0, 0, 0] },
      { name: "c", solver: "aim", chain: ["x"], target: [0, 0, 0], maxAngle: 200, pole: [0, 0, 1] },
      { name: "c", solver: "footPlacement", pelvis: "h", legs: [], ground: { height: 0, slope: 1 } },
    ],
  });
  const got = r.diagnostics.map((d) => `${d.pointer} ${d.code}`);
  for (const want of [
    "/ik/0/joints E_SPEC_ARITY", "/ik/0/target E_SPEC_ARITY", "/ik/0/chain E_SPEC_NOT_ALLOWED", "/ik/1/solver E_SPEC_BAD_ENUM",
    "/ik/2/maxAngle E_OUT_OF_RANGE", "/ik/2/pole E_SPEC_NOT_ALLOWED", "/ik/3/legs E_OUT_OF_RANGE", "/ik/3/ground/slope E_SPEC_UNKNOWN_KEY",
  ]) assert.ok(got.includes(want), `${want} not in ${got.join("; ")}`);
});

test("a constant foot-placement ground normal with no direction, or facing across or against up, is refused at its pointer; one from parameters is not", () => {
  const legs = [["UpperLeg.L", "LowerLeg.L", "Foot.L"]];
  const feet = (ground: unknown, extra: Record<string, unknown> = {}): unknown[] => [{ name: "feet", solver: "footPlacement", pelvis: "Body", legs, ground, ...extra }];
  for (const [normal, up, message] of [
    [[0, 0, 0], undefined, /the ground normal \(0, 0, 0\) has no direction \(its squared length is 0\)/],
    [[1e200, 1e200, 0], undefined, /has no direction \(its squared length is Infinity\)/],
    [[1, 0, 0], [0, 1, 0], /the ground normal \(1, 0, 0\) faces across or against up \(0, 1, 0\)/],
    [[0, -1, 0], [0, 1, 0], /faces across or against up/],
    [[0, 1, 0], [0, 0, 1], /faces across or against up \(0, 0, 1\)/],
  ] as const) {
    const r = parse(robotWithIk(feet({ normal }, up ? { up } : {}), {}));
    assert.equal(r.spec, undefined, JSON.stringify(normal));
    const d = r.diagnostics.find((x) => x.pointer === "/ik/0/ground/normal");
    assert.equal(d?.code, "E_SPEC_BAD_VALUE", JSON.stringify(r.diagnostics));
    assert.match(d!.message, message);
    assert.equal(d!.file, "ik.animgraph.json");
    assert.ok(d!.line !== undefined && d!.line > 0, "the diagnostic has the spec's line");
  }
  for (const normal of [[0.2, 1, 0.1], [0, 1e-3, 0]]) assert.ok(parse(robotWithIk(feet({ normal }), {})).spec, JSON.stringify(normal));
  const driven = parse(robotWithIk(feet({ normal: [{ param: "nx" }, 0, 0] }), { nx: { type: "float" } }));
  assert.ok(driven.spec, JSON.stringify(driven.diagnostics));
  // Without up the parser cannot know it: compiling checks a constant normal against the up found from the
  // legs (the robot's [0, 0, 1]), at the same pointer.
  for (const normal of [[1, 0, 0], [0, 1, 0], [0, 0, -1]]) {
    const text = JSON.stringify(robotWithIk(feet({ normal }), {}));
    const c = compileGraph(text, robot, gltf.clips);
    assert.equal(c.graph, undefined, JSON.stringify(normal));
    const d = c.diagnostics.find((x) => x.severity === "error");
    assert.equal(`${d?.pointer} ${d?.code}`, "/ik/0/ground/normal E_SPEC_BAD_VALUE", JSON.stringify(c.diagnostics));
    assert.match(d!.message, new RegExp(`the ground normal \\(${normal.join(", ")}\\) faces across or against up \\(0, 0, 1\\), found from the legs`));
    assert.ok(d!.line !== undefined && d!.line > 0, "the compile finding has the spec's line");
  }
  assert.ok(compileGraph(JSON.stringify(robotWithIk(feet({ normal: [0.2, 0, 1] }), {})), robot, gltf.clips).graph);
  // The public compile entries get the same finding from a plain-object spec, and no graph.
  const compiled = compileGraph(robotWithIk(feet({ normal: [0, 0, 0] }), {}) as never, robot, gltf.clips);
  assert.equal(compiled.graph, undefined);
  assert.deepEqual(compiled.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.pointer} ${d.code}`), ["/ik/0/ground/normal E_SPEC_BAD_VALUE"]);
});

// Review of issue 18: RobotExpressive's feet (Foot.L, Foot.R) hang from the skeleton's root bone, as an IK
// rig's do, not from the lower legs, so a foot-placement layer on the robot as rigged was refused
// (E_IK_NOT_A_CHAIN at the foot). A leg's foot may now hang from above the leg: the job carries it as the
// lower leg's end and writes its position.
test("a footPlacement layer on RobotExpressive as rigged (feet under the root bone): on a slope each foot keeps its animated height above the ground and stays at the end of its shin", () => {
  const legs = [["UpperLeg.L", "LowerLeg.L", "Foot.L"], ["UpperLeg.R", "LowerLeg.R", "Foot.R"]];
  const J = robot.jointCount;
  const rest = frames(robot, robot.rest).p;
  const at = (p: Float64Array, j: number): number[] => [p[3 * j]!, p[3 * j + 1]!, p[3 * j + 2]!];
  const dist = (p: Float64Array, a: number, b: number): number => Math.hypot(...at(p, a).map((x, c) => x - at(p, b)[c]!) as [number, number, number]);
  const idx = (n: string): number => robot.indexOf.get(n)!;
  const leg = dist(rest, idx("UpperLeg.L"), idx("LowerLeg.L")) + dist(rest, idx("LowerLeg.L"), idx("Foot.L"));
  const slope = 0.2, height = 0.1 * leg;
  for (const clip of ["Walking", "Idle", "Running"]) {
    // The robot's skeleton stands along +Z inside its Y-up armature: up is the skeleton's.
    const spec = parse({
      animgraph: 1, parameters: { groundHeight: float, slopeX: float, feet: { type: "float", default: 1 } },
      layers: [{ name: "base", machine: { entry: "Go", states: { Go: { clip } } } }],
      ik: [{ name: "feet", solver: "footPlacement", pelvis: "Body", legs, up: [0, 0, 1], ground: { height: { param: "groundHeight" }, normal: [{ param: "slopeX" }, 0, 1] }, softness: 0, weight: { param: "feet" } }],
    });
    assert.ok(spec.spec, JSON.stringify(spec.diagnostics));
    assert.deepEqual(lintGraph(spec.spec, { joints: robot.names, jointParents: robot.parents }).filter((d) => d.severity === "error"), []);
    const compiled = compileGraph(spec.spec, robot, gltf.clips);
    assert.ok(compiled.graph, JSON.stringify(compiled.diagnostics));
    const inst = createInstance(compiled.graph), flat = createInstance(compiled.graph);
    setParam(flat, "feet", 0);
    setParam(inst, "groundHeight", height);
    setParam(inst, "slopeX", -slope); // height h + 0.2·x along +Z
    let worst = 0, shin = 0, moved = 0;
    for (let f = 0; f < 90; f++) {
      step(compiled.graph, inst, 1 / 30);
      step(compiled.graph, flat, 1 / 30);
      const a = frames(robot, flat.result.pose).p, b = frames(robot, inst.result.pose).p;
      assert.equal(b.length, 3 * J);
      for (const [, lower, foot] of legs.map((l) => l.map(idx))) {
        worst = Math.max(worst, Math.abs(b[3 * foot! + 2]! - (a[3 * foot! + 2]! + height + slope * a[3 * foot!]!)));
        shin = Math.max(shin, Math.abs(dist(b, foot!, lower!) - dist(a, foot!, lower!)));
        moved = Math.max(moved, Math.abs(b[3 * foot! + 2]! - a[3 * foot! + 2]!));
      }
    }
    assert.ok(moved > 0.05 * leg, `${clip}: the feet moved ${moved / leg} legs`);
    assert.ok(worst <= 1e-4 * leg, `${clip}: a foot is ${(worst / leg).toExponential(2)} legs off its animated height above the slope`);
    assert.ok(shin <= 1e-4 * leg, `${clip}: a foot moved ${(shin / leg).toExponential(2)} legs off the end of its shin`);
  }
  // A joint hanging from elsewhere (a hand) is still no foot.
  const bad = parse({ ...(robotWithIk([{ name: "feet", solver: "footPlacement", pelvis: "Body", legs: [["UpperLeg.L", "LowerLeg.L", "Palm2.L"]] }], {}) as object) });
  assert.ok(bad.spec);
  assert.ok(lintGraph(bad.spec, { joints: robot.names, jointParents: robot.parents }).some((d) => d.pointer === "/ik/0/legs/0/2" && d.code === "E_IK_NOT_A_CHAIN"));
  assert.ok(compileGraph(bad.spec, robot, gltf.clips).diagnostics.some((d) => d.pointer === "/ik/0/legs/0/2" && d.code === "E_IK_NOT_A_CHAIN"));
});
