// examples/three-vite as a user runs it: copied into a fresh project with animgraph installed from the
// packed tarball (the character and graph in public/, as its README says), built by Vite with no
// warning, served, and played from the keyboard in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { NO_CHROMIUM as skip, openPackedExample, type PackedExample } from "../helpers/packed-example.ts";
import { repoPath } from "../helpers/assets.ts";

let example: PackedExample | undefined;
let page: Page;
let pageErrors: string[] = [];
let buildWarnings: readonly string[] = [];

before(async () => {
  if (skip) return;
  example = await openPackedExample({ "index.html": repoPath("examples/three-vite/index.html"), "src/main.js": repoPath("examples/three-vite/src/main.js") }, { width: 960, height: 600 });
  ({ page, errors: pageErrors, buildWarnings } = example);
  await page.waitForFunction(() => document.body.dataset["state"] !== undefined, undefined, { timeout: 60_000 });
}, { timeout: 180_000 });

after(async () => {
  await example?.close();
});

const state = (): Promise<string | undefined> => page.evaluate(() => document.body.dataset["state"]);

test("examples/three-vite builds from the packed tarball with no warning and plays the robot from the keyboard", { skip, timeout: 120_000 }, async () => {
  assert.deepEqual(buildWarnings, []);
  assert.equal(await state(), "Idle");
  await page.keyboard.down("KeyW");
  await page.waitForFunction(() => document.body.dataset["state"] === "Run", undefined, { timeout: 20_000 });
  await page.keyboard.up("KeyW");
  const speed = Number(await page.textContent("#speed"));
  assert.ok(speed > 1 && speed <= 6, `speed ${speed} after holding W`);
  await page.keyboard.press("Space");
  await page.waitForFunction(() => document.body.dataset["state"] === "Jump", undefined, { timeout: 10_000 });
  await page.keyboard.down("KeyS");
  await page.waitForFunction(() => document.body.dataset["state"] === "Idle", undefined, { timeout: 20_000 });
  await page.keyboard.up("KeyS");
  // The robot is drawn: the centre of the frame is not all background.
  const png = await page.screenshot({ clip: { x: 330, y: 150, width: 300, height: 350 } });
  const differing = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext("2d")!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i]! - 0x20) + Math.abs(d[i + 1]! - 0x23) + Math.abs(d[i + 2]! - 0x2a) > 40) n++;
    return n;
  }, png.toString("base64"));
  assert.ok(differing > 2000, `${differing} pixels differ from the background`);
  assert.deepEqual(pageErrors, []);
});
