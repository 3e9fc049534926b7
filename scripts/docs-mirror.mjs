#!/usr/bin/env node
// `npm run docs:mirror`: draws docs/mirroring/robot-mirrored.svg from the file the CLI writes. It mirrors
// the bundled RobotExpressive with `animgraph mirror`, loads the source and the written GLB and plots, in
// world space, both hands of Wave from the front (the mirror plane x = 0 as a line) and both feet's heights
// over a cycle of Walking, with the largest gap between each mirrored left joint and the reflected right. `--check` redraws in memory and exits 1 when the file differs (the test
// test/docs/mirror-picture.test.ts runs it), so the picture always shows what the code does.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createClipCursor, createPose, localToModel, sampleClip } from "../dist/index.js";
import { loadGltfFile } from "../dist/node.js";
import { main } from "../dist/cli/main.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROBOT = join(ROOT, "examples/robot/RobotExpressive.glb");
const OUT = join(ROOT, "docs/mirroring/robot-mirrored.svg");
const FRAMES = 96;

const work = mkdtempSync(join(tmpdir(), "animgraph-docs-mirror-"));
let svg;
try {
  const mirroredPath = join(work, "robot-mirrored.glb");
  let err = "";
  const code = await main(["mirror", ROBOT, "--out", mirroredPath], { stdout: () => {}, stderr: (s) => void (err += s), cwd: ROOT });
  if (code !== 0) throw new Error(`animgraph mirror exited ${code}: ${err}`);
  const source = await loadGltfFile(ROBOT);
  const written = await loadGltfFile(mirroredPath);
  const root = source.rootTransforms[0];
  const sk = source.skeletons[0];
  // World positions of a joint pair (`<name>.L`, `<name>.R`) over one cycle of a clip.
  const paths = (clip, name) => {
    const pose = createPose(sk.jointCount);
    const model = new Float32Array(16 * sk.jointCount);
    const out = { L: [], R: [] };
    for (let i = 0; i <= FRAMES; i++) {
      sampleClip(pose, clip, (clip.duration * i) / FRAMES, createClipCursor(clip));
      localToModel(model, clip.skeleton, pose, root);
      for (const side of ["L", "R"]) {
        const j = sk.indexOf.get(`${name}.${side}`);
        out[side].push([model[16 * j + 12], model[16 * j + 13], model[16 * j + 14]]);
      }
    }
    return out;
  };
  const rest = new Float32Array(16 * sk.jointCount);
  localToModel(rest, sk, sk.rest, root);
  const at = (n) => [12, 13, 14].map((k) => rest[16 * sk.indexOf.get(n) + k]);
  const length = (a, b) => Math.hypot(...at(a).map((v, k) => v - at(b)[k]));
  // The largest distance between the mirrored left joint and the reflected source right joint, as a share of `limb`.
  const gap = (src, mir, limb) => {
    let worst = 0;
    for (let i = 0; i <= FRAMES; i++) {
      const r = src.R[i], l = mir.L[i];
      worst = Math.max(worst, Math.hypot(-r[0] - l[0], r[1] - l[1], r[2] - l[2]));
    }
    return (100 * worst) / limb;
  };
  const clipOf = (file, name) => file.clips.find((c) => c.name === name);
  const wave = { src: paths(clipOf(source, "Wave"), "Palm2"), mir: paths(clipOf(written, "Wave"), "Palm2") };
  const walk = { src: paths(clipOf(source, "Walking"), "Foot"), mir: paths(clipOf(written, "Walking"), "Foot") };
  svg = draw(wave, walk, gap(wave.src, wave.mir, length("UpperArm.L", "Palm2.L")), gap(walk.src, walk.mir, length("UpperLeg.L", "Foot.L")));
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(OUT, "utf8");
  } catch {
    // missing: differs
  }
  if (current !== svg) {
    console.error(`${OUT} is not current: run npm run docs:mirror`);
    process.exit(1);
  }
} else {
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, svg);
  console.log(`wrote ${OUT}`);
}

/** The SVG: Wave's hands from the front; Walking's feet heights over the cycle. Source solid, mirror dashed. */
function draw(wave, walk, handGap, footGap) {
  const W = 780, H = 380, pad = 44;
  const colour = { L: "#2563eb", R: "#ea580c" };
  const fx = (v) => v.toFixed(1);
  const line = (pts, X, Y, c, dashed, faint) => `<polyline fill="none" stroke="${c}" stroke-width="${dashed ? 2.5 : 1.5}"${dashed ? ' stroke-dasharray="6 4"' : ""}${faint ? ' stroke-opacity="0.45"' : ""} points="${pts.map(([a, b]) => `${fx(X(a))},${fx(Y(b))}`).join(" ")}"/>`;
  // Panel 1: from the front, x across (mirror plane in the middle; the character's left on the right), y up.
  const hands = [...wave.src.L, ...wave.src.R, ...wave.mir.L, ...wave.mir.R];
  const xMax = Math.max(...hands.map((p) => Math.abs(p[0]))) * 1.15;
  const y0 = Math.min(...hands.map((p) => p[1])), y1 = Math.max(...hands.map((p) => p[1]));
  const p1 = { x: pad, y: pad, w: 320, h: H - 2 * pad - 14 };
  const scale = Math.min(p1.w / (2 * xMax), p1.h / ((y1 - y0) * 1.2));
  const X1 = (x) => p1.x + p1.w / 2 + x * scale;
  const Y1 = (y) => p1.y + p1.h / 2 - (y - (y0 + y1) / 2) * scale;
  const front = (pts) => pts.map((p) => [p[0], p[1]]);
  // Panel 2: height over the cycle.
  const feet = [...walk.src.L, ...walk.src.R, ...walk.mir.L, ...walk.mir.R];
  const f0 = Math.min(...feet.map((p) => p[1])), f1 = Math.max(...feet.map((p) => p[1]));
  const p2 = { x: 430, y: pad, w: 310, h: H - 2 * pad - 14 };
  const X2 = (i) => p2.x + (i / FRAMES) * p2.w;
  const Y2 = (y) => p2.y + p2.h * 0.95 - ((y - f0) / (f1 - f0 || 1)) * p2.h * 0.9;
  const height = (pts) => pts.map((p, i) => [i, p[1]]);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">RobotExpressive: the source clip (solid) and the mirrored clip animgraph mirror wrote (dashed)</text>`,
    `<text x="${p1.x}" y="${p1.y - 8}" fill="#333">Wave: hands from the front</text>`,
    `<rect x="${p1.x}" y="${p1.y}" width="${p1.w}" height="${p1.h}" fill="none" stroke="#ccc"/>`,
    `<line x1="${fx(X1(0))}" y1="${p1.y}" x2="${fx(X1(0))}" y2="${p1.y + p1.h}" stroke="#888" stroke-dasharray="2 3"/>`,
    `<text x="${fx(X1(0))}" y="${p1.y + p1.h + 14}" text-anchor="middle" fill="#555">mirror plane x = 0</text>`,
    `<text x="${p1.x + 6}" y="${p1.y + 16}" fill="#555">character's right</text>`,
    `<text x="${p1.x + p1.w - 6}" y="${p1.y + 16}" fill="#555" text-anchor="end">character's left</text>`,
    line(front(wave.src.L), X1, Y1, colour.L, false, true), line(front(wave.mir.R), X1, Y1, colour.R, true, true),
    line(front(wave.src.R), X1, Y1, colour.R, false, false), line(front(wave.mir.L), X1, Y1, colour.L, true, false),
    `<text x="${p2.x}" y="${p2.y - 8}" fill="#333">Walking: foot heights over one cycle</text>`,
    `<rect x="${p2.x}" y="${p2.y}" width="${p2.w}" height="${p2.h}" fill="none" stroke="#ccc"/>`,
    line(height(walk.src.R), X2, Y2, colour.R, false, false), line(height(walk.mir.L), X2, Y2, colour.L, true, false),
    line(height(walk.src.L), X2, Y2, colour.L, false, false), line(height(walk.mir.R), X2, Y2, colour.R, true, false),
    `<text x="${p2.x}" y="${p2.y + p2.h + 14}" fill="#555">each mirrored foot (dashed) rides on the other source foot</text>`,
    `<g transform="translate(${pad},${H - 10})">`,
    `<line x1="0" y1="-4" x2="22" y2="-4" stroke="${colour.L}" stroke-width="2"/><text x="26" y="0">left (Palm2.L, Foot.L)</text>`,
    `<line x1="170" y1="-4" x2="192" y2="-4" stroke="${colour.R}" stroke-width="2"/><text x="196" y="0">right</text>`,
    `<text x="250" y="0" fill="#333">mirrored left vs reflected source right, largest gap: hand ${handGap.toFixed(2)} % of arm, foot ${footGap.toFixed(2)} % of leg</text>`,
    "</g>",
    "</svg>",
  ];
  return `${parts.join("\n")}\n`;
}
