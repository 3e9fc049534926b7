// npm run size: what animgraph adds to a three.js app's bundle. Two apps are built with Vite from the
// packed tarball: three.js + GLTFLoader loading and rendering a character (the peer), and the same app
// driving it with a graph (fromThreeGltf, parse, compile, step, applyPoseToThree). Prints raw and gzip
// (level 9) sizes of the emitted JavaScript and the difference; test/package/size-budget.test.ts holds
// the difference under the budget.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createApp, packTarball, removeApp, REPO, viteBuild } from "./package-app.mjs";

/** The budget: gzip bytes animgraph's minimal runtime may add over three.js + GLTFLoader. */
export const SIZE_BUDGET_GZIP = 57 * 1024;

const probe = (name) => readFileSync(join(REPO, "scripts/size", name), "utf8");

/** Builds both apps from `tarball` and returns their sizes. */
export async function measureSize(tarball) {
  const results = {};
  for (const name of ["baseline", "runtime"]) {
    const dir = createApp(tarball, { "index.html": probe("index.html"), "main.js": probe(`${name}.js`) });
    try {
      results[name] = await viteBuild(dir);
    } finally {
      removeApp(dir);
    }
  }
  return {
    baseline: results.baseline,
    runtime: results.runtime,
    addedBytes: results.runtime.bytes - results.baseline.bytes,
    addedGzipBytes: results.runtime.gzipBytes - results.baseline.gzipBytes,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const packDir = mkdtempSync(join(tmpdir(), "animgraph-pack-"));
  try {
    const m = await measureSize(packTarball(packDir));
    const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
    console.log("| app (vite build, minified) | JS | gzip -9 |");
    console.log("| --- | ---: | ---: |");
    console.log(`| three.js + GLTFLoader (peer) | ${kb(m.baseline.bytes)} | ${kb(m.baseline.gzipBytes)} |`);
    console.log(`| + animgraph runtime | ${kb(m.runtime.bytes)} | ${kb(m.runtime.gzipBytes)} |`);
    console.log(`| **animgraph adds** | **${kb(m.addedBytes)}** | **${kb(m.addedGzipBytes)}** (budget ${kb(SIZE_BUDGET_GZIP)}) |`);
    for (const w of [...m.baseline.warnings, ...m.runtime.warnings]) console.log(`warning: ${w}`);
    if (m.addedGzipBytes > SIZE_BUDGET_GZIP) process.exitCode = 1;
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
}
