// End-to-end test of the drawn crowd (instanced GPU skinning) in headless Chromium: a crowd of 1,000
// costs one draw call per mesh of the character, many characters are visible on screen, their poses
// differ, the shader's skinning matrices match three.js's own, and the update-rate LOD skips work.
// WebGL runs on SwiftShader (a CPU rasteriser): a frame of 1,000 robots takes seconds here.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, preview, type PreviewServer } from "vite";
import { chromium, type Browser, type Page } from "playwright-core";
import { repoPath } from "../helpers/assets.ts";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

let server: PreviewServer | undefined;
// Its own build directory: other end-to-end files build the studio into studio/dist at the same time.
const outDir = mkdtempSync(join(tmpdir(), "animgraph-crowd-e2e-"));
let browser: Browser | undefined;
let page: Page;
const pageErrors: string[] = [];

interface CrowdDraw {
  characters: number; drawCalls: number; updated: number; steps: number; lod: boolean;
  calls: number; characterDrawItems: number; sceneDrawItems: number;
}

before(async () => {
  if (skip) return;
  const configFile = repoPath("studio/vite.config.ts");
  await build({ configFile, logLevel: "error", build: { outDir, emptyOutDir: true } });
  server = await preview({ configFile, build: { outDir }, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(server.resolvedUrls!.local[0]!);
  await page.waitForFunction("window.animgraphStudio !== undefined");
  await page.evaluate("window.animgraphStudio.ready");
}, { timeout: 180_000 });

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
  rmSync(outDir, { recursive: true, force: true });
});

// Page code is passed as strings: tsx would wrap named functions in a helper the page does not have.
const crowdDraw = (): Promise<CrowdDraw | null> =>
  page.evaluate("(() => { const d = window.animgraphStudio.crowdDraw(); return d && { characters: d.characters, drawCalls: d.drawCalls, updated: d.updated, steps: d.steps, lod: d.lod, calls: d.calls, characterDrawItems: d.characterDrawItems, sceneDrawItems: d.sceneDrawItems }; })()");
/** Sets the crowd and waits until it is drawn (the studio builds it a quarter second after the last change). */
async function setCrowd(size: number, on = true): Promise<void> {
  await page.evaluate(`(() => {
    document.querySelector("#crowd-size").value = "${size}";
    const toggle = document.querySelector("#toggle-crowd");
    toggle.checked = ${on};
    toggle.dispatchEvent(new Event("change"));
  })()`);
  await page.waitForFunction(on ? `window.animgraphStudio.crowdDraw()?.characters === ${size}` : "window.animgraphStudio.crowdDraw() === null", undefined, { timeout: 60_000 });
}
/** Resolves once the page has drawn `n` more frames. */
const frames = (n: number): Promise<unknown> =>
  page.evaluate(`(async () => { const s = window.animgraphStudio; const end = s.frames() + ${n}; while (s.frames() < end) await new Promise((r) => requestAnimationFrame(r)); })()`);
const setChecked = (id: string, on: boolean): Promise<unknown> =>
  page.evaluate(`(() => { const t = document.querySelector("#${id}"); t.checked = ${on}; t.dispatchEvent(new Event("change")); })()`);

/** Draw items of RobotExpressive straight from the file: one per primitive of every mesh node. */
function robotPrimitives(): number {
  const glb = readFileSync(repoPath("examples/robot/RobotExpressive.glb"));
  const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString("utf8")) as { nodes: { mesh?: number }[]; meshes: { primitives: unknown[] }[] };
  return json.nodes.reduce((n, node) => n + (node.mesh === undefined ? 0 : json.meshes[node.mesh]!.primitives.length), 0);
}

test("a crowd of 1,000 is drawn with one draw call per mesh of the character, the same as a crowd of 1", { skip, timeout: 180_000 }, async () => {
  const meshes = robotPrimitives();
  await setCrowd(1000);
  await frames(2);
  const big = (await crowdDraw())!;
  assert.equal(big.characters, 1000);
  assert.equal(big.characterDrawItems, meshes, "the studio's robot draws one item per glTF primitive");
  assert.equal(big.drawCalls, meshes, "the crowd: one instanced draw per mesh");
  // Everything the scene draws: the studio's own robot, the crowd, the ground grid (one line draw).
  assert.equal(big.calls, 2 * meshes + 1);
  await setCrowd(1);
  await frames(2);
  const one = (await crowdDraw())!;
  assert.equal(one.characters, 1);
  assert.equal(one.calls, big.calls, "draw calls do not grow with the crowd");
  await setCrowd(1000, false);
  await frames(2);
  assert.equal(await crowdDraw(), null);
  assert.equal(await page.evaluate("window.animgraphStudio.frameTimes().frames > 0"), true);
  assert.deepEqual(pageErrors, []);
});

test("many characters are visible: hiding the crowd changes pixels all over the view", { skip, timeout: 180_000 }, async (t) => {
  await setChecked("toggle-pause", true);
  await setCrowd(1000);
  await frames(2);
  // Cells of a 16 × 9 grid over the canvas where the crowd covers at least 0.5% of the pixels.
  const cells = await page.evaluate(`(async () => {
    const s = window.animgraphStudio;
    const canvas = document.querySelector("#viewport canvas");
    const grab = () => {
      const off = document.createElement("canvas");
      off.width = canvas.width; off.height = canvas.height;
      const ctx = off.getContext("2d");
      ctx.drawImage(canvas, 0, 0);
      return ctx.getImageData(0, 0, off.width, off.height).data;
    };
    const wait = async (n) => { const end = s.frames() + n; while (s.frames() < end) await new Promise((r) => requestAnimationFrame(r)); };
    const withCrowd = grab();
    s.setCrowdVisible(false);
    await wait(2);
    const without = grab();
    s.setCrowdVisible(true);
    const W = canvas.width, H = canvas.height, counts = new Array(16 * 9).fill(0);
    let changed = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const o = 4 * (y * W + x);
      const d = Math.abs(withCrowd[o] - without[o]) + Math.abs(withCrowd[o + 1] - without[o + 1]) + Math.abs(withCrowd[o + 2] - without[o + 2]);
      if (d > 24) { changed++; counts[Math.floor((16 * x) / W) + 16 * Math.floor((9 * y) / H)]++; }
    }
    const cell = (W / 16) * (H / 9);
    return { changed: changed / (W * H), cells: counts.filter((c) => c >= 0.005 * cell).length };
  })()`) as { changed: number; cells: number };
  t.diagnostic(`crowd in ${cells.cells} of 144 cells, ${(100 * cells.changed).toFixed(1)}% of the pixels`);
  assert.ok(cells.cells >= 40, `the crowd shows in ${cells.cells} of 144 screen cells`);
  assert.ok(cells.changed >= 0.05, `the crowd covers ${(100 * cells.changed).toFixed(1)}% of the view`);
  await setChecked("toggle-pause", false);
  assert.deepEqual(pageErrors, []);
});

test("poses differ across the crowd and match three.js's own skinning; the update-rate LOD evaluates fewer characters", { skip, timeout: 180_000 }, async (t) => {
  await setCrowd(1000);
  await frames(3);
  const distinct = await page.evaluate("window.animgraphStudio.crowdDraw().distinctPoses(64)") as number;
  t.diagnostic(`${distinct} distinct poses among 64 sampled characters`);
  assert.ok(distinct >= 8, `${distinct} distinct poses among 64 characters`);
  for (const index of [0, 17, 999]) {
    const worst = await page.evaluate(`window.animgraphStudio.crowdDraw().agreementWithThree(${index})`) as number;
    assert.ok(worst <= 1e-4, `character ${index}: skinning matrices differ from three.js's by ${worst}`);
  }
  await setChecked("toggle-crowd-lod", false);
  await frames(2);
  const all = (await crowdDraw())!;
  assert.equal(all.lod, false);
  assert.ok(all.steps > 0);
  assert.equal(all.updated, 1000 * all.steps, "without LOD every character is evaluated at every step");
  await setChecked("toggle-crowd-lod", true);
  await frames(2);
  const lod = (await crowdDraw())!;
  t.diagnostic(`LOD on: ${lod.updated} evaluations in ${lod.steps} steps; off: ${all.updated} in ${all.steps}`);
  assert.ok(lod.steps > 0 && lod.updated > 0 && lod.updated < 1000 * lod.steps, `LOD: ${lod.updated} evaluations in ${lod.steps} steps`);
  assert.match(await page.locator("#perf").textContent() ?? "", /evaluate [\d.]+ ms \(IQR [\d.]+\) · render [\d.]+ ms \(IQR [\d.]+\) · upload [\d.]+ ms \(IQR [\d.]+\)/);
  assert.match(await page.locator("#perf").textContent() ?? "", /crowd drawn: 1000 in \d+ draw call\(s\), \d+ evaluated this frame \(update-rate LOD\)/);
  await setCrowd(1000, false);
  assert.deepEqual(pageErrors, []);
});
