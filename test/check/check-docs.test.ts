// docs/check.md's example is real: its transcript is what `animgraph check` prints on the bundled
// jump-gap example (the wall-clock seconds aside), and its properties block is the bundled file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { main } from "../../src/cli/main.ts";
import { repoPath } from "../helpers/assets.ts";

const doc = readFileSync(repoPath("docs/check.md"), "utf8");
const seconds = (s: string): string => s.replace(/, [\d.]+ s: complete/g, ", N s: complete");

test("docs/check.md's transcript is what the command prints", async () => {
  const command = "animgraph check examples/check/jump-gap.animgraph.json --clips examples/robot/RobotExpressive.glb --prop examples/check/jump-gap.prop";
  const block = new RegExp(`\\$ ${command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n([\\s\\S]*?)\`\`\``).exec(doc);
  assert.ok(block, "the transcript is in docs/check.md");
  let out = "";
  const code = await main(command.split(" ").slice(1), { stdout: (s) => { out += s; }, stderr: () => {}, cwd: repoPath(".") });
  assert.equal(code, 1);
  assert.equal(seconds(out), seconds(block[1]!));
});

test("docs/check.md shows the bundled properties file", () => {
  assert.ok(doc.includes(readFileSync(repoPath("examples/check/jump-gap.prop"), "utf8")));
});
