// The README's examples are real: its spec example lints clean against RobotExpressive, its blend-check
// transcript is what the command prints, and the API tour runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { main } from "../../src/cli/main.ts";
import { lintDocument, parseJsonText } from "../../src/index.ts";
import { lintAssetsFromGltf } from "../../src/node.ts";
import { repoPath } from "../helpers/assets.ts";

const readme = readFileSync(repoPath("README.md"), "utf8");

async function cli(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const code = await main(argv, { stdout: (s) => { out += s; }, stderr: () => {}, cwd: repoPath(".") });
  return { code, out };
}

test("the README's graph spec example lints clean against RobotExpressive", async () => {
  const block = /```json\n([\s\S]*?)```/.exec(readme)![1]!;
  const assets = await lintAssetsFromGltf(repoPath("examples/robot/RobotExpressive.glb"));
  const result = lintDocument(parseJsonText(block, "README.md"), { clips: assets.clips, joints: assets.joints });
  assert.deepEqual(result.diagnostics.map((d) => `${d.pointer} ${d.code}`), []);
});

test("the README's blend-check transcript is what the command prints", async () => {
  const block = /\$ npx animgraph blend-check examples\/stardust-inn\/ta09_blend.json\n([\s\S]*?)```/.exec(readme)![1]!;
  const r = await cli(["blend-check", repoPath("examples/stardust-inn/ta09_blend.json")]);
  assert.equal(r.code, 1);
  assert.equal(r.out, block);
});

test("the API tour runs", () => {
  const r = spawnSync(process.execPath, [repoPath("examples/api/play-robot.mjs")], { encoding: "utf8", cwd: repoPath(".") });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /entered Walk[\s\S]*entered Run[\s\S]*entered Jump/);
  assert.match(r.stdout, /crowd of 100 on the WebAssembly SIMD kernel: [\d.]+ ms per frame/);
});
