#!/usr/bin/env node
// `npm run docs:transitions`: draws docs/transitions/crossfade-vs-inertialize.svg, the picture in
// docs/transitions.md and the README. The robot walks, then goes Walking → Running at 60 Hz with each blend
// mode (0.3 s, smoothstep); for the joint whose velocity jumps most under the crossfade it plots the swing
// angle and the angular velocity about that joint's main axis, measured from the output poses. Uses the
// built library (dist/), like the CLI.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  compileGraph, createContinuityMeter, createInstance, jointAngularVelocities, parseGraphSpec, parseJsonText, setParam, step,
} from "../dist/index.js";
import { loadGltfFile } from "../dist/node.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DT = 1 / 60;
const AT = 72; // the frame the transition starts
const FRAMES = 120;
const MODES = [
  { blend: "crossfade", color: "#2f6fde", dash: "" },
  { blend: "inertialize", color: "#e0731c", dash: "" },
  { blend: "deadBlend", color: "#2a9d4b", dash: "5 3" },
];

const gltf = await loadGltfFile(resolve(ROOT, "examples/robot/RobotExpressive.glb"));
const skeleton = gltf.skeletons[0];

/** Per frame: the output's per-joint angular velocity (3 per joint), and the frame's velocity jump. */
function run(blend) {
  const json = {
    animgraph: 1, name: blend, parameters: { speed: { type: "float", default: 0 } },
    layers: [{ name: "base", machine: {
      entry: "Walk", states: { Walk: { clip: "Walking" }, Run: { clip: "Running" } },
      transitions: [{ from: "Walk", to: "Run", conditions: [{ param: "speed", op: ">", value: 3 }], duration: 0.3, blend }],
    } }],
  };
  const spec = parseGraphSpec(parseJsonText(JSON.stringify(json), "figure.animgraph.json")).spec;
  const graph = compileGraph(spec, skeleton, gltf.clips).graph;
  const inst = createInstance(graph);
  const meter = createContinuityMeter(skeleton.jointCount);
  const prev = { t: new Float32Array(3 * skeleton.jointCount), r: new Float32Array(4 * skeleton.jointCount), s: new Float32Array(3 * skeleton.jointCount), jointCount: skeleton.jointCount };
  const omega = [], jumps = [];
  for (let k = 0; k < FRAMES; k++) {
    if (k === AT) setParam(inst, "speed", 5);
    const pose = step(graph, inst, DT).pose;
    jumps.push(meter.push(pose, DT));
    const w = new Float64Array(3 * skeleton.jointCount);
    if (k > 0) jointAngularVelocities(w, prev, pose, DT);
    omega.push(w);
    prev.t.set(pose.t); prev.r.set(pose.r); prev.s.set(pose.s);
  }
  return { omega, jumps, joint: meter.joint };
}

const runs = MODES.map((m) => ({ ...m, ...run(m.blend) }));
// The joint the crossfade's first frame jumps most at.
const cf = run("crossfade");
let joint = 0, worst = -1;
{
  const a = cf.omega[AT - 1], b = cf.omega[AT];
  for (let j = 0; j < skeleton.jointCount; j++) {
    const d = Math.hypot(b[3 * j] - a[3 * j], b[3 * j + 1] - a[3 * j + 1], b[3 * j + 2] - a[3 * j + 2]);
    if (d > worst) { worst = d; joint = j; }
  }
}
// Its main axis: the mean direction of its angular velocity over the plotted window (crossfade run).
const axis = [0, 0, 0];
for (const w of cf.omega) {
  const v = [w[3 * joint], w[3 * joint + 1], w[3 * joint + 2]];
  const sign = v[0] * axis[0] + v[1] * axis[1] + v[2] * axis[2] < 0 ? -1 : 1;
  for (let i = 0; i < 3; i++) axis[i] += sign * v[i];
}
const n = Math.hypot(...axis) || 1;
for (let i = 0; i < 3; i++) axis[i] /= n;

const FROM = AT - 30, TO = AT + 40;
const series = runs.map((r) => {
  const speed = r.omega.map((w) => w[3 * joint] * axis[0] + w[3 * joint + 1] * axis[1] + w[3 * joint + 2] * axis[2]);
  const angle = [];
  let a = 0;
  for (let k = 0; k < FRAMES; k++) { a += speed[k] * DT; angle.push(a); }
  return { ...r, speed: speed.slice(FROM, TO), angle: angle.slice(FROM, TO), first: r.jumps[AT] };
});

const W = 760, H = 460, L = 64, R = 180, PH = 170;
const panel = (top, key, label, unit) => {
  const all = series.flatMap((s) => s[key]);
  let lo = Math.min(...all), hi = Math.max(...all);
  const pad = (hi - lo) * 0.08 || 0.1;
  lo -= pad; hi += pad;
  const x = (i) => L + (i / (TO - FROM - 1)) * (W - L - R);
  const y = (v) => top + PH - ((v - lo) / (hi - lo)) * PH;
  let out = `<rect x="${L}" y="${top}" width="${W - L - R}" height="${PH}" fill="#fafafa" stroke="#ccc"/>`;
  out += `<text x="${L - 8}" y="${top + 12}" text-anchor="end" font-size="11">${hi.toFixed(2)}</text><text x="${L - 8}" y="${top + PH}" text-anchor="end" font-size="11">${lo.toFixed(2)}</text>`;
  out += `<text x="14" y="${top + PH / 2}" font-size="12" transform="rotate(-90 14 ${top + PH / 2})" text-anchor="middle">${label} (${unit})</text>`;
  const xs = x(AT - FROM);
  out += `<line x1="${xs}" y1="${top}" x2="${xs}" y2="${top + PH}" stroke="#999" stroke-dasharray="3 3"/>`;
  for (const s of series) {
    const d = s[key].map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
    out += `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.8"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`;
  }
  return out;
};
let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" viewBox="0 0 ${W} ${H}">`;
svg += `<rect width="${W}" height="${H}" fill="#fff"/>`;
svg += `<text x="${L}" y="20" font-size="14" font-weight="bold">RobotExpressive Walking → Running, 0.3 s, 60 Hz: joint ${skeleton.names[joint]}</text>`;
svg += panel(36, "angle", "swing angle", "rad");
svg += panel(36 + PH + 40, "speed", "angular velocity", "rad/s");
svg += `<text x="${L + (AT - FROM) / (TO - FROM - 1) * (W - L - R) + 4}" y="${36 + PH + 32}" font-size="11" fill="#666">transition starts</text>`;
svg += `<text x="${(W - R + L) / 2}" y="${H - 8}" font-size="12" text-anchor="middle">frames (1/60 s), ${FROM - AT} … +${TO - AT - 1} around the transition</text>`;
series.forEach((s, i) => {
  const y = 60 + i * 54;
  svg += `<line x1="${W - R + 14}" y1="${y}" x2="${W - R + 40}" y2="${y}" stroke="${s.color}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ""}/>`;
  svg += `<text x="${W - R + 46}" y="${y + 4}" font-size="12">${s.blend}</text>`;
  svg += `<text x="${W - R + 46}" y="${y + 20}" font-size="11" fill="#555">jump ${s.first.toFixed(2)} rad/s</text>`;
});
svg += `</svg>\n`;
const out = resolve(ROOT, "docs/transitions/crossfade-vs-inertialize.svg");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, svg);
console.log(`wrote ${out}: joint ${skeleton.names[joint]}, first-frame jumps ${series.map((s) => `${s.blend} ${s.first.toFixed(3)}`).join(", ")} rad/s`);
