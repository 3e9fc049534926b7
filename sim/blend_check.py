#!/usr/bin/env python3
"""The Python reference tier of ``animgraph blend-check`` (standard library only).

Reads a blend-check spec (see docs/blend-check.md), validates it, and computes the same report as the
TypeScript tier, bit for bit: four-corner bilinear weights in integer per-mille with floor division,
transition checks against the state list and the frame budget, and two sha256 digests.

    python3 sim/blend_check.py SPEC [--out FILE] [--json] [--exit-zero]

Prints the human summary (or, with --json, the report), writes the report with --out, prints problems
to stderr as ``file: pointer: message [CODE]``. Exit 0 clean, 1 findings, 2 unusable input (no file
written, no traceback). Query coordinates are read under each axis's ``param`` name.
"""
import hashlib
import json
import os
import re
import sys
import tempfile

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # integers of any size, as the TypeScript tier (bigint) reads them

MAX_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 64
_MISSING = object()  # "no value" (JSON null is None)
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Obj(dict):
    """A JSON object that remembers the keys it saw more than once (the last value wins)."""

    dups = ()


def _pairs(pairs):
    obj = _Obj()
    dups = []
    for k, v in pairs:
        if k in obj:
            dups.append(k)
        obj[k] = v
    obj.dups = dups
    return obj


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def child(pointer, token):
    return pointer + "/" + str(token).replace("~", "~0").replace("/", "~1")


def describe(v):
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return "null"


class Reader:
    """Typed access that records a diagnostic per mismatch (codes as src/json/json-reader.ts)."""

    def __init__(self):
        self.diagnostics = []

    def report(self, pointer, code, message, severity="error"):
        self.diagnostics.append({"code": code, "severity": severity, "pointer": pointer, "message": message})

    def errors(self):
        return any(d["severity"] == "error" for d in self.diagnostics)

    def object(self, v, p):
        if v is _MISSING or isinstance(v, dict):
            return v
        self.report(p, "E_WRONG_TYPE", f"expected an object, found {describe(v)}")
        return _MISSING

    def array(self, v, p):
        if v is _MISSING or isinstance(v, list):
            return v
        self.report(p, "E_WRONG_TYPE", f"expected an array, found {describe(v)}")
        return _MISSING

    def string(self, v, p):
        if v is _MISSING or isinstance(v, str):
            return v
        self.report(p, "E_WRONG_TYPE", f"expected a string, found {describe(v)}")
        return _MISSING

    def boolean(self, v, p):
        if v is _MISSING or isinstance(v, bool):
            return v
        self.report(p, "E_NOT_BOOLEAN", f"expected true or false, found {describe(v)}")
        return _MISSING

    def integer(self, v, p):
        if v is _MISSING or (isinstance(v, int) and not isinstance(v, bool)):
            return v
        if isinstance(v, float):
            self.report(p, "E_NOT_INTEGER", f"expected an integer, found {v!r}")
        else:
            self.report(p, "E_WRONG_TYPE", f"expected an integer, found {describe(v)}")
        return _MISSING

    def member(self, obj, p, key):
        """(value, pointer) of a required member; E_MISSING_KEY at the object when absent."""
        if obj is _MISSING:
            return _MISSING, p
        if key not in obj:
            self.report(p, "E_MISSING_KEY", f'missing required key "{key}"')
            return _MISSING, p
        return obj[key], child(p, key)


def _scan(r, v, p, depth):
    """Document-level checks the TypeScript parser makes: nesting depth, duplicate keys, lone surrogates."""
    if isinstance(v, (dict, list)) and depth >= MAX_DEPTH:
        r.report(p, "E_JSON_TOO_DEEP", f"nesting deeper than {MAX_DEPTH} levels")
        return
    if isinstance(v, dict):
        for k in getattr(v, "dups", ()):
            r.report(child(p, k), "E_DUPLICATE_KEY", f'key "{k}" appears more than once')
        for k, x in v.items():
            if _SURROGATE.search(k):
                r.report(child(p, k), "E_BAD_UNICODE", "string contains an unpaired surrogate (not valid Unicode text)")
            _scan(r, x, child(p, k), depth + 1)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _scan(r, x, child(p, i), depth + 1)
    elif isinstance(v, str) and _SURROGATE.search(v):
        r.report(p, "E_BAD_UNICODE", "string contains an unpaired surrogate (not valid Unicode text)")


def parse_text(text):
    """(root or _MISSING, diagnostics) for JSON text."""
    r = Reader()
    try:
        root = json.loads(text, object_pairs_hook=_pairs, parse_constant=_reject_constant)
    except RecursionError:
        r.report("", "E_JSON_TOO_DEEP", f"nesting deeper than {MAX_DEPTH} levels")
        return _MISSING, r.diagnostics
    except ValueError as e:
        r.report("", "E_JSON_SYNTAX", f"not valid JSON: {e}")
        return _MISSING, r.diagnostics
    _scan(r, root, "", 0)
    return root, r.diagnostics


def read_file(path):
    """(root or _MISSING, diagnostics) for a JSON file (codes as src/json/parse-json.ts)."""
    r = Reader()
    try:
        if os.path.isdir(path):
            r.report("", "E_FILE_READ", "is a directory, not a file")
            return _MISSING, r.diagnostics
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            r.report("", "E_FILE_TOO_LARGE", f"file is {size} bytes; the limit is {MAX_BYTES}")
            return _MISSING, r.diagnostics
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        r.report("", "E_FILE_NOT_FOUND", "no such file")
        return _MISSING, r.diagnostics
    except OSError as e:
        r.report("", "E_FILE_READ", f"cannot read the file ({e.strerror})")
        return _MISSING, r.diagnostics
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        r.report("", "E_NOT_UTF8", "the file is not UTF-8 text")
        return _MISSING, r.diagnostics
    if text.startswith("\ufeff"):
        r.report("", "W_BOM", "the file starts with a byte-order mark; it was ignored", "warning")
        text = text[1:]
    root, more = parse_text(text)
    return root, r.diagnostics + more


def validate(root, diagnostics):
    """(spec or None, diagnostics): the same checks and codes as src/blend-check/validate-blend-spec.ts."""
    r = Reader()
    r.diagnostics = list(diagnostics)
    if root is _MISSING:
        return None, r.diagnostics
    root = r.object(root, "")
    project = r.string(*r.member(root, "", "project"))
    bs, bp = r.member(root, "", "blendSpace")
    bs = r.object(bs, bp)
    name = r.string(*r.member(bs, bp, "name"))

    axes_v, axes_p = r.member(bs, bp, "axes")
    axes_v = r.array(axes_v, axes_p)
    axes, params = _MISSING, _MISSING
    if axes_v is not _MISSING:
        if len(axes_v) != 2:
            r.report(axes_p, "E_AXIS_COUNT", f"a blend space needs exactly two axes (x, y), found {len(axes_v)}")
        read = []
        for i, a in enumerate(axes_v):
            ap = child(axes_p, i)
            a = r.object(a, ap)
            param = r.string(*r.member(a, ap, "param"))
            lo = r.integer(*r.member(a, ap, "min"))
            hi_v, hi_p = r.member(a, ap, "max")
            hi = r.integer(hi_v, hi_p)
            axis = _MISSING
            if lo is not _MISSING and hi is not _MISSING and hi <= lo:
                r.report(hi_p, "E_AXIS_RANGE", f"axis max {hi} must be greater than min {lo}")
            elif _MISSING not in (param, lo, hi):
                axis = (param, lo, hi)
            read.append((param, axis))
        if len(read) == 2 and read[0][0] is not _MISSING and read[1][0] is not _MISSING:
            if read[0][0] == read[1][0]:
                r.report(child(child(axes_p, 1), "param"), "E_AXIS_PARAM_DUPLICATE",
                         f'both axes use the parameter "{read[1][0]}"; a query point could not give two coordinates')
            else:
                params = (read[0][0], read[1][0])
                if read[0][1] is not _MISSING and read[1][1] is not _MISSING:
                    axes = (read[0][1], read[1][1])

    def items(key, base, base_p, read_item):
        v, p = r.member(base, base_p, key)
        v = r.array(v, p)
        if v is _MISSING:
            return _MISSING
        out = [read_item(x, child(p, i)) for i, x in enumerate(v)]
        return _MISSING if _MISSING in out else out

    def sample(v, p):
        v = r.object(v, p)
        clip = r.string(*r.member(v, p, "clip"))
        x = r.integer(*r.member(v, p, "x"))
        y = r.integer(*r.member(v, p, "y"))
        return _MISSING if _MISSING in (clip, x, y) else {"clip": clip, "x": x, "y": y}

    def query(v, p):
        v = r.object(v, p)
        if v is _MISSING or params is _MISSING:
            return _MISSING
        x = r.integer(*r.member(v, p, params[0]))
        y = r.integer(*r.member(v, p, params[1]))
        return _MISSING if _MISSING in (x, y) else (x, y)

    def transition(v, p):
        v = r.object(v, p)
        t = {"from": r.string(*r.member(v, p, "from")), "to": r.string(*r.member(v, p, "to")),
             "frames": r.integer(*r.member(v, p, "frames")),
             "exitPermille": r.integer(*r.member(v, p, "exitPermille")),
             "interruptible": r.boolean(*r.member(v, p, "interruptible"))}
        return _MISSING if _MISSING in t.values() else t

    samples = items("samples", bs, bp, sample)
    clip_set = items("clipSet", root, "", r.string)
    queries = items("queryPoints", root, "", query)
    states = items("states", root, "", r.string)
    bud, bud_p = r.member(root, "", "transitionBudget")
    bud = r.object(bud, bud_p)
    min_frames = r.integer(*r.member(bud, bud_p, "minFrames"))
    max_v, max_p = r.member(bud, bud_p, "maxFrames")
    max_frames = r.integer(max_v, max_p)
    if min_frames is not _MISSING and max_frames is not _MISSING and max_frames < min_frames:
        r.report(max_p, "E_BUDGET_RANGE", f"maxFrames {max_frames} is below minFrames {min_frames}: no transition could fit")
    transitions = items("transitions", root, "", transition)

    if r.errors():
        return None, r.diagnostics
    spec = {"project": project, "name": name, "axes": axes, "samples": samples, "clipSet": clip_set,
            "queries": queries, "states": states, "budget": (min_frames, max_frames), "transitions": transitions}
    return spec, r.diagnostics


def bilinear(samples, axes, qx, qy):
    """Per-mille weight of every sample for the query (qx, qy): floor division throughout."""
    (_, ax0, ax1), (_, ay0, ay1) = axes
    tx = (qx - ax0) * 1000 // (ax1 - ax0)
    ty = (qy - ay0) * 1000 // (ay1 - ay0)
    return [(s["clip"], (tx if s["x"] == ax1 else 1000 - tx) * (ty if s["y"] == ay1 else 1000 - ty) // 1000)
            for s in samples]


def _inside(axes, x, y):
    (_, ax0, ax1), (_, ay0, ay1) = axes
    return ax0 <= x <= ax1 and ay0 <= y <= ay1


def _corners(axes):
    (_, ax0, ax1), (_, ay0, ay1) = axes
    return [(x, y) for x in (ax0, ax1) for y in (ay0, ay1)]


def digest16(lines):
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def analyze(spec):
    """The report dict (same fields and values as the TypeScript tier)."""
    axes, samples, transitions = spec["axes"], spec["samples"], spec["transitions"]
    (px, _, _), (py, _, _) = axes
    states = set(spec["states"])
    lo, hi = spec["budget"]

    bad = ["cornersMissing"] if {(s["x"], s["y"]) for s in samples} != set(_corners(axes)) else []
    bad += [f"outOfRange={s['clip']}" for s in samples if not _inside(axes, s["x"], s["y"])]
    missing = sorted({s["clip"] for s in samples} - set(spec["clipSet"]))

    dangling, out_of_budget, seen, dup = [], [], set(), []
    for t in transitions:
        label = f"{t['from']}->{t['to']}"
        if t["from"] not in states or t["to"] not in states:
            dangling.append(label)
        if not (lo <= t["frames"] <= hi):
            out_of_budget.append(f"{label}:{t['frames']}")
        key = (t["from"], t["to"])
        if key in seen:
            dup.append(label)
        seen.add(key)

    weights = []
    for qx, qy in spec["queries"]:
        parts = [f"{c}={w}" for c, w in bilinear(samples, axes, qx, qy) if w > 0]
        weights.append(f"{px}={qx} {py}={qy}:" + " ".join(parts))
    tlines = sorted(f"{t['from']}->{t['to']}:{t['frames']}:{t['exitPermille']}:{'T' if t['interruptible'] else 'F'}"
                    for t in transitions)
    return {"project": spec["project"], "blendSpace": spec["name"], "sampleCount": len(samples),
            "queryCount": len(spec["queries"]), "transitionCount": len(transitions),
            "badSamples": bad, "missingClipRefs": missing, "danglingTransitions": sorted(dangling),
            "outOfBudget": sorted(out_of_budget), "duplicateTransitions": sorted(dup),
            "weights": weights, "weightDigest": digest16(weights), "transitionDigest": digest16(tlines)}


def findings(spec):
    """The findings as diagnostics: the codes and pointers of src/blend-check/blend-spec-findings.ts."""
    r = Reader()
    axes = spec["axes"]
    (px, ax0, ax1), (py, ay0, ay1) = axes
    box = f"[{ax0}..{ax1}] × [{ay0}..{ay1}]"
    have = dict.fromkeys((s["x"], s["y"]) for s in spec["samples"])  # a set in sample order
    need = _corners(axes)
    if set(have) != set(need):
        missing = " ".join(f"({x}, {y})" for x, y in need if (x, y) not in have)
        extra = " ".join(f"({x}, {y})" for x, y in have if (x, y) not in need)
        parts = ([f"no sample at {missing}"] if missing else []) + ([f"samples off the corners at {extra}"] if extra else [])
        r.report("/blendSpace/samples", "E_BLEND_CORNERS_MISSING",
                 f"the samples must sit exactly on the four corners of {box}: {'; '.join(parts)}")
    clip_set = set(spec["clipSet"])
    for i, s in enumerate(spec["samples"]):
        if not _inside(axes, s["x"], s["y"]):
            r.report(f"/blendSpace/samples/{i}", "E_SAMPLE_OUT_OF_RANGE",
                     f'sample "{s["clip"]}" at ({s["x"]}, {s["y"]}) is outside the blend space {box}')
        if s["clip"] not in clip_set:
            r.report(f"/blendSpace/samples/{i}/clip", "E_MISSING_CLIP", f'clip "{s["clip"]}" is not in clipSet')
    for i, (qx, qy) in enumerate(spec["queries"]):
        if not _inside(axes, qx, qy):
            r.report(f"/queryPoints/{i}", "W_QUERY_OUT_OF_RANGE",
                     f"query ({px}={qx}, {py}={qy}) is outside the blend space {box}; its weights are extrapolated",
                     "warning")
    states = set(spec["states"])
    lo, hi = spec["budget"]
    first = {}
    for i, t in enumerate(spec["transitions"]):
        if t["from"] not in states:
            r.report(f"/transitions/{i}/from", "E_UNKNOWN_STATE", f'unknown state "{t["from"]}"')
        if t["to"] not in states:
            r.report(f"/transitions/{i}/to", "E_UNKNOWN_STATE", f'unknown state "{t["to"]}"')
        if not (lo <= t["frames"] <= hi):
            r.report(f"/transitions/{i}/frames", "E_TRANSITION_BUDGET", f"{t['frames']} frames is outside the budget {lo}..{hi}")
        key = (t["from"], t["to"])
        if key in first:
            r.report(f"/transitions/{i}", "E_DUPLICATE_TRANSITION",
                     f'transition "{t["from"]}" -> "{t["to"]}" repeats /transitions/{first[key]}')
        else:
            first[key] = i
    return r.diagnostics


def dump_report(report):
    """The report file's text: json.dump(ensure_ascii=False, indent=2, sort_keys=True) plus a newline."""
    return json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def summary_lines(report):
    return ([f"samples={report['sampleCount']} queries={len(report['weights'])} transitions={report['transitionCount']}",
             f"dangling={len(report['danglingTransitions'])} outOfBudget={len(report['outOfBudget'])} "
             f"dup={len(report['duplicateTransitions'])} badSamples={len(report['badSamples'])} "
             f"missingRefs={len(report['missingClipRefs'])}"]
            + [f"  {w}" for w in report["weights"]]
            + [f"  outOfBudget {t}" for t in report["outOfBudget"]]
            + [f"  dangling    {t}" for t in report["danglingTransitions"]]
            + [f"weightDigest={report['weightDigest']}", f"transitionDigest={report['transitionDigest']}"])


def check_file(path):
    """{"report": dict or None, "diagnostics": [...], "exitCode": 0 | 1 | 2} for one spec file."""
    spec, diags = validate(*read_file(path))
    if spec is None:
        return {"report": None, "diagnostics": diags, "exitCode": 2}
    found = findings(spec)
    return {"report": analyze(spec), "diagnostics": diags + found, "exitCode": 1 if found else 0}


def format_diagnostic(label, d):
    where = f"{d['pointer']}: " if d["pointer"] else ""
    level = "" if d["severity"] == "error" else f"{d['severity']}: "
    return f"{label}: {where}{level}{d['message']} [{d['code']}]"


def write_atomic(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


USAGE = "usage: blend_check.py SPEC [--out FILE] [--json] [--exit-zero]"


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):  # names are Unicode whatever the locale says
            stream.reconfigure(encoding="utf-8")
    spec_path, out, as_json, exit_zero = None, None, False, False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--out" and args:
            out = args.pop(0)
        elif a == "--json":
            as_json = True
        elif a == "--exit-zero":
            exit_zero = True
        elif not a.startswith("--") and spec_path is None:
            spec_path = a
        else:
            print(f"blend_check.py: bad argument {a!r}\n{USAGE}", file=sys.stderr)
            return 2
    if spec_path is None:
        print(USAGE, file=sys.stderr)
        return 2
    result = check_file(spec_path)
    for d in result["diagnostics"]:
        print(format_diagnostic(spec_path, d), file=sys.stderr)
    report = result["report"]
    if report is None:
        return 2
    text = dump_report(report)
    if out is not None:
        try:
            write_atomic(out, text)
        except OSError as e:
            print(f"{out}: cannot write the report ({e.strerror}) [E_FILE_WRITE]", file=sys.stderr)
            return 2
    if as_json:
        sys.stdout.write(text)
    else:
        lines = summary_lines(report) + ([f"wrote {out}"] if out is not None else [])
        sys.stdout.write("\n".join(lines) + "\n")
    return 0 if exit_zero else result["exitCode"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
