// The Python tier (sim/blend_check.py) and the TypeScript tier must give the same report, field for
// field and byte for byte, the same summary, the same exit code and the same diagnostics (code, severity,
// pointer) on the bundled spec and on hundreds of generated ones, valid and broken.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { blendCheckFile } from "../../src/blend-check/blend-check-file.ts";
import { formatBlendReportJson, formatBlendSummary } from "../../src/blend-check/format-report.ts";
import { REPO_ROOT, repoPath } from "../helpers/assets.ts";
import { breakages, specText, tidy, validSpecArb } from "./blend-spec-arbitrary.ts";

const SIM = repoPath("sim/blend_check.py");
const SPEC_REL = "examples/stardust-inn/ta09_blend.json";
const GOLDEN_JSON = readFileSync(repoPath("test/golden/blend-check/ta09_blend.report.json"), "utf8");
const GOLDEN_SUMMARY = readFileSync(repoPath("test/golden/blend-check/ta09_blend.summary.txt"), "utf8");

// One Python process checks every file of a list (spawning one per file would take far longer).
const DRIVER = `
import json, sys
sys.path.insert(0, sys.argv[1])
import blend_check as bc
out = []
for path in open(sys.argv[2], encoding="utf-8").read().splitlines():
    r = bc.check_file(path)
    rep = r["report"]
    out.append({"exitCode": r["exitCode"],
                "reportText": None if rep is None else bc.dump_report(rep),
                "summary": None if rep is None else "\\n".join(bc.summary_lines(rep)) + "\\n",
                "diagnostics": [[d["code"], d["severity"], d["pointer"]] for d in r["diagnostics"]]})
sys.stdout.write(json.dumps(out))
`;

interface PyResult {
  exitCode: number;
  reportText: string | null;
  summary: string | null;
  diagnostics: [string, string, string][];
}

function runPythonBatch(paths: string[]): PyResult[] {
  const dir = mkdtempSync(join(tmpdir(), "blend-py-"));
  writeFileSync(join(dir, "driver.py"), DRIVER);
  writeFileSync(join(dir, "list.txt"), paths.join("\n"));
  const r = spawnSync("python3", [join(dir, "driver.py"), repoPath("sim"), join(dir, "list.txt")], { encoding: "utf8", maxBuffer: 256 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as PyResult[];
}

const key = (d: readonly string[]): string => d.join(" ");

test("the Python CLI prints the reference's summary and writes its JSON byte for byte", () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-py-cli-"));
  const out = join(dir, "ta09_blend.json");
  const r = spawnSync("python3", [SIM, SPEC_REL, "--out", out], { cwd: REPO_ROOT, encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, `${GOLDEN_SUMMARY}wrote ${out}\n`);
  assert.equal(readFileSync(out, "utf8"), GOLDEN_JSON);
  assert.match(r.stderr, /\/transitions\/6\/to: unknown state "Ghost" \[E_UNKNOWN_STATE\]/);
  const z = spawnSync("python3", [SIM, SPEC_REL, "--json", "--exit-zero"], { cwd: REPO_ROOT, encoding: "utf8" });
  assert.deepEqual([z.status, z.stdout], [0, GOLDEN_JSON]);
});

test("the Python CLI rejects unusable input with exit 2, diagnostics, no traceback and no file", () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-py-cli-"));
  const bad = join(dir, "bad.json");
  writeFileSync(bad, readFileSync(repoPath(SPEC_REL), "utf8").replace('"max": 300', '"max": 0').replace('"frames": 8,', '"frames": 8.5,'));
  const out = join(dir, "out.json");
  const r = spawnSync("python3", [SIM, bad, "--out", out], { encoding: "utf8" });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    `${bad}: /blendSpace/axes/0/max: axis max 0 must be greater than min 0 [E_AXIS_RANGE]\n` +
      `${bad}: /transitions/0/frames: expected an integer, found 8.5 [E_NOT_INTEGER]\n`,
  );
  for (const text of ["{", "[1, NaN]", "\uFEFF"]) {
    writeFileSync(bad, text);
    const s = spawnSync("python3", [SIM, bad, "--out", out], { encoding: "utf8" });
    assert.equal(s.status, 2, text);
    assert.doesNotMatch(s.stderr, /Traceback/);
    assert.match(s.stderr, /\[E_JSON_SYNTAX\]\n$/);
  }
  const m = spawnSync("python3", [SIM, join(dir, "none.json")], { encoding: "utf8" });
  assert.deepEqual([m.status, m.stderr], [2, `${join(dir, "none.json")}: no such file [E_FILE_NOT_FOUND]\n`]);
  assert.equal(spawnSync("python3", [SIM], { encoding: "utf8" }).status, 2);
  assert.deepEqual(spawnSync("ls", [dir], { encoding: "utf8" }).stdout, "bad.json\n");
});

test("both tiers agree on the bundled spec and on 240 generated valid specs and their broken variants", () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-cross-"));
  const valid = fc.sample(validSpecArb, { seed: 20261202, numRuns: 240 }).map((s, i) => (i % 6 === 5 ? tidy(s) : s));
  const files: { path: string; expect?: { code: string; pointer: string } }[] = [{ path: repoPath(SPEC_REL) }];
  valid.forEach((spec, i) => {
    const path = join(dir, `valid-${i}.json`);
    writeFileSync(path, specText(spec));
    files.push({ path });
  });
  // Single-fault variants of a few specs that have samples, queries and transitions to break.
  const full = valid.filter((s) => [(s.get("blendSpace") as Map<string, unknown[]>).get("samples"), s.get("queryPoints"), s.get("transitions")].every((a) => (a as unknown[]).length > 0));
  full.slice(0, 4).forEach((spec, i) => {
    for (const [j, b] of breakages(spec).entries()) {
      const path = join(dir, `broken-${i}-${j}.json`);
      writeFileSync(path, b.text);
      files.push({ path, expect: { code: b.code, pointer: b.pointer } });
    }
  });
  assert.ok(files.length > 300);

  const py = runPythonBatch(files.map((f) => f.path));
  assert.equal(py.length, files.length);
  const tally = { clean: 0, findings: 0, unusable: 0, outOfRangeQueries: 0, huge: 0 };
  files.forEach((f, i) => {
    const p = py[i]!;
    const ts = blendCheckFile(f.path);
    const label = `${f.path}\n${readFileSync(f.path, "utf8").slice(0, 2000)}`;
    assert.equal(ts.exitCode, p.exitCode, label);
    if (ts.exitCode === 0) tally.clean++;
    else if (ts.exitCode === 1) tally.findings++;
    else tally.unusable++;
    if (f.expect) {
      assert.equal(ts.exitCode, 2, label);
      assert.ok(ts.diagnostics.some((d) => d.code === f.expect!.code && d.pointer === f.expect!.pointer), label);
    }
    if (ts.report) {
      assert.ok(p.reportText !== null, label);
      // Field for field, then byte for byte.
      assert.deepEqual(JSON.parse(p.reportText) as unknown, JSON.parse(JSON.stringify(ts.report)) as unknown, label);
      assert.equal(formatBlendReportJson(ts.report), p.reportText, label);
      assert.equal(`${formatBlendSummary(ts.report).join("\n")}\n`, p.summary, label);
      if (ts.diagnostics.some((d) => d.code === "W_QUERY_OUT_OF_RANGE")) tally.outOfRangeQueries++;
      if (/\d{19}/.test(ts.report.weights.join(" "))) tally.huge++;
    } else {
      assert.equal(p.reportText, null, label);
    }
    const tsDiags = ts.diagnostics.map((d) => [d.code, d.severity, d.pointer]);
    if (ts.diagnostics.some((d) => d.code === "E_JSON_SYNTAX")) {
      // The two parsers word and count syntax errors differently; the code is what must agree.
      assert.deepEqual(new Set(tsDiags.map((d) => d[0])), new Set(p.diagnostics.map((d) => d[0])), label);
    } else {
      assert.deepEqual(tsDiags.map(key).sort(), p.diagnostics.map(key).sort(), label);
    }
  });
  console.log(`cross-language: ${files.length} specs, ${JSON.stringify(tally)}`);
  // The generator reaches every outcome (guards against a generator that only makes easy specs).
  assert.ok(tally.clean >= 40 && tally.findings > 100 && tally.unusable > 50 && tally.outOfRangeQueries > 30 && tally.huge > 10, JSON.stringify(tally));
});
