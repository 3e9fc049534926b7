// Draws docs/performance/scaling.svg, time per frame against crowd size (log–log), from the JSON line
// `npm run bench` prints (its `scaling` array). The JSON is kept beside the picture, so the picture can
// be redrawn without re-running the bench:
//   npm run -s bench -- --quick --json > docs/performance/bench-latest.json
//   node scripts/plot-scaling.mjs [docs/performance/bench-latest.json]
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const root = new URL("..", import.meta.url).pathname;
const input = process.argv[2] ?? `${root}docs/performance/bench-latest.json`;
const lines = readFileSync(input, "utf8").trim().split("\n");
const bench = JSON.parse(lines[lines.length - 1]);
if (!Array.isArray(bench.scaling) || bench.scaling.length < 2) {
  console.error(`${input}: no "scaling" array in the last line (run npm run bench first)`);
  process.exit(2);
}
const points = bench.scaling;

const W = 640, H = 400, left = 70, right = 150, top = 30, bottom = 50;
const xs = points.map((p) => p.n);
const ys = points.flatMap((p) => [p.msPerFrame, p.threeMsPerFrame].filter((v) => v !== null && v > 0));
const x0 = Math.log10(Math.min(...xs)), x1 = Math.log10(Math.max(...xs));
const y0 = Math.floor(Math.log10(Math.min(...ys))), y1 = Math.ceil(Math.log10(Math.max(...ys)));
const px = (n) => left + ((Math.log10(n) - x0) / (x1 - x0)) * (W - left - right);
const py = (ms) => top + (1 - (Math.log10(ms) - y0) / (y1 - y0)) * (H - top - bottom);
const fmt = (v) => (v >= 1 ? String(v) : v.toPrecision(1));

const svg = [];
svg.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
svg.push(`<rect width="${W}" height="${H}" fill="white"/>`);
// Grid and axes: decades on both.
for (let e = y0; e <= y1; e++) {
  const y = py(10 ** e);
  svg.push(`<line x1="${left}" y1="${y}" x2="${W - right}" y2="${y}" stroke="#ddd"/>`);
  svg.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">${fmt(10 ** e)}</text>`);
}
for (const n of xs) {
  const x = px(n);
  svg.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${H - bottom}" stroke="#ddd"/>`);
  svg.push(`<text x="${x}" y="${H - bottom + 16}" text-anchor="middle">${n.toLocaleString("en-US")}</text>`);
}
svg.push(`<text x="${(left + W - right) / 2}" y="${H - 12}" text-anchor="middle">characters (RobotExpressive, 43 joints, 3 clips each)</text>`);
svg.push(`<text transform="translate(16 ${(top + H - bottom) / 2}) rotate(-90)" text-anchor="middle">ms per frame (log)</text>`);
// Linear growth through the 100-character point: what "cost grows linearly" looks like here.
const ref = points.find((p) => p.n === 100) ?? points[0];
const perChar = ref.msPerFrame / ref.n;
svg.push(`<line x1="${px(xs[0])}" y1="${py(perChar * xs[0])}" x2="${px(xs[xs.length - 1])}" y2="${py(perChar * xs[xs.length - 1])}" stroke="#999" stroke-dasharray="4 4"/>`);
const series = (key, colour, label) => {
  const pts = points.filter((p) => p[key] !== null && p[key] > 0);
  if (pts.length === 0) return;
  svg.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts.map((p) => `${px(p.n).toFixed(1)},${py(p[key]).toFixed(1)}`).join(" ")}"/>`);
  for (const p of pts) svg.push(`<circle cx="${px(p.n).toFixed(1)}" cy="${py(p[key]).toFixed(1)}" r="3.5" fill="${colour}"/>`);
  const last = pts[pts.length - 1];
  svg.push(`<text x="${px(last.n) + 8}" y="${py(last[key]) + 4}" fill="${colour}">${label}</text>`);
};
series("threeMsPerFrame", "#c0392b", "three.js mixer");
series("msPerFrame", "#1f6fb2", "animgraph kernel");
svg.push(`<text x="${W - right + 8}" y="${py(perChar * xs[xs.length - 1]) + 18}" fill="#777">linear from N = ${ref.n}</text>`);
svg.push(`<text x="${left}" y="${top - 10}">Time per frame against crowd size, one thread (${bench.cores ?? "?"}-core machine, medians of alternating rounds)</text>`);
svg.push("</svg>");

const out = `${root}docs/performance/scaling.svg`;
writeFileSync(`${out}.tmp`, `${svg.join("\n")}\n`);
renameSync(`${out}.tmp`, out);
console.log(`wrote ${out}`);
