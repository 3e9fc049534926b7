// The package as users install it: packed with `npm pack`, unpacked into a fresh project, then
// bundled for the browser by Vite and imported by Node. (dist/ is built by `npm test` before this runs.)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
// @ts-expect-error -- a plain .mjs script shared with `npm run size`
import { createApp, packTarball, removeApp, viteBuild } from "../../scripts/package-app.mjs";
// @ts-expect-error -- a plain .mjs script
import { measureSize, SIZE_BUDGET_GZIP } from "../../scripts/size.mjs";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

let packDir = "";
let tarball = "";
before(() => {
  packDir = mkdtempSync(join(tmpdir(), "animgraph-pack-"));
  tarball = packTarball(packDir) as string;
});
after(() => rmSync(packDir, { recursive: true, force: true }));

/** Every module reachable from `entry` by static or dynamic import, and the bare specifiers they import. */
function importGraph(entry: string): { files: Set<string>; bare: Map<string, string> } {
  const files = new Set<string>();
  const bare = new Map<string, string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const code = readFileSync(file, "utf8");
    for (const m of code.matchAll(/(?:^|[\s;])(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm)) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith(".")) stack.push(resolve(dirname(file), spec));
      else if (!bare.has(spec)) bare.set(spec, file);
    }
  }
  return { files, bare };
}

test("the browser entries import no Node built-in, only delaunator and three", () => {
  const app = createApp(tarball, {});
  try {
    for (const entry of ["dist/index.js", "dist/three/index.js", "dist/babylon/index.js"]) {
      const { files, bare } = importGraph(join(app, "node_modules/animgraph", entry));
      assert.ok(files.size > 4, `${entry}: the import graph was followed (${files.size} modules)`);
      const packages = [...bare.keys()].map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/"));
      // The Babylon adapter imports only Babylon's types: it uses whatever copy of Babylon the app bundles.
      const expected = entry.includes("three") ? ["three"] : entry.includes("babylon") ? [] : ["delaunator"];
      assert.deepEqual([...new Set(packages)].sort(), expected,
        `${entry}: bare imports ${[...bare].map(([s, f]) => `${s} (${f})`).join(", ")}`);
    }
  } finally {
    removeApp(app);
  }
});

test("a Vite build of a browser app using all of animgraph, animgraph/three and animgraph/babylon prints no warning", async () => {
  const app = createApp(tarball, {
    "index.html": '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>',
    // Every export is reached, so nothing the entries hold can hide behind tree-shaking.
    "main.js": 'import * as animgraph from "animgraph";\nimport * as three from "animgraph/three";\nimport * as babylon from "animgraph/babylon";\ndocument.title = String(Object.keys(animgraph).length + Object.keys(three).length + Object.keys(babylon).length);\n',
  });
  try {
    const result = await viteBuild(app);
    assert.deepEqual(result.warnings, []);
    assert.ok(result.bytes > 100_000, `the bundle holds the library (${result.bytes} bytes)`);
  } finally {
    removeApp(app);
  }
});

test("esbuild bundles the same app for the browser platform with no warning and no error", async () => {
  // esbuild (here through tsx and vite) refuses Node built-ins on the browser platform outright.
  const { build } = await import("esbuild");
  const app = createApp(tarball, {
    "main.js": 'import * as animgraph from "animgraph";\nimport * as three from "animgraph/three";\nimport * as babylon from "animgraph/babylon";\nconsole.log(Object.keys(animgraph).length + Object.keys(three).length + Object.keys(babylon).length);\n',
  });
  try {
    const result = await build({ entryPoints: [join(app, "main.js")], bundle: true, platform: "browser", format: "esm", write: false, logLevel: "silent", absWorkingDir: app });
    assert.deepEqual([...result.errors, ...result.warnings].map((m) => m.text), []);
    assert.ok(result.outputFiles[0]!.contents.length > 100_000);
  } finally {
    removeApp(app);
  }
});

test("webpack (target web, production) bundles the same app with no warning and no error", async () => {
  // webpack 5 has no Node polyfills: a node:fs import anywhere would be a "Module not found" error.
  const { default: webpack } = await import("webpack");
  const app = createApp(tarball, {
    "main.js": 'import * as animgraph from "animgraph";\nimport * as three from "animgraph/three";\nimport * as babylon from "animgraph/babylon";\nconsole.log(Object.keys(animgraph).length + Object.keys(three).length + Object.keys(babylon).length);\n',
  });
  try {
    const stats = await new Promise<import("webpack").Stats>((resolve, reject) => {
      webpack({
        mode: "production", target: "web", context: app, entry: "./main.js",
        output: { path: join(app, "dist"), filename: "main.js" },
        performance: { hints: false }, // the size budget is measured separately, on the minimal runtime
        // Minifying runs in worker processes that inherit this test runner's TypeScript loader flags;
        // resolution and bundling are what this test is about.
        optimization: { minimize: false },
      }, (err, result) => (err || !result ? reject(err ?? new Error("no stats")) : resolve(result)));
    });
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual([...(info.errors ?? []), ...(info.warnings ?? [])].map((m) => m.message), []);
    assert.ok(readFileSync(join(app, "dist/main.js")).length > 100_000);
  } finally {
    removeApp(app);
  }
});

test(`the minimal runtime (fromThreeGltf, parse, compile, step, applyPoseToThree) adds at most ${SIZE_BUDGET_GZIP / 1024} kB gzip to a three.js app`, async () => {
  const m = await measureSize(tarball) as { addedGzipBytes: number; baseline: { warnings: string[] }; runtime: { warnings: string[] } };
  assert.deepEqual([...m.baseline.warnings, ...m.runtime.warnings], []);
  assert.ok(m.addedGzipBytes > 10_000, `the runtime is in the bundle (${m.addedGzipBytes} bytes)`);
  assert.ok(m.addedGzipBytes <= SIZE_BUDGET_GZIP, `animgraph adds ${(m.addedGzipBytes / 1024).toFixed(1)} kB gzip (budget ${SIZE_BUDGET_GZIP / 1024} kB)`);
});

test("Node users get the file-path API from animgraph/node, and the CLI runs from the installed package", () => {
  const app = createApp(tarball, {
    "check.mjs": `
import { loadGltfFile, readGraphSpec, compileGraph, createInstance, setParam, step } from "animgraph/node";
import * as browser from "animgraph";
const character = await loadGltfFile(process.argv[2]);
const { spec } = readGraphSpec(process.argv[3]);
const { graph } = compileGraph(spec, character.skeletons[0], character.clips);
const robot = createInstance(graph);
setParam(robot, "speed", 5);
for (let i = 0; i < 60; i++) step(graph, robot, 1 / 30);
console.log(JSON.stringify({ state: graph.layers[0].machine.states[robot.layers[0].current].name, browserHasFileApi: "loadGltfFile" in browser }));
`,
  });
  try {
    const out = execFileSync(process.execPath, ["check.mjs", repoPath("examples/robot/RobotExpressive.glb"), repoPath("examples/robot/robot.animgraph.json")], { cwd: app, encoding: "utf8" });
    assert.deepEqual(JSON.parse(out), { state: "Run", browserHasFileApi: false });
    const lint = execFileSync(process.execPath, [join(app, "node_modules/animgraph/bin/animgraph.js"), "lint", "node_modules/animgraph/examples/robot/robot.animgraph.json"], { cwd: app, encoding: "utf8" });
    assert.match(lint, /no findings|0 errors/i);
  } finally {
    removeApp(app);
  }
});

test("Babylon.js from the installed package: the Node tour (NullEngine, Babylon's glTF loader) prints what it prints in the checkout", () => {
  const app = createApp(tarball, {
    "tour/node-tour.mjs": { copy: repoPath("examples/babylon/node-tour.mjs") },
    "robot/RobotExpressive.glb": { copy: repoPath("examples/robot/RobotExpressive.glb") },
  });
  try {
    const installed = execFileSync(process.execPath, ["tour/node-tour.mjs"], { cwd: app, encoding: "utf8" });
    const checkout = execFileSync(process.execPath, [repoPath("examples/babylon/node-tour.mjs")], { encoding: "utf8" });
    assert.equal(installed, checkout);
    assert.match(installed, /rotated [\d.]+°/);
  } finally {
    removeApp(app);
  }
});

test("VRM animation from the installed package: loadVrmaFile reads test.vrma and the CLI retargets it onto the robot", { skip: !HAVE_SHARED_ASSETS && "no ../shared/assets" }, () => {
  const app = createApp(tarball, {
    "check.mjs": `
import { loadVrmaFile } from "animgraph/node";
const vrma = await loadVrmaFile(process.argv[2]);
console.log(JSON.stringify({ ok: vrma.ok, hips: vrma.humanBones.has("hips"), floats: vrma.clips[0].floatTracks.map((t) => t.target).filter((n) => n === "lookAt" || n.startsWith("expression:")).length > 0 }));
`,
  });
  try {
    const vrma = sharedAsset("vrma/test.vrma");
    const out = execFileSync(process.execPath, ["check.mjs", vrma], { cwd: app, encoding: "utf8" });
    assert.deepEqual(JSON.parse(out), { ok: true, hips: true, floats: true });
    const cli = execFileSync(process.execPath, [join(app, "node_modules/animgraph/bin/animgraph.js"), "retarget", vrma, "--to", "node_modules/animgraph/examples/robot/RobotExpressive.glb", "--name", "Wave", "--out", "wave.glb"], { cwd: app, encoding: "utf8" });
    assert.match(cli, /added animation "Wave"/);
    assert.ok(readFileSync(join(app, "wave.glb")).length > 100_000);
  } finally {
    removeApp(app);
  }
});
