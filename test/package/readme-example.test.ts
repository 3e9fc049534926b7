// The README's first API example, as a newcomer copies it: taken from README.md as it stands, run by
// Node in a fresh project that installed animgraph from the packed tarball (dist/ is built by `npm test`
// before this runs). The spec in it is a plain object built in code and goes through createAnimator.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error -- a plain .mjs script shared with `npm run size`
import { createApp, packTarball, removeApp } from "../../scripts/package-app.mjs";
import { repoPath } from "../helpers/assets.ts";

let packDir = "";
let tarball = "";
before(() => {
  packDir = mkdtempSync(join(tmpdir(), "animgraph-pack-"));
  tarball = packTarball(packDir) as string;
});
after(() => rmSync(packDir, { recursive: true, force: true }));

/** The first ```js block after the "## The API" heading. */
function firstApiExample(): string {
  const readme = readFileSync(repoPath("README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## The API\n"));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(match, "README has a js example under ## The API");
  return match[1]!;
}

test("the README's first API example (a graph built in code, createAnimator) runs in an installed project", () => {
  const code = firstApiExample();
  assert.match(code, /createAnimator\(/);
  assert.match(code, /const spec = \{/, "the spec is built in code");
  assert.doesNotMatch(code, /parseJsonText|readFileSync/, "no file or JSON text in the first example");
  const app = createApp(tarball, { "example.mjs": code }) as string;
  try {
    const out = execFileSync(process.execPath, ["example.mjs"], { cwd: app, encoding: "utf8" });
    const lines = out.trim().split("\n");
    // No diagnostic is printed (the spec is clean), then the run: Move, the jump at frame 30, its landing, Move again.
    assert.ok(lines.every((l) => /^\d+ (stateEntered|notify) \S+$/.test(l)), out);
    const entered = lines.filter((l) => l.includes("stateEntered")).map((l) => l.split(" ")[2]);
    assert.deepEqual(entered, ["Move", "Jump", "Move"]);
    assert.ok(lines.includes("30 stateEntered Jump"), out);
    assert.ok(lines.some((l) => l.endsWith("notify land")), out);
    assert.ok(lines.filter((l) => l.endsWith("notify footstep")).length >= 2, out);
  } finally {
    removeApp(app);
  }
});
