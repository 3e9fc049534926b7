import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { parseBvh, type BvhResult } from "../../src/io/bvh/index.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;

/** The real file cut to its first `frames` frames (with the Frames: header fixed), to keep cases fast. */
function shortened(path: string, frames: number): string {
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^Frames:/.test(l));
  lines[at] = lines[at]!.replace(/\d+/, String(frames));
  return lines.slice(0, at + 2 + frames).join("\n");
}

const JUNK = ["}", "{", "nan", "1e999", "-inf", "999999999", "CHANNELS", "CHANNELS 1000000", "JOINT", "ROOT Hips", "End", "End Site", "", "-", "1.2.3", "\u0000", "MOTION", "Frames: 999999999", "OFFSET", "Xposition", "#"];

type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "deleteLine"; at: number }
  | { kind: "duplicateLine"; at: number }
  | { kind: "swapLines"; at: number; other: number }
  | { kind: "replaceWord"; at: number; junk: number }
  | { kind: "insertText"; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("deleteLine" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicateLine" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("swapLines" as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ kind: fc.constant("replaceWord" as const), at: fc.nat(), junk: fc.nat({ max: JUNK.length - 1 }) }),
  fc.record({ kind: fc.constant("insertText" as const), at: fc.nat(), text: fc.string({ maxLength: 12 }) }),
);

function mutate(text: string, m: Mutation): string {
  const lines = text.split("\n");
  const line = m.at % lines.length;
  switch (m.kind) {
    case "truncate":
      return text.slice(0, m.at % (text.length + 1));
    case "deleteLine":
      lines.splice(line, 1);
      return lines.join("\n");
    case "duplicateLine":
      lines.splice(line, 0, lines[line]!);
      return lines.join("\n");
    case "swapLines": {
      const other = m.other % lines.length;
      [lines[line], lines[other]] = [lines[other]!, lines[line]!];
      return lines.join("\n");
    }
    case "replaceWord": {
      const words = lines[line]!.split(/(\s+)/);
      const w = Math.floor(m.at / lines.length) % Math.max(1, words.length);
      words[w] = JUNK[m.junk]!;
      lines[line] = words.join("");
      return lines.join("\n");
    }
    case "insertText": {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
  }
}

function checkResult(result: BvhResult, text: string, file: string): void {
  const lineCount = text.split(/\r\n|\n|\r/).length;
  for (const d of result.diagnostics) {
    assert.equal(d.file, file);
    assert.match(d.code, /^[EW]_BVH_/);
    assert.match(d.pointer, /^line \d+$/);
    assert.ok(d.line !== undefined && d.line >= 1 && d.line <= lineCount, `line ${d.line} of ${lineCount}`);
    assert.ok(d.column !== undefined && d.column >= 1);
    assert.ok(d.message.length > 0 && d.message.length < 300);
  }
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (result.clip) {
    assert.equal(errors.length, 0);
    for (const track of result.clip.tracks) for (const v of track.values) assert.ok(Number.isFinite(v));
  }
  if (errors.length > 0) assert.equal(result.clip, undefined);
}

for (const [asset, seed] of [["bvh-cmu-131/131_01.bvh", 131], ["bvh-cmu-pirouette/pirouette.bvh", 7]] as const) {
  test(`fuzz: ${asset} mutated 200 ways never throws and always locates its diagnostics`, { skip }, () => {
    const base = shortened(sharedAsset(asset), 12);
    assert.deepEqual(parseBvh(base, "f.bvh").diagnostics, []);
    // CPU time, not wall time: the guard is against a parser that loops, not against a busy machine.
    const started = process.cpuUsage();
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (ms) => {
        const text = ms.reduce(mutate, base);
        checkResult(parseBvh(text, "f.bvh"), text, "f.bvh");
      }),
      { seed, numRuns: 200 },
    );
    const used = process.cpuUsage(started);
    assert.ok((used.user + used.system) / 1000 < 15_000, `${((used.user + used.system) / 1e6).toFixed(1)} s of CPU`);
  });
}

test("fuzz: the full 131_03.bvh truncated at 25 offsets", { skip }, () => {
  const text = readFileSync(sharedAsset("bvh-cmu-131/131_03.bvh"), "utf8");
  let withClip = 0;
  for (let k = 0; k < 25; k++) {
    const cut = text.slice(0, Math.floor((text.length * (k + 0.5)) / 25));
    const result = parseBvh(cut, "cut.bvh");
    checkResult(result, cut, "cut.bvh");
    if (result.clip) withClip++;
    else assert.ok(result.diagnostics.some((d) => d.code === "E_BVH_TRUNCATED" || d.code === "E_BVH_MISSING_BRACE" || d.code === "E_BVH_CHANNEL_COUNT" || d.code === "E_BVH_BAD_NUMBER"), JSON.stringify(result.diagnostics));
  }
  assert.equal(withClip, 0);
});
