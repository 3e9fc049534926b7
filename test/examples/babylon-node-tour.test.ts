// examples/babylon/node-tour.mjs (the code docs/babylon.md shows) runs in Node against the built
// package, through its own "animgraph" and "animgraph/babylon" exports, and prints what the docs say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { repoPath } from "../helpers/assets.ts";

const built = existsSync(repoPath("dist/babylon/index.js"));

test("node-tour.mjs: the forearm waves, and clipFromBabylon gives Wave's 17 tracks", { skip: built ? false : "run npm run build first" }, () => {
  const r = spawnSync(process.execPath, [repoPath("examples/babylon/node-tour.mjs")], { encoding: "utf8", cwd: repoPath(".") });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.equal(r.stdout, [
    "t=0.00 s  LowerArm.R: rotated 81.2°",
    "t=0.25 s  LowerArm.R: rotated 42.3°",
    "t=0.50 s  LowerArm.R: rotated 45.5°",
    "t=0.75 s  LowerArm.R: rotated 53.1°",
    "t=1.00 s  LowerArm.R: rotated 63.3°",
    "17 tracks, 1.8333 s",
    "",
  ].join("\n"));
  // docs/babylon.md shows exactly this file.
  const doc = readFileSync(repoPath("docs/babylon.md"), "utf8");
  const tour = readFileSync(repoPath("examples/babylon/node-tour.mjs"), "utf8");
  assert.ok(doc.includes(tour.trim()), "docs/babylon.md quotes examples/babylon/node-tour.mjs as it is");
});

test("animgraph/babylon imports no Babylon module at run time (an optional peer: installing it is the app's choice)", { skip: built ? false : "run npm run build first" }, () => {
  for (const name of readdirSync(repoPath("dist/babylon")).filter((f) => f.endsWith(".js"))) {
    const js = readFileSync(repoPath(`dist/babylon/${name}`), "utf8");
    assert.doesNotMatch(js, /from\s+["']@babylonjs\//, `dist/babylon/${name}`);
    assert.doesNotMatch(js, /import\(["']@babylonjs\//, `dist/babylon/${name}`);
  }
});
