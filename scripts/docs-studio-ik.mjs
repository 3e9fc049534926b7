#!/usr/bin/env node
// `npm run docs:studio-ik`: the IK picture in docs/studio.md (docs/studio/ik-layers.png). It builds the
// studio, serves it, and in headless Chromium adds a two-bone layer on the robot's left arm through the
// IK layers panel, binds its target to new parameters and moves them, so the viewport shows the hand on
// the target gizmo with the pole arrow, beside the panel with the layer's form; then the joint-picking
// picture (docs/studio/joint-pick.png): a joint selected in the viewport and a field's pick button armed.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
/* global window, document, Event -- the page functions below run in the browser */
import { chromium } from "playwright-core";
import { build, preview } from "vite";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = process.env.OUT_DIR ?? join(ROOT, "docs/studio");
mkdirSync(OUT, { recursive: true });
const configFile = join(ROOT, "studio/vite.config.ts");
const outDir = mkdtempSync(join(tmpdir(), "animgraph-docs-ik-"));
await build({ configFile, logLevel: "error", build: { outDir, emptyOutDir: true } });
const server = await preview({ configFile, build: { outDir }, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist", "--no-first-run", "--disable-background-networking"],
});
const slider = (page, param, value) => page.evaluate(([p, v]) => {
  const input = document.querySelector(`input[data-param="${p}"]`);
  input.value = String(v);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}, [param, value]);
const joint = (page, name) => page.evaluate((n) => window.animgraphStudio.joint(n), name);
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1300 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForFunction(() => window.animgraphStudio !== undefined);
  await page.evaluate(() => window.animgraphStudio.ready);
  await page.waitForFunction(() => document.body.dataset.graph === "ok");
  await page.selectOption('#ik [data-key="ik-new-solver"]', "twoBone");
  await page.click('#ik [data-key="ik-add"]');
  for (const slot of ["target/0", "target/1", "target/2"]) {
    await page.selectOption(`#ik [data-key="ik-bind-${slot}"]`, { label: "new parameter…" });
    await page.waitForTimeout(300);
  }
  await page.waitForFunction(() => document.querySelector('input[data-param="Palm2.L IK z"]') !== null);
  // The hand raised in front of the chest: a target between the shoulder and the hand, forward and up.
  const shoulder = (await joint(page, "UpperArm.L")).model, hand = (await joint(page, "Palm2.L")).model;
  const arm = Math.hypot(...[0, 1, 2].map((c) => hand[c] - shoulder[c]));
  const target = [0, 1, 2].map((c) => shoulder[c] + 0.7 * (hand[c] - shoulder[c]) + (c === 2 ? 0.4 * arm : c === 1 ? 0.2 * arm : 0));
  for (const [c, axis] of ["x", "y", "z"].entries()) await slider(page, `Palm2.L IK ${axis}`, target[c]);
  await page.check("#toggle-skeleton");
  await page.waitForTimeout(1500);
  const box = async (s) => page.locator(s).boundingBox();
  const [view, ik] = [await box(".viewport-panel"), await box(".ik-panel")];
  await page.locator(".ik-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, "ik-layers.png"), fullPage: true, clip: { x: view.x, y: view.y, width: Math.max(view.width, ik.x + ik.width - view.x), height: ik.y + ik.height - view.y } });
  // Joint picking: the clock paused, the head clicked in the viewport (selected: marked, its bones drawn,
  // its name beside it), then the end joint's pick button armed and the pointer over the hand (marked).
  await page.uncheck("#toggle-skeleton");
  await page.check("#toggle-pause");
  await page.waitForTimeout(300);
  await page.evaluate(() => window.scrollTo(0, 0));
  const drawn = (name) => page.evaluate((n) => { const s = window.animgraphStudio; return s.screenPoint(s.joint(n).world); }, name);
  const head = await drawn("Head");
  await page.mouse.click(head.x, head.y);
  await page.click('#ik [data-key="ik-pick-joints-2"]');
  await page.evaluate(() => window.scrollTo(0, 0));
  const palm = await drawn("Palm2.L");
  await page.mouse.move(palm.x, palm.y);
  await page.waitForTimeout(800);
  const [view2, ik2] = [await box(".viewport-panel"), await box(".ik-panel")];
  await page.locator(".ik-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUT, "joint-pick.png"), fullPage: true, clip: { x: view2.x, y: view2.y, width: Math.max(view2.width, ik2.x + ik2.width - view2.x), height: ik2.y + ik2.height - view2.y } });
  await page.keyboard.press("Escape");
  if (errors.length) throw new Error(errors.join("\n"));
} finally {
  await browser.close();
  server.httpServer.close();
  rmSync(outDir, { recursive: true, force: true });
}
