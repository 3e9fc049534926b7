// Frame-time breakdown of the studio's drawn crowd in headless Chromium (a measurement, not a test):
// for crowds of 1, 100 and 1,000 drawn characters (plus the studio's own character), with the update-rate
// LOD on and off, the medians and interquartile ranges of evaluate / upload / render (performance.now()
// around each phase, as the Performance panel shows them) and of the whole frame interval (rAF to rAF,
// which also holds the GPU's work: render is only the CPU side of three.js's draw calls). Prints a
// markdown table. Usage: node scripts/studio-figures.mjs [--frames N] [--seconds S] [--sizes 0,1,100,1000]
// [--screenshot FILE.png] (size 0: the crowd off, the studio's character alone; the screenshot shows the
// viewport with a crowd of 1,000, the page at 1920×1080).
// Needs Chromium at /usr/bin/chromium (or CHROMIUM_PATH); WebGL runs on SwiftShader (CPU), so the render
// and frame figures are a CPU rasteriser's, far above what a GPU gives.
// Page-side code below runs in the browser (page.evaluate).
/* global document, window, Event, requestAnimationFrame, performance */
import { build, preview } from "vite";
import { chromium } from "playwright-core";
import { fileURLToPath } from "node:url";
import { cpus } from "node:os";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const FRAMES = Number(option("--frames", "120"));
const SECONDS = Number(option("--seconds", "90"));
const SIZES = option("--sizes", "0,1,100,1000").split(",").map(Number);
const SCREENSHOT = option("--screenshot", "");

const configFile = fileURLToPath(new URL("../studio/vite.config.ts", import.meta.url));
await build({ configFile, logLevel: "error" });
const server = await preview({ configFile, preview: { port: 0, host: "127.0.0.1" }, logLevel: "error" });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForFunction(() => window.animgraphStudio !== undefined);
  await page.evaluate(() => window.animgraphStudio.ready);

  const quantiles = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { median: at(0.5), iqr: at(0.75) - at(0.25) };
  };
  const fmt = ({ median, iqr }) => `${median.toFixed(2)} (${iqr.toFixed(2)})`;

  const rows = [];
  for (const size of SIZES) {
    for (const lod of size > 1 ? [true, false] : [true]) {
      await page.evaluate(([n, on]) => {
        document.querySelector("#crowd-size").value = String(n);
        document.querySelector("#toggle-crowd-lod").checked = on;
        const toggle = document.querySelector("#toggle-crowd");
        toggle.checked = n > 0;
        toggle.dispatchEvent(new Event("change"));
        document.querySelector("#toggle-crowd-lod").dispatchEvent(new Event("change"));
      }, [size, lod]);
      // Warm up (shader compile, first uploads), then sample frame by frame.
      const sample = await page.evaluate(async ([frames, seconds]) => {
        const studio = window.animgraphStudio;
        const next = () => new Promise((r) => requestAnimationFrame(r));
        for (let i = 0; i < 10; i++) await next();
        const out = { evaluate: [], upload: [], render: [], interval: [], updated: [], calls: 0 };
        const start = performance.now();
        let last = await next();
        while (out.interval.length < frames && performance.now() - start < seconds * 1000) {
          const now = await next();
          const t = studio.frameTimes();
          const k = (t.frames - 1) % t.evaluate.length;
          out.evaluate.push(t.evaluate[k]);
          out.upload.push(t.upload[k]);
          out.render.push(t.render[k]);
          out.interval.push(now - last);
          const draw = studio.crowdDraw();
          out.updated.push(draw ? draw.updated : 1);
          out.calls = draw ? draw.calls : null;
          last = now;
        }
        return out;
      }, [FRAMES, SECONDS]);
      rows.push({
        size, lod, frames: sample.interval.length, calls: sample.calls,
        evaluate: quantiles(sample.evaluate), upload: quantiles(sample.upload), render: quantiles(sample.render),
        interval: quantiles(sample.interval), updated: quantiles(sample.updated),
        // Per evaluated character: a frame's evaluate time over the characters it evaluated (frames that evaluated any).
        perCharacter: quantiles(sample.evaluate.flatMap((ms, k) => (sample.updated[k] > 0 ? [(1000 * ms) / sample.updated[k]] : []))),
      });
      process.stderr.write(`measured ${size} (LOD ${lod ? "on" : "off"}): ${sample.interval.length} frames\n`);
    }
  }
  if (SCREENSHOT) {
    await page.setViewportSize({ width: 1920, height: 1080 }); // a larger viewport for the picture
    await page.evaluate(async () => {
      document.querySelector("#crowd-size").value = "1000";
      const toggle = document.querySelector("#toggle-crowd");
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
      const studio = window.animgraphStudio;
      const end = studio.frames() + 3;
      while (studio.frames() < end) await new Promise((r) => requestAnimationFrame(r));
    });
    await page.locator("#viewport").screenshot({ path: SCREENSHOT });
    process.stderr.write(`wrote ${SCREENSHOT}\n`);
  }
  if (errors.length > 0) throw new Error(`page errors: ${errors.join("; ")}`);
  const version = await browser.version();
  const isolated = await page.evaluate(() => window.crossOriginIsolated);
  console.log(`Headless Chromium ${version} (WebGL on SwiftShader), ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, 1280×720, performance.now() ${isolated ? "at 5 µs (cross-origin isolated)" : "at 100 µs"}. ms per frame, median (IQR) over the frames counted; the studio's own character is drawn too.\n`);
  console.log("| crowd drawn | LOD | frames | draw calls | evaluated / frame | evaluate ms | µs / evaluated character | upload ms | render ms (CPU side) | frame interval ms |");
  console.log("|---:|:---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const crowd = r.size === 0 ? "0 (crowd off)" : r.size.toLocaleString("en");
    console.log(`| ${crowd} | ${r.size === 0 ? "–" : r.lod ? "on" : "off"} | ${r.frames} | ${r.calls ?? "–"} | ${r.updated.median} | ${fmt(r.evaluate)} | ${r.perCharacter.median === undefined ? "–" : fmt(r.perCharacter)} | ${fmt(r.upload)} | ${fmt(r.render)} | ${fmt(r.interval)} |`);
  }
} finally {
  await browser.close();
  server.httpServer.close();
}
