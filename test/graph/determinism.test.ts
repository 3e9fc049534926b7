import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import type { RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { digestRun } from "../../src/graph/digest-run.ts";
import { createSha256 } from "../../src/graph/sha256.ts";
import { readTimeline } from "../../src/graph/read-timeline-file.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { readGraphSpec } from "../../src/spec/read-graph-spec-file.ts";
import { repoPath } from "../helpers/assets.ts";

const GOLDEN = repoPath("test/golden/graph-robot-walk-run-jump.sha256");

async function robot(options: RuntimeOptions) {
  const spec = readGraphSpec(repoPath("examples/robot/robot.animgraph.json")).spec!;
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const graph = compileGraph(spec, gltf.skeletons[0]!, gltf.clips, options).graph!;
  const timeline = readTimeline(repoPath("examples/robot/walk-run-jump.timeline.json"), graph).timeline!;
  return { graph, timeline };
}

test("the built-in SHA-256 matches node:crypto", () => {
  const inputs = ["", "abc", "a".repeat(55), "a".repeat(56), "a".repeat(64), "x".repeat(1000)];
  for (const text of inputs) {
    const bytes = new TextEncoder().encode(text);
    const h = createSha256();
    h.update(bytes.subarray(0, 7));
    h.update(bytes.subarray(7));
    assert.equal(h.digest(), createHash("sha256").update(bytes).digest("hex"), `length ${text.length}`);
  }
});

test("golden digest: 10 s of the robot timeline at fixed dt in deterministic mode", async () => {
  // The same options the studio uses for its in-browser replay (test/studio compares the two).
  const { graph, timeline } = await robot({ deterministic: true });
  assert.equal(graph.options.quatMode, "fastSlerp");
  const a = digestRun(graph, timeline);
  assert.equal(a.steps, 300);
  const b = digestRun(graph, timeline, {
    createHasher: () => {
      const h = createHash("sha256");
      return { update: (bytes) => void h.update(bytes), digest: () => h.digest("hex") };
    },
  });
  assert.equal(b.digest, a.digest, "an injected hash gives the same digest");
  assert.equal(`${a.digest}\n`, readFileSync(GOLDEN, "utf8"), "the golden digest (regenerate only for an intended change of evaluation)");
  const withRoot = await robot({ deterministic: true, rootMotion: "auto" });
  const rooted = digestRun(withRoot.graph, withRoot.timeline);
  assert.equal(digestRun(withRoot.graph, withRoot.timeline).digest, rooted.digest, "root-motion stripping is deterministic too");
  const exact = await robot({ deterministic: false });
  assert.notEqual(digestRun(exact.graph, exact.timeline).digest, a.digest, "exact slerp differs in the last bits");
});

// Review of issue 18 (held-out): deterministic mode promises only + − × ÷ √ in the evaluation; the new
// blend modes and IK layers call Math's transcendental functions (docs/runtime.md says so). What the
// promise still covers — the robot example: crossfades, a 1D blend, an additive layer, root motion —
// must call none of them.
test("deterministic mode: 10 s of the robot example (crossfades, blends, additive layer, root motion) call no Math.acos/asin/atan/atan2/sin/cos/exp/log/pow", async () => {
  const { graph, timeline } = await robot({ deterministic: true, rootMotion: "auto" });
  const names = ["acos", "asin", "atan", "atan2", "sin", "cos", "tan", "exp", "expm1", "log", "log1p", "pow", "cbrt", "hypot"] as const;
  const counts = new Map<string, number>();
  const saved = names.map((name) => [name, Math[name]] as const);
  const math = Math as unknown as Record<string, (...args: number[]) => number>;
  try {
    for (const [name, fn] of saved) {
      const original = fn as (...args: number[]) => number;
      math[name] = (...args: number[]) => {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return original(...args);
      };
    }
    digestRun(graph, timeline);
  } finally {
    for (const [name, fn] of saved) math[name] = fn as (...args: number[]) => number;
  }
  assert.deepEqual(Object.fromEntries(counts), {}, "Math functions called by a deterministic run");
});
