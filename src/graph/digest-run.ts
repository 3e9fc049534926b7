import type { Pose } from "../pose/pose.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import { createInstance } from "./graph-instance.ts";
import { runTimeline, timelineStepCount } from "./run-timeline.ts";
import { createSha256, type Hasher } from "./sha256.ts";
import type { Timeline } from "./timeline.ts";
import { argumentError, describeValue, expectFunction, expectOptionalObject, expectPose, invalidValue } from "../errors/check-argument.ts";
import { expectCompiledGraph } from "./check-graph.ts";
import { expectDt, expectStepLimit, expectTimeline } from "./check-timeline.ts";

/** Options of `digestRun`: the step length and the hash function. */
export interface DigestRunOptions {
  /** Step length; default the timeline's dt. */
  readonly dt?: number;
  /** Hash factory; default the built-in pure-JavaScript SHA-256 (same bits in Node and browsers). */
  readonly createHasher?: () => Hasher;
}

/** The fingerprint of a timeline run: one hash over every step's pose, and the number of steps. */
export interface RunDigest {
  /** Hex SHA-256 over the pose bytes of every step. */
  readonly digest: string;
  /** Steps run: round(duration / dt). */
  readonly steps: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Feeds a pose's bytes to a hasher: t, then r, then s, each as little-endian float32. */
export function hashPose(hasher: Hasher, pose: Pose): void {
  if (typeof hasher !== "object" || hasher === null || typeof (hasher as Partial<Hasher>).update !== "function") {
    throw argumentError("hashPose", "hasher", "a Hasher (an object with update(bytes), e.g. createSha256())", hasher);
  }
  expectPose("hashPose", "pose", pose);
  hashPoseUnchecked(hasher, pose);
}

/** `hashPose` without the argument checks, for the poses of the library's own runs. */
export function hashPoseUnchecked(hasher: Hasher, pose: Pose): void {
  for (const arr of [pose.t, pose.r, pose.s]) {
    const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
    if (LITTLE_ENDIAN) hasher.update(bytes);
    else {
      const swapped = new Uint8Array(bytes.length);
      for (let i = 0; i < bytes.length; i += 4) {
        swapped[i] = bytes[i + 3]!; swapped[i + 1] = bytes[i + 2]!; swapped[i + 2] = bytes[i + 1]!; swapped[i + 3] = bytes[i]!;
      }
      hasher.update(swapped);
    }
  }
}

/**
 * Runs `timeline` on a fresh instance of `graph` and hashes the local pose after every step
 * (SHA-256 over t, r, s as little-endian float32, step after step). With a graph compiled in
 * deterministic mode the digest is the same on every IEEE-754 JavaScript engine (Node, browsers),
 * which is what lets the studio check its own replays against the CLI's.
 */
export function digestRun(graph: CompiledGraph, timeline: Timeline, options: DigestRunOptions = {}): RunDigest {
  expectDigestRunArguments(graph, timeline, options);
  const dt = options.dt ?? timeline.dt;
  const hasher = (options.createHasher ?? createSha256)();
  if (typeof hasher !== "object" || hasher === null || typeof hasher.update !== "function" || typeof hasher.digest !== "function") {
    throw invalidValue("digestRun", "options.createHasher", `returned ${describeValue(hasher)}, not a Hasher (an object with update(bytes) and digest())`);
  }
  const instance = createInstance(graph);
  runTimeline(graph, instance, timeline, (_k, _t, result) => hashPoseUnchecked(hasher, result.pose), dt);
  return { digest: hasher.digest(), steps: timelineStepCount(timeline, dt) };
}

function expectDigestRunArguments(graph: unknown, timeline: unknown, options: unknown): void {
  const fn = "digestRun";
  expectCompiledGraph(fn, "graph", graph);
  expectTimeline(fn, timeline);
  expectOptionalObject(fn, "options", options);
  const { dt, createHasher } = (options ?? {}) as DigestRunOptions;
  if (dt !== undefined) expectDt(fn, dt, "options.dt");
  if (createHasher !== undefined) expectFunction(fn, "options.createHasher", createHasher);
  const runDt = dt ?? timeline.dt;
  expectDt(fn, runDt, "timeline.dt");
  expectStepLimit(fn, timeline, runDt);
}
