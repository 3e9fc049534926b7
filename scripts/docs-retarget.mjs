#!/usr/bin/env node
// `npm run docs:retarget`: renders the pictures in docs/retargeting.md. For each pair below it retargets
// the capture with the CLI, then three.js (GLTFLoader, BVHLoader, SkeletonHelper) in headless Chromium
// draws the capture's skeleton beside the character at six times, from the side and the front. It writes
// docs/retarget/<name>.png and docs/retarget/manifest.json (hashes of the retargeted GLBs, of the page and
// three.js's version), which test/docs/retarget-pictures.test.ts compares to tell whether they are current.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SHARED = resolve(ROOT, "../shared/assets");
export const PAIRS = [
  { name: "131_01-robot", title: "CMU 131_01 (left) → RobotExpressive (right)", source: "bvh-cmu-131/131_01.bvh", target: "examples/robot/RobotExpressive.glb" },
  { name: "131_01-cesium-man", title: "CMU 131_01 (left) → CesiumMan (right), mapped from topology", source: "bvh-cmu-131/131_01.bvh", target: "../shared/assets/cesium-man/CesiumMan.glb" },
];
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".glb": "model/gltf-binary", ".bvh": "text/plain" };

const work = mkdtempSync(join(tmpdir(), "animgraph-docs-retarget-"));
const outDir = join(ROOT, "docs/retarget");
mkdirSync(outDir, { recursive: true });
const manifest = { three: JSON.parse(readFileSync(join(ROOT, "node_modules/three/package.json"), "utf8")).version, page: sha256(readFileSync(join(ROOT, "scripts/docs-retarget/page.html"))), pictures: [] };

const server = createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
  let file;
  if (url === "/") file = join(ROOT, "scripts/docs-retarget/page.html");
  else if (url.startsWith("/three/")) file = join(ROOT, "node_modules", normalize(url).replace(/^\/+/, ""));
  else if (url.startsWith("/files/")) file = join(work, normalize(url.slice(7)));
  else if (url.startsWith("/shared/")) file = join(SHARED, normalize(url.slice(8)));
  try {
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1800, height: 760 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  await page.waitForFunction(() => globalThis.pageReady === true);
  for (const pair of PAIRS) {
    const glb = join(work, `${pair.name}.glb`);
    const r = spawnSync(process.execPath, [join(ROOT, "bin/animgraph.js"), "retarget", join(SHARED, pair.source), "--to", resolve(ROOT, pair.target), "--name", "Retargeted", "--out", glb], { encoding: "utf8" });
    if (r.status !== 0 && r.status !== 1) throw new Error(`retarget ${pair.name} failed (${r.status}): ${r.stderr}`);
    const dataUrl = await page.evaluate(([bvh, file, title]) => globalThis.renderPictures(bvh, file, "Retargeted", title), [`/shared/${pair.source}`, `/files/${pair.name}.glb`, pair.title]);
    if (errors.length > 0) throw new Error(errors.join("\n"));
    writeFileSync(join(outDir, `${pair.name}.png`), Buffer.from(dataUrl.split(",")[1], "base64"));
    manifest.pictures.push({ name: pair.name, source: pair.source, target: pair.target, glbSha256: sha256(readFileSync(glb)) });
    console.log(`docs/retarget/${pair.name}.png`);
  }
  writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
} finally {
  await browser.close();
  server.close();
  rmSync(work, { recursive: true, force: true });
}
