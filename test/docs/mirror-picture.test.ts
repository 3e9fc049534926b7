// docs/mirroring/robot-mirrored.svg is current: scripts/docs-mirror.mjs --check mirrors the robot with the
// CLI again, redraws the picture in memory from the written file and compares it with the committed one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { repoPath } from "../helpers/assets.ts";

test("the mirroring picture is what the code draws now (else run npm run docs:mirror)", { skip: !existsSync(repoPath("dist/cli/main.js")) && "dist/ not built" }, () => {
  const r = spawnSync(process.execPath, [repoPath("scripts/docs-mirror.mjs"), "--check"], { cwd: repoPath("."), encoding: "utf8" });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  const svg = readFileSync(repoPath("docs/mirroring/robot-mirrored.svg"), "utf8");
  // The measured gaps printed in the picture are small: the mirror is where the reflection says.
  const m = /hand ([\d.]+) % of arm, foot ([\d.]+) % of leg/.exec(svg);
  assert.ok(m, "the picture states the measured gaps");
  // The robot's bind pose itself is 3 % of an arm off symmetric at the shoulders (Shoulder.L 5.8, Shoulder.R −6.4 units across).
  assert.ok(Number(m[1]) < 5 && Number(m[2]) < 0.6, m[0]);
  assert.ok(readFileSync(repoPath("docs/mirroring.md"), "utf8").includes("mirroring/robot-mirrored.svg"));
  assert.ok(readFileSync(repoPath("README.md"), "utf8").includes("docs/mirroring/robot-mirrored.svg"));
});
