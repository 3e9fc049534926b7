#!/usr/bin/env node
// `npm run docs:ik`: draws docs/ik/feet-on-a-slope.svg, the picture in docs/ik.md and the README. The CMU
// 131_01 capture plays in a graph whose footPlacement IK layer stands it on a ground rising 25 % across the
// character (the ground's height and normal are parameters, as a game would set them from a trace). The
// legs are drawn from the output poses of `step`, seen from the front, at three moments of double support:
// grey, the animation as made (on a flat floor: the uphill foot sinks into the slope, the downhill one
// floats); coloured, after the layer (pelvis lowered, each foot on the ground). Uses the built library.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileGraph, createInstance, parseGraphSpec, parseJsonText, quatMultiply, quatRotateVec3, setParam, step } from "../dist/index.js";
import { loadBvh } from "../dist/node.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SLOPE = 0.25;
const { skeleton, clip } = loadBvh(resolve(ROOT, "../shared/assets/bvh-cmu-131/131_01.bvh"));
const J = skeleton.jointCount;
const idx = (n) => skeleton.indexOf.get(n);
const LEGS = [["LeftHip", "LeftKnee", "LeftAnkle"], ["RightHip", "RightKnee", "RightAnkle"]];
const DRAWN = [["Hips", "LHipJoint", "LeftHip", "LeftKnee", "LeftAnkle", "LeftToe"], ["Hips", "RHipJoint", "RightHip", "RightKnee", "RightAnkle", "RightToe"], ["Hips", "lowerback", "Chest"]];

/** Model positions (3 per joint) of a local pose. */
function positions(pose) {
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), v = new Float64Array(3);
  for (let j = 0; j < J; j++) {
    const parent = skeleton.parents[j];
    if (parent < 0) {
      for (let c = 0; c < 4; c++) q[4 * j + c] = pose.r[4 * j + c];
      for (let c = 0; c < 3; c++) p[3 * j + c] = pose.t[3 * j + c];
      continue;
    }
    quatMultiply(q, 4 * j, q, 4 * parent, pose.r, 4 * j);
    quatRotateVec3(v, 0, q, 4 * parent, pose.t, 3 * j);
    for (let c = 0; c < 3; c++) p[3 * j + c] = p[3 * parent + c] + v[c];
  }
  return p;
}

const spec = parseGraphSpec(parseJsonText(JSON.stringify({
  animgraph: 1,
  parameters: { height: { type: "float" }, nx: { type: "float" }, nz: { type: "float" }, feet: { type: "float" } },
  layers: [{ name: "base", machine: { entry: "Walk", states: { Walk: { clip: clip.name } } } }],
  ik: [{ name: "feet", solver: "footPlacement", pelvis: "Hips", legs: LEGS, weight: { param: "feet" }, ground: { height: { param: "height" }, normal: [{ param: "nx" }, 1, { param: "nz" }] } }],
}), "feet-on-a-slope.animgraph.json"));
const compiled = compileGraph(spec.spec, skeleton, [clip]);
if (!compiled.graph) throw new Error(JSON.stringify(compiled.diagnostics));
const graph = compiled.graph;
const flat = createInstance(graph), placed = createInstance(graph);

// Double-support frames: both ankles near their lowest; three of them, spread over the take.
const pose = { t: new Float32Array(3 * J), r: new Float32Array(4 * J) };
const frames = [];
let lowest = Infinity; // reported below
const DT = 1 / 30;
const probe = createInstance(graph);
const heights = [];
for (let f = 0; f < clip.duration / DT - 1; f++) {
  step(graph, probe, DT);
  const p = positions(probe.result.pose);
  const h = Math.max(...LEGS.map((l) => p[3 * idx(l[2]) + 1]));
  heights.push(h);
  lowest = Math.min(lowest, ...LEGS.map((l) => p[3 * idx(l[2]) + 1]));
}
const order = heights.map((h, f) => [h, f]).filter(([, f]) => f > 30).sort((a, b) => a[0] - b[0]);
for (const [, f] of order) if (frames.length < 3 && frames.every((g) => Math.abs(g - f) > 60)) frames.push(f);
frames.sort((a, b) => a - b);
void pose;

// The capture's floor is where its ankles are lowest less their height: draw it 0; the slope rises along the
// character's left (LeftHip − RightHip), through the hips' foot print.
const panels = [];
let f = 0;
for (const target of frames) {
  while (f <= target) {
    setParam(flat, "feet", 0);
    step(graph, flat, DT);
    // The ground under this frame's character: h = SLOPE · ((p − c) · s), with s its left and c its hips.
    const p0 = positions(flat.result.pose);
    const l = idx("LeftHip"), r = idx("RightHip");
    let sx = p0[3 * l] - p0[3 * r], sz = p0[3 * l + 2] - p0[3 * r + 2];
    const sl = Math.hypot(sx, sz);
    sx /= sl;
    sz /= sl;
    const cx = p0[3 * idx("Hips")], cz = p0[3 * idx("Hips") + 2];
    setParam(placed, "feet", 1);
    setParam(placed, "nx", -SLOPE * sx);
    setParam(placed, "nz", -SLOPE * sz);
    setParam(placed, "height", -SLOPE * (sx * cx + sz * cz));
    step(graph, placed, DT);
    if (f === target) panels.push({ frame: f, before: p0, after: positions(placed.result.pose), s: [sx, sz], c: [cx, cz] });
    f++;
  }
}

// Drawing: per panel, x = (p − c) · s (the character's left to the right of the picture? no: seen from the
// front, its left is on the viewer's right), y = height. Units: the capture's.
const W = 300, H = 330, PAD = 20, SCALE = 9;
const svg = [];
svg.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W * panels.length}" height="${H + 40}" viewBox="0 0 ${W * panels.length} ${H + 40}" font-family="sans-serif" font-size="12">`);
svg.push(`<rect width="100%" height="100%" fill="#fff"/>`);
panels.forEach((panel, i) => {
  const ox = i * W + W / 2, oy = H - 70;
  const X = (p, j) => ox + SCALE * ((p[3 * j] - panel.c[0]) * panel.s[0] + (p[3 * j + 2] - panel.c[1]) * panel.s[1]);
  const Y = (p, j) => oy - SCALE * p[3 * j + 1];
  const half = (W / 2 - PAD) / SCALE;
  svg.push(`<path d="M${ox - half * SCALE},${oy + SLOPE * half * SCALE} L${ox + half * SCALE},${oy - SLOPE * half * SCALE} L${ox + half * SCALE},${H} L${ox - half * SCALE},${H} Z" fill="#e9e2d4" stroke="#9c8f76"/>`);
  svg.push(`<line x1="${ox - half * SCALE}" y1="${oy}" x2="${ox + half * SCALE}" y2="${oy}" stroke="#bbb" stroke-dasharray="4 4"/>`);
  for (const [pose, color, width, dash] of [[panel.before, "#9a9a9a", 3, "5 3"], [panel.after, "#2f6fde", 4, ""]]) {
    for (const chain of DRAWN) {
      const d = chain.map((n, k) => `${k ? "L" : "M"}${X(pose, idx(n)).toFixed(1)},${Y(pose, idx(n)).toFixed(1)}`).join(" ");
      svg.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`);
    }
  }
  const drop = panel.after[3 * idx("Hips") + 1] - panel.before[3 * idx("Hips") + 1];
  svg.push(`<text x="${ox}" y="${H + 16}" text-anchor="middle">frame ${panel.frame}: pelvis ${drop.toFixed(1)} units</text>`);
});
svg.push(`<text x="8" y="16" fill="#666">grey dashed: the capture as made (flat floor, dashed line); blue: after the footPlacement layer on a 25 % slope</text>`);
svg.push(`</svg>`);
mkdirSync(resolve(ROOT, "docs/ik"), { recursive: true });
writeFileSync(resolve(ROOT, "docs/ik/feet-on-a-slope.svg"), `${svg.join("\n")}\n`);
console.log(`docs/ik/feet-on-a-slope.svg: frames ${frames.join(", ")}`);
