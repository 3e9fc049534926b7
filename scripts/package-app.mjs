// Builds browser apps against animgraph as its users get it: from the packed tarball (`npm pack`),
// unpacked into a temporary project's node_modules. Used by `npm run size`, the package tests and the
// examples' tests. The project's other dependencies (three, vite, …) are linked from this checkout's
// node_modules, so nothing is downloaded.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const REPO = fileURLToPath(new URL("../", import.meta.url));

/** Packs the built package (dist must be current: `npm run build`) into `outDir`; returns the tarball path. */
export function packTarball(outDir) {
  mkdirSync(outDir, { recursive: true });
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", outDir], { cwd: REPO, encoding: "utf8" });
  const [{ filename }] = JSON.parse(out);
  return join(outDir, filename);
}

/**
 * A temporary project holding `files` (relative path → text or a file to copy `{ copy: path }`) with
 * the tarball unpacked as node_modules/animgraph and this checkout's other packages linked beside it.
 */
export function createApp(tarball, files) {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-app-"));
  const modules = join(dir, "node_modules");
  mkdirSync(modules);
  execFileSync("tar", ["-xzf", tarball, "-C", dir]);
  renameSync(join(dir, "package"), join(modules, "animgraph"));
  for (const name of readdirSync(join(REPO, "node_modules"))) {
    if (name === "animgraph" || name.startsWith(".")) continue;
    symlinkSync(join(REPO, "node_modules", name), join(modules, name), "dir");
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "animgraph-user-app", private: true, type: "module" }));
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(resolve(path, ".."), { recursive: true });
    if (typeof content === "string") writeFileSync(path, content);
    else cpSync(content.copy, path, { recursive: true });
  }
  return dir;
}

/** Removes a project made by createApp. */
export function removeApp(dir) {
  if (basename(dir).startsWith("animgraph-app-")) rmSync(dir, { recursive: true, force: true });
}

/**
 * `vite build` of the app in `dir` (its index.html) with Vite's defaults, as a user would run it.
 * Returns every warning Vite printed and the emitted JavaScript with raw and gzip sizes.
 */
export async function viteBuild(dir, { outDir = "dist" } = {}) {
  const { build, createLogger } = await import("vite");
  const warnings = [];
  const logger = createLogger("warn", { allowClearScreen: false });
  logger.warn = (msg) => warnings.push(msg);
  logger.warnOnce = (msg) => warnings.push(msg);
  logger.error = (msg) => warnings.push(`error: ${msg}`);
  // Rolldown's bundlerTimings check warns when plugins take much of a build longer than 3 s, which a loaded
  // machine's build can be: a note on build speed, not on what the app bundles (the warnings tests read).
  const rolldownOptions = { checks: { bundlerTimings: false } };
  await build({ root: dir, logLevel: "warn", customLogger: logger, configFile: false, build: { outDir, chunkSizeWarningLimit: 5000, rolldownOptions } });
  const assets = join(dir, outDir, "assets");
  const js = existsSync(assets) ? readdirSync(assets).filter((f) => f.endsWith(".js")) : [];
  let bytes = 0;
  let gzipBytes = 0;
  for (const f of js) {
    const data = readFileSync(join(assets, f));
    bytes += data.length;
    gzipBytes += gzipSync(data, { level: 9 }).length;
  }
  return { warnings, bytes, gzipBytes };
}
