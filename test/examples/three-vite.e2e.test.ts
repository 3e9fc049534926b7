// examples/three-vite as a user runs it: copied into a fresh project with animgraph installed from the
// packed tarball (the character and graph in public/, as its README says), built by Vite with no
// warning, served, and played from the keyboard in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { preview, type PreviewServer } from "vite";
// @ts-expect-error -- a plain .mjs script shared with `npm run size`
import { createApp, packTarball, removeApp, viteBuild } from "../../scripts/package-app.mjs";
import { repoPath } from "../helpers/assets.ts";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (.ci/run installs Debian's chromium)`;

let packDir = "";
let app = "";
let server: PreviewServer | undefined;
let browser: Browser | undefined;
let page: Page;
const pageErrors: string[] = [];
let buildWarnings: string[] = [];

before(async () => {
  if (skip) return;
  packDir = mkdtempSync(join(tmpdir(), "animgraph-pack-"));
  const example = repoPath("examples/three-vite");
  app = createApp(packTarball(packDir) as string, {
    "index.html": { copy: join(example, "index.html") },
    "src/main.js": { copy: join(example, "src/main.js") },
    "public/RobotExpressive.glb": { copy: repoPath("examples/robot/RobotExpressive.glb") },
    "public/robot.animgraph.json": { copy: repoPath("examples/robot/robot.animgraph.json") },
  }) as string;
  buildWarnings = (await viteBuild(app) as { warnings: string[] }).warnings;
  server = await preview({ root: app, configFile: false, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"] });
  page = await browser.newPage({ viewport: { width: 960, height: 600 } });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  await page.goto(server.resolvedUrls!.local[0]!);
  await page.waitForFunction(() => document.body.dataset["state"] !== undefined, undefined, { timeout: 60_000 });
}, { timeout: 180_000 });

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.httpServer.close(() => resolve()) : resolve()));
  if (app) removeApp(app);
  if (packDir) rmSync(packDir, { recursive: true, force: true });
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
