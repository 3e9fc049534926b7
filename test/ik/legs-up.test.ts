// A foot-placement layer without `up` or `pelvis` gets them from the rig (compile time): the legs' rest
// direction (feet to hips) snapped to an axis, and the nearest joint above the legs. Measured on the real
// rigs — RobotExpressive (its skeleton stands along +Z inside a Y-up armature), Fox, CesiumMan (also Z-up),
// the CMU 131_01 and pirouette captures and the VRM animation — and on the robot's feet on a slope from
// the poses the runtime writes; `animgraph lint --clips` warns about an up the legs hang across.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import type { CliIo } from "../../src/cli/context.ts";
import { setParam } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { legsPelvis, legsUp } from "../../src/ik/legs-up.ts";
import { lintAssetsFromGltf } from "../../src/lint/clips-from-gltf.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import type { Pose } from "../../src/pose/pose.ts";
import { loadRig } from "../../src/retarget/load-rig.ts";
import { modelFrames } from "../../src/retarget/model-frames.ts";
import type { Skeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;

function positions(skeleton: Skeleton, pose: Pose): Float64Array {
  const J = skeleton.jointCount;
  const p = new Float64Array(3 * J);
  modelFrames(new Float64Array(4 * J), p, new Float64Array(J), skeleton, pose);
  return p;
}

/** Each rig's legs (upper, middle, foot), its pelvis and the up its rest pose shows, with the measured angle off that axis. */
const RIGS = [
  { file: "robot-expressive/RobotExpressive.glb", legs: [["UpperLeg.L", "LowerLeg.L", "Foot.L"], ["UpperLeg.R", "LowerLeg.R", "Foot.R"]], pelvis: "Body", up: [0, 0, 1], degrees: 2.7 },
  { file: "fox/Fox.glb", legs: [["b_LeftLeg01_015", "b_LeftLeg02_016", "b_LeftFoot01_017"], ["b_RightLeg01_019", "b_RightLeg02_020", "b_RightFoot01_021"]], pelvis: "b_Hip_01", up: [0, 1, 0], degrees: 13.6 },
  { file: "cesium-man/CesiumMan.glb", legs: [["#7", "#8", "#9"], ["#3", "#4", "#5"]], pelvis: "#2", up: [0, 0, 1], degrees: 3.1 },
  { file: "bvh-cmu-131/131_01.bvh", legs: [["LeftHip", "LeftKnee", "LeftAnkle"], ["RightHip", "RightKnee", "RightAnkle"]], pelvis: "Hips", up: [0, 1, 0], degrees: 0.0 },
  { file: "bvh-cmu-pirouette/pirouette.bvh", legs: [["lThigh", "lShin", "lFoot"], ["rThigh", "rShin", "rFoot"]], pelvis: "hip", up: [0, 1, 0], degrees: 3.1 },
  { file: "vrma/test.vrma", legs: [["leftUpperLeg", "leftLowerLeg", "leftFoot"], ["rightUpperLeg", "rightLowerLeg", "rightFoot"]], pelvis: "hips", up: [0, 1, 0], degrees: 0.0 },
] as const;

const float = { type: "float", default: 0 };
const feetSpec = (clip: string, layer: Record<string, unknown>, parameters: Record<string, unknown> = {}): string => JSON.stringify({
  animgraph: 1, parameters: { groundHeight: float, feet: { type: "float", default: 1 }, ...parameters },
  layers: [{ name: "base", machine: { entry: "Go", states: { Go: { clip } } } }],
  ik: [{ name: "feet", solver: "footPlacement", ground: { height: { param: "groundHeight" } }, softness: 0, weight: { param: "feet" }, ...layer }],
}, null, 2);

test("the up and pelvis each rig's legs show, and what compileGraph reports at /ik/0/up and /ik/0/pelvis when the layer gives neither", { skip }, async () => {
  for (const rig of RIGS) {
    const { skeleton, clips } = await loadRig(sharedAsset(rig.file));
    assert.ok(skeleton && clips.length > 0, rig.file);
    const legs = rig.legs.flat().map((n) => skeleton.indexOf.get(n)!);
    const found = legsUp(positions(skeleton, skeleton.rest), legs)!;
    assert.deepEqual(found.up, rig.up, `${rig.file}: measured ${found.measured.join(", ")}`);
    assert.ok(Math.abs(found.degrees - rig.degrees) < 0.1, `${rig.file}: ${found.degrees}° off the axis`);
    assert.equal(skeleton.names[legsPelvis(skeleton.parents, [legs[0]!, legs[3]!])], rig.pelvis);

    const c = compileGraph(feetSpec(clips[0]!.name, { legs: rig.legs }), skeleton, clips);
    assert.ok(c.graph, JSON.stringify(c.diagnostics));
    assert.deepEqual([...c.graph.ik[0]!.direction], rig.up, rig.file);
    assert.equal(c.graph.ik[0]!.joints[0], skeleton.indexOf.get(rig.pelvis));
    const info = (code: string) => c.diagnostics.find((d) => d.code === code);
    assert.equal(info("I_IK_UP_DERIVED")?.severity, "info");
    assert.match(info("I_IK_UP_DERIVED")!.message, new RegExp(`no "up" given: \\[${rig.up.join(", ")}\\], from the legs' rest pose`));
    assert.equal(info("I_IK_UP_DERIVED")!.pointer, "/ik/0", "a key not written points at its layer in the text");
    assert.match(info("I_IK_PELVIS_DERIVED")!.message, new RegExp(`no "pelvis" given: "${rig.pelvis}"`));
    // A ground normal left out is the up found; an up or pelvis given is used as given, without a word.
    assert.deepEqual([...c.graph.ik[0]!.values.subarray(1, 4)], rig.up);
    const given = compileGraph(feetSpec(clips[0]!.name, { legs: rig.legs, up: rig.up, pelvis: rig.pelvis }), skeleton, clips);
    assert.ok(given.graph && !given.diagnostics.some((d) => d.code.startsWith("I_IK_")), JSON.stringify(given.diagnostics));
    // With the same up and pelvis the two graphs play the same poses, bit for bit.
    const a = createInstance(c.graph), b = createInstance(given.graph);
    for (const inst of [a, b]) setParam(inst, "groundHeight", 0.05);
    for (let f = 0; f < 5; f++) assert.deepEqual(step(c.graph, a, 1 / 30).pose.t, step(given.graph, b, 1 / 30).pose.t);
  }
});

test("RobotExpressive with no up or pelvis given: on a 20 % slope each foot keeps its animated height above the ground within 1e-4 of the leg (with the old default up [0, 1, 0] a foot missed by 18 % of the leg)", { skip }, async () => {
  const { skeleton: robot, clips } = await loadRig(sharedAsset("robot-expressive/RobotExpressive.glb"));
  assert.ok(robot);
  const legs = RIGS[0].legs;
  const idx = (n: string): number => robot.indexOf.get(n)!;
  const rest = positions(robot, robot.rest);
  const dist = (p: Float64Array, a: number, b: number): number => Math.hypot(p[3 * a]! - p[3 * b]!, p[3 * a + 1]! - p[3 * b + 1]!, p[3 * a + 2]! - p[3 * b + 2]!);
  const leg = dist(rest, idx("UpperLeg.L"), idx("LowerLeg.L")) + dist(rest, idx("LowerLeg.L"), idx("Foot.L"));
  const slope = 0.2, height = 0.1 * leg;
  /** The worst |foot height − (its animated height + the ground under it)| over 90 frames, heights along +Z. */
  const worstOff = (clip: string, layer: Record<string, unknown>): number => {
    const c = compileGraph(feetSpec(clip, { legs, ground: { height: { param: "groundHeight" }, normal: [{ param: "slopeX" }, { param: "slopeY" }, { param: "slopeZ" }] }, ...layer }, { slopeX: float, slopeY: float, slopeZ: float }), robot, clips);
    assert.ok(c.graph, JSON.stringify(c.diagnostics));
    const inst = createInstance(c.graph), flat = createInstance(c.graph);
    setParam(flat, "feet", 0);
    setParam(inst, "groundHeight", height);
    // The plane's normal (−0.2, 0, 1) along the robot's Z-up, (−0.2, 1, 0) for a Y up: either way 20 % along x.
    const up = [...c.graph.ik[0]!.direction];
    setParam(inst, "slopeX", -slope);
    setParam(inst, "slopeY", up[1]!);
    setParam(inst, "slopeZ", up[2]!);
    let worst = 0;
    for (let f = 0; f < 90; f++) {
      const a = positions(robot, step(c.graph, flat, 1 / 30).pose), b = positions(robot, step(c.graph, inst, 1 / 30).pose);
      for (const foot of legs.map((l) => idx(l[2]))) worst = Math.max(worst, Math.abs(b[3 * foot + 2]! - (a[3 * foot + 2]! + height + slope * a[3 * foot]!)));
    }
    return worst / leg;
  };
  for (const clip of ["Walking", "Idle", "Running"]) {
    const off = worstOff(clip, {});
    assert.ok(off <= 1e-4, `${clip}: a foot is ${off.toExponential(2)} legs off its animated height above the slope`);
  }
  // The layer as it read before: up [0, 1, 0] (the old default) lifts the feet along the robot's y, sideways.
  const sideways = worstOff("Walking", { up: [0, 1, 0], pelvis: "Body" });
  assert.ok(sideways > 0.1, `with up [0, 1, 0] the feet are ${sideways} legs off`);
});

test("a foot-placement layer without pelvis whose legs have no joint above them is E_IK_NOT_A_CHAIN at /ik/0/pelvis in lint and compile", { skip }, async () => {
  const { skeleton: robot, clips } = await loadRig(sharedAsset("robot-expressive/RobotExpressive.glb"));
  assert.ok(robot);
  const text = feetSpec("Idle", { legs: [["Bone", "Body", "Hips"]] });
  const lint = lintGraph(text, { joints: robot.names, jointParents: robot.parents });
  const c = compileGraph(text, robot, clips);
  assert.equal(c.graph, undefined);
  for (const d of [lint, c.diagnostics].map((ds) => ds.find((x) => x.code === "E_IK_NOT_A_CHAIN"))) {
    assert.equal(d?.pointer, "/ik/0", "at the layer: the pelvis key is not written");
    assert.match(d!.message, /no "pelvis" given and no joint is above every leg/);
  }
});

test("lint with the rest pose warns at /ik/0/up about an up the robot's legs hang across or against, naming the up to use; the right up or none is clean", { skip }, async () => {
  const assets = await lintAssetsFromGltf(sharedAsset("robot-expressive/RobotExpressive.glb"));
  const options = { clips: assets.clips, joints: assets.joints, jointParents: assets.jointParents, jointRest: assets.jointRest };
  const legs = RIGS[0].legs;
  const findings = (up?: number[]) => lintGraph(feetSpec("Idle", { legs, ...(up ? { up } : {}) }), options);
  for (const [up, side, degrees] of [[[0, 1, 0], "across", 93], [[1, 0, 0], "across", 90], [[0, 0, -1], "against", 177], [[0, 1, 0.5], "across", 66]] as const) {
    const w = findings([...up]).filter((d) => d.code === "W_IK_UP_ACROSS_LEGS");
    assert.equal(w.length, 1, JSON.stringify(up));
    assert.equal(w[0]!.pointer, "/ik/0/up");
    assert.equal(w[0]!.severity, "warning");
    assert.match(w[0]!.message, new RegExp(`up \\[${up.join(", ")}\\] is ${degrees}° from the legs' rest direction \\(feet to hips \\[-0\\.002, -0\\.047, 0\\.999\\]\\): the legs hang ${side} it; use "up": \\[0, 0, 1\\]`));
  }
  for (const up of [[0, 0, 1], [0, 0.3, 1], undefined]) assert.deepEqual(findings(up).filter((d) => d.severity !== "info"), [], JSON.stringify(up));
  // Without the rest pose there is nothing to measure.
  assert.deepEqual(lintGraph(feetSpec("Idle", { legs, up: [0, 1, 0] }), { ...options, jointRest: undefined }).filter((d) => d.code === "W_IK_UP_ACROSS_LEGS"), []);

  // The CLI reads the rest pose from --clips: file, pointer, line, the message, exit 1 (a finding).
  const dir = mkdtempSync(join(tmpdir(), "animgraph-legs-up-"));
  writeFileSync(join(dir, "feet.json"), feetSpec("Idle", { legs, up: [0, 1, 0] }));
  writeFileSync(join(dir, "found.json"), feetSpec("Idle", { legs }));
  let out = "";
  const io: CliIo = { stdout: (t) => void (out += t), stderr: (t) => void (out += t), cwd: dir };
  assert.equal(await main(["lint", "feet.json", "--clips", sharedAsset("robot-expressive/RobotExpressive.glb")], io), 1, out);
  assert.match(out, /feet\.json: \/ik\/0\/up: warning: IK layer "feet": up \[0, 1, 0\] is 93° from the legs' rest direction .*use "up": \[0, 0, 1\] .*\[W_IK_UP_ACROSS_LEGS\]/);
  out = "";
  assert.equal(await main(["lint", "found.json", "--clips", sharedAsset("robot-expressive/RobotExpressive.glb")], io), 0, out);
  assert.equal(out, "1 file: no findings\n");
});
