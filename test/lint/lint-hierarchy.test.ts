// "A graph `lint` calls clean always compiles" (README, The CLI) with a character given: the hierarchy rules
// compileGraph applies, IK chains (E_IK_NOT_A_CHAIN) and the parents of mirrored joints (E_MIRROR_HIERARCHY),
// are lint findings too once the linter knows the joints' parents (`jointParents`, `animgraph lint --clips`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import type { CliIo } from "../../src/cli/context.ts";
import { createProceduralClip } from "../../src/graph/motion-source.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { lintAssetsFromGltf } from "../../src/lint/clips-from-gltf.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { repoPath } from "../helpers/assets.ts";
import { throwsArgument } from "../helpers/throws-argument.ts";

const ROBOT = repoPath("examples/robot/RobotExpressive.glb");
const robotSpec = JSON.parse(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8")) as Record<string, unknown>;
const gltf = await loadGltfFile(ROBOT);
const robot = gltf.skeletons[0]!;
const assets = await lintAssetsFromGltf(ROBOT);

/** The robot example with these IK layers. */
function withIk(ik: unknown[]): Record<string, unknown> {
  return { ...robotSpec, parameters: { ...(robotSpec["parameters"] as object), groundY: { type: "float" } }, ik };
}

const errors = (ds: readonly { severity: string; pointer: string; code: string }[]): string[] =>
  ds.filter((d) => d.severity === "error").map((d) => `${d.pointer} ${d.code}`).sort();

// RobotExpressive's feet hang from the root bone (an IK rig, which a leg accepts), and its legs from Body, not Hips.
const LAYERS: Record<string, unknown[]> = {
  "feet of the robot's IK rig": [{ name: "feet", solver: "footPlacement", pelvis: "Hips", ground: { height: { param: "groundY" } },
    legs: [["UpperLeg.L", "LowerLeg.L", "Foot.L"], ["UpperLeg.R", "LowerLeg.R", "Foot.R"]] }],
  "feet of the robot's IK rig below Body": [{ name: "feet", solver: "footPlacement", pelvis: "Body", ground: { height: { param: "groundY" } },
    legs: [["UpperLeg.L", "LowerLeg.L", "Foot.L"], ["UpperLeg.R", "LowerLeg.R", "Foot.R"]] }],
  "a hand for a foot": [{ name: "feet", solver: "footPlacement", pelvis: "Body", ground: { height: { param: "groundY" } },
    legs: [["UpperLeg.L", "LowerLeg.L", "Palm2.L"]] }],
  "a joint twice": [{ name: "hand", solver: "twoBone", joints: ["UpperArm.R", "UpperArm.R", "LowerArm.R"], target: [0, 1, 0] }],
  "a chain across the body": [{ name: "hand", solver: "twoBone", joints: ["UpperArm.L", "LowerArm.R", "Palm2.R"], target: [0, 1, 0] }],
  "an aim chain upside down": [{ name: "look", solver: "aim", chain: ["Head", "Neck", "Torso"], target: [0, 2, 3] }],
  "a real arm": [{ name: "hand", solver: "twoBone", joints: ["UpperArm.R", "LowerArm.R", "Palm2.R"], target: [-1, 2, 1] }],
  "a real spine": [{ name: "look", solver: "aim", chain: ["Torso", "Neck", "Head"], target: [0, 2, 3] }],
};

test("with the robot's joints and parents, lint reports exactly the IK chain errors compileGraph refuses", () => {
  for (const [what, ik] of Object.entries(LAYERS)) {
    const spec = withIk(ik);
    const lint = errors(lintGraph(spec, { clips: assets.clips, joints: assets.joints, jointParents: assets.jointParents }));
    const compiled = compileGraph(spec, robot, gltf.clips);
    assert.deepEqual(lint, errors(compiled.diagnostics), what);
    assert.equal(lint.length === 0, compiled.graph !== undefined, what);
  }
  const feet = errors(lintGraph(withIk(LAYERS["feet of the robot's IK rig"]!), { joints: robot.names, jointParents: robot.parents }));
  assert.deepEqual(feet, ["/ik/0/legs/0/0 E_IK_NOT_A_CHAIN", "/ik/0/legs/1/0 E_IK_NOT_A_CHAIN"]);
  assert.deepEqual(errors(lintGraph(withIk(LAYERS["feet of the robot's IK rig below Body"]!), { joints: robot.names, jointParents: robot.parents })), []);
  assert.deepEqual(errors(lintGraph(withIk(LAYERS["a hand for a foot"]!), { joints: robot.names, jointParents: robot.parents })), ["/ik/0/legs/0/2 E_IK_NOT_A_CHAIN"]);
  // Without parents the linter cannot tell (and says nothing false).
  assert.deepEqual(errors(lintGraph(withIk(LAYERS["a joint twice"]!), { joints: robot.names })), []);
});

test("lintAssetsFromGltf gives each joint's parent as an index into its joint list", () => {
  assert.equal(assets.jointParents.length, assets.joints.length);
  robot.names.forEach((name, j) => {
    const at = assets.joints.indexOf(name);
    const parent = robot.parents[j]!;
    assert.equal(assets.jointParents[at], parent < 0 ? -1 : assets.joints.indexOf(robot.names[parent]!), name);
  });
});

test("lint with parents reports a mirrored clip whose paired joints have unpaired parents, as compileGraph does", () => {
  const skeleton = createSkeleton({ names: ["Hips", "Arm.L", "Arm.R", "Hand.L", "Hand.R"], parents: [-1, 0, 0, 1, 1] });
  const clip = createProceduralClip({ name: "a", duration: 1, sample: (out) => out.r.fill(0) });
  const spec = { animgraph: 1, layers: [{ name: "base", machine: { entry: "A", states: { A: { clip: "a", mirror: true } } } }] };
  const lint = lintGraph(spec, { joints: skeleton.names, jointParents: skeleton.parents }).filter((d) => d.code === "E_MIRROR_HIERARCHY");
  assert.deepEqual(lint.map((d) => d.pointer), ["/layers/0/machine/states/A/mirror"]);
  assert.equal(compileGraph(spec, skeleton, [clip]).diagnostics.find((d) => d.code === "E_MIRROR_HIERARCHY")?.pointer, lint[0]!.pointer);
});

test("lintGraph checks jointParents: it needs the joint names and a parent for each", () => {
  throwsArgument(() => lintGraph(withIk([]), { jointParents: [-1] }), "ERR_ARGUMENT", /lintGraph: options\.joints must be the joint names that options\.jointParents indexes/);
  throwsArgument(() => lintGraph(withIk([]), { joints: ["a", "b"], jointParents: [-1] }), "ERR_OUT_OF_RANGE", /options\.jointParents/);
  throwsArgument(() => lintGraph(withIk([]), { joints: ["a"], jointParents: "0" as never }), "ERR_ARGUMENT", /options\.jointParents/);
});

test("animgraph lint --clips reports the chain error at its pointer (exit 1), where it used to say 0 errors", async () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-lint-hierarchy-"));
  writeFileSync(join(dir, "feet.json"), JSON.stringify(withIk(LAYERS["a joint twice"]!), null, 2));
  let out = "", err = "";
  const io: CliIo = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd: dir };
  const code = await main(["lint", "feet.json", "--clips", ROBOT], io);
  assert.equal(code, 1, out + err);
  assert.match(out, /^feet\.json: \/ik\/0\/joints\/1: IK layer "hand": "UpperArm\.R" is not an ancestor of "UpperArm\.R" \[E_IK_NOT_A_CHAIN\]$/m);
  assert.match(out, /1 file: 1 error/);
});

test("lintGraph refuses jointParents that are not parents before children (as Skeleton.parents), so no walk up can loop", () => {
  throwsArgument(() => lintGraph(withIk([]), { joints: ["a", "b"], jointParents: [1, 0] }), "ERR_OUT_OF_RANGE", /options\.jointParents\[0\] must be -1 or a parent index below 0/);
  throwsArgument(() => lintGraph(withIk([]), { joints: ["a", "b"], jointParents: [-1, 1.5] }), "ERR_OUT_OF_RANGE", /options\.jointParents\[1\]/);
});
