// examples/babylon/ end to end, installed from the packed tarball: built with Vite, served, and driven in headless Chromium (Debian's
// package via playwright-core; WebGL through SwiftShader). The robot must render, follow the graph's
// states as the controls change and move its joints every frame.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { NO_CHROMIUM as skip, openPackedExample, type PackedExample } from "../helpers/packed-example.ts";
import { repoPath } from "../helpers/assets.ts";

let example: PackedExample | undefined;
let page: Page;
let consoleErrors: string[] = [];
let buildWarnings: readonly string[] = [];

before(async () => {
  if (skip) return;
  // Vite's defaults, no alias to the sources: the bundle pulls in nothing of Node, so Vite warns about nothing.
  example = await openPackedExample({ "index.html": repoPath("examples/babylon/index.html"), "main.ts": repoPath("examples/babylon/main.ts") }, { width: 960, height: 720 });
  ({ page, errors: consoleErrors, buildWarnings } = example);
  await page.waitForFunction(() => (window as unknown as { babylonExample?: unknown }).babylonExample !== undefined);
  await page.evaluate(() => (window as unknown as { babylonExample: { ready: Promise<void> } }).babylonExample.ready);
  await page.waitForFunction(() => document.body.dataset["state"] !== undefined, undefined, { timeout: 60_000 });
}, { timeout: 180_000 });

after(async () => {
  await example?.close();
});

/** Reads, in the page, every node's local rotation (x, y, z, w in a row). */
const probe = (): Promise<{ rotations: number[] }> =>
  page.evaluate(() => {
    type V = { x: number; y: number; z: number; w?: number };
    type N = { rotationQuaternion: V | null };
    const scene = (window as unknown as { babylonExample: { scene: { getNodes(): N[] } } }).babylonExample.scene;
    const nodes = scene.getNodes();
    const rotations = nodes.flatMap((n) => (n.rotationQuaternion ? [n.rotationQuaternion.x, n.rotationQuaternion.y, n.rotationQuaternion.z, n.rotationQuaternion.w!] : []));
    return { rotations };
  });

/** Waits until Babylon has drawn `n` more frames (wall-clock waits see few frames on a loaded machine). */
async function framesDrawn(n: number): Promise<void> {
  type Scene = { getFrameId(): number };
  const frameId = (): Promise<number> => page.evaluate(() => (window as unknown as { babylonExample: { scene: Scene } }).babylonExample.scene.getFrameId());
  const start = await frameId();
  await page.waitForFunction((k) => (window as unknown as { babylonExample: { scene: Scene } }).babylonExample.scene.getFrameId() >= k, start + n, { timeout: 30_000 });
}

test("the Babylon example renders the robot and follows the graph: Idle → Walk → Run, Jump", { skip, timeout: 120_000 }, async () => {
  assert.deepEqual(buildWarnings, [], "Vite externalizes no Node module for the page");
  assert.deepEqual(consoleErrors, []);
  assert.equal(await page.evaluate(() => document.body.dataset["state"]), "Idle");
  // The robot is drawn: clearly coloured pixels in the middle of the canvas (background and ground are dark greys).
  const shot = await page.locator("#scene").screenshot();
  const coloured = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(Math.floor(img.width * 0.3), Math.floor(img.height * 0.1), Math.floor(img.width * 0.4), Math.floor(img.height * 0.8));
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 40) n++;
    return n;
  }, shot.toString("base64"));
  assert.ok(coloured > 500, `only ${coloured} coloured pixels where the robot stands`);

  // Idle animates the joints in place.
  const a = await probe();
  await framesDrawn(10);
  const b = await probe();
  const turned = a.rotations.reduce((m, v, i) => Math.max(m, Math.abs(v - b.rotations[i]!)), 0);
  assert.ok(turned > 1e-3, `the joints move while idle (max quaternion change ${turned})`);

  const setSpeed = (v: number) => page.evaluate((x) => {
    const input = document.querySelector<HTMLInputElement>("#speed")!;
    input.value = String(x);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, v);
  await setSpeed(2);
  await page.waitForFunction(() => document.body.dataset["state"] === "Walk", undefined, { timeout: 30_000 });
  await setSpeed(5.5);
  await page.waitForFunction(() => document.body.dataset["state"] === "Run", undefined, { timeout: 30_000 });
  // Running moves the joints far more than idling (RobotExpressive's clips run in place, so root
  // motion barely moves it; applyRootMotionToTransformNode is checked in test/babylon).
  const r1 = await probe();
  await framesDrawn(10);
  const r2 = await probe();
  const running = r1.rotations.reduce((m, v, i) => Math.max(m, Math.abs(v - r2.rotations[i]!)), 0);
  assert.ok(running > 0.05, `the joints swing while running (max quaternion change ${running})`);
  await page.click("#jump");
  await page.waitForFunction(() => document.body.dataset["state"] === "Jump", undefined, { timeout: 30_000 });
  assert.deepEqual(consoleErrors, []);
});
