import { resolve } from "node:path";
import type { Command } from "commander";
import { hasErrorsUnchecked } from "../../diagnostics/diagnostic.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { createContinuityMeter } from "../../continuity/continuity-meter.ts";
import { compileGraph } from "../../graph/compile-graph.ts";
import { describeStep, formatStepLine } from "../../graph/describe-step.ts";
import { hashPoseUnchecked } from "../../graph/digest-run.ts";
import { explainStep, formatExplanation, type StepExplanation } from "../../graph/explain-step.ts";
import { createInstance } from "../../graph/graph-instance.ts";
import { runTimeline } from "../../graph/run-timeline.ts";
import { createSha256 } from "../../graph/sha256.ts";
import { parseDt, timelineLimitProblem } from "../../graph/timeline.ts";
import { readTimeline } from "../../graph/read-timeline-file.ts";
import { readGraphInputs } from "../read-graph-inputs.ts";
import { CliUsageError, type CliCommand, type CliContext } from "../context.ts";

interface RunOptions {
  clips?: string;
  standInClips?: boolean;
  script: string;
  json?: boolean;
  dt?: string;
  deterministic?: boolean;
  rootMotion?: string;
  digest?: boolean;
  explain?: boolean;
}

/**
 * `animgraph run SPEC --clips FILE.glb --script TIMELINE.json [--json] [--dt 1/60] [--explain]`: simulates a timeline
 * of parameter changes, triggers and travel requests headlessly and prints every step's states, running
 * crossfades (progress s and weight w), events and root motion. Exit 0 after a run, 2 on unusable input.
 */
export const runCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command("run")
      .description("Simulate a timeline of parameter changes and triggers on a graph; print states, crossfades, events and root motion per step")
      .argument("<spec>", "graph spec (*.animgraph.json)")
      .requiredOption("--script <timeline>", "timeline JSON (docs/runtime.md, \"Timeline format\")")
      .option("--clips <file>", "glTF/GLB, .bvh or .vrma file with the skeleton and clips the spec names")
      .option("--stand-in-clips", "use procedural stand-in clips (one joint, one sine per clip name) instead of --clips")
      .option("--json", "print one JSON document with every step instead of text lines")
      .option("--dt <seconds>", "step length, a number or a fraction such as 1/60 (default: the timeline's dt)")
      .option("--deterministic", "bit-identical evaluation (polynomial slerp; only + − × ÷ √)")
      .option("--root-motion <joint>", "root-motion joint name, \"auto\" or \"none\"", "auto")
      .option("--digest", "also print the SHA-256 of the pose bytes of every step")
      .option("--explain", "before each step, tell for every transition out of each layer's state whether it fires and why not (text: a machine's block when it changes; JSON: every frame)")
      .action((spec: string, options: RunOptions) => run(ctx, spec, options));
  },
};

/**
 * One transition started during the run, with its continuity: the largest joint angular-velocity jump
 * (rad/s) of the output pose, over the joints its layer's mask moves, in its first step against the step
 * before (null in the first two steps, or when the mask moves no joint).
 */
interface TransitionContinuity {
  step: number;
  t: number;
  machine: string;
  from: string;
  to: string;
  blend: string;
  jump: number | null;
  joint: string | null;
  /** The crossfade this transition interrupted (it fired during that fade), as "A→B". */
  interrupted?: string;
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

async function run(ctx: CliContext, specPath: string, options: RunOptions): Promise<void> {
  const { io } = ctx;
  if ((options.clips === undefined) === (options.standInClips !== true)) {
    throw new CliUsageError("run: give exactly one of --clips FILE or --stand-in-clips");
  }
  let dtOverride: number | undefined;
  if (options.dt !== undefined) {
    dtOverride = parseDt(options.dt);
    if (dtOverride === undefined) throw new CliUsageError(`run: --dt must be a number > 0 or a fraction such as 1/60, got "${options.dt}"`);
  }
  const inputs = await readGraphInputs(ctx, specPath, options.clips);
  if (!inputs) return;
  const { spec, skeleton, clips } = inputs;
  const rootMotion = options.rootMotion === "none" ? null : (options.rootMotion ?? "auto");
  const compiled = compileGraph(spec, skeleton, clips, { deterministic: options.deterministic === true, rootMotion });
  ctx.printDiagnostics(compiled.diagnostics);
  const graph = compiled.graph;
  if (!graph) {
    ctx.exitCode = ExitCode.Unusable;
    return;
  }
  const tl = readTimeline(resolve(io.cwd, options.script), graph, options.script);
  ctx.printDiagnostics(tl.diagnostics);
  if (!tl.timeline || hasErrorsUnchecked(tl.diagnostics)) {
    ctx.exitCode = ExitCode.Unusable;
    return;
  }
  const dt = dtOverride ?? tl.timeline.dt;
  const limit = timelineLimitProblem(tl.timeline.duration, dt);
  if (limit) {
    ctx.printDiagnostics([{ code: "E_TIMELINE_LIMIT", severity: "error", file: dtOverride === undefined ? options.script : "--dt", pointer: dtOverride === undefined ? "/duration" : "", message: limit }]);
    ctx.exitCode = ExitCode.Unusable;
    return;
  }
  const instance = createInstance(graph);
  // Continuity: each step's output pose feeds the meter; a step that starts transitions reports its
  // angular-velocity jump against the step before (docs/transitions.md, "Continuity").
  const meter = createContinuityMeter(graph.skeleton.jointCount);
  const started: TransitionContinuity[] = [];
  const hasher = options.digest ? createSha256() : null;
  // Streamed: one line (or one JSON frame) per step as it is computed, never the whole run in memory.
  let steps = 0;
  if (options.json) io.stdout(`{"graph":${JSON.stringify(graph.name)},"dt":${JSON.stringify(dt)},"frames":[\n`);
  let explanation: StepExplanation | null = null;
  const lastBlock = new Map<string, string>();
  // Text: a machine's block is printed before the step it explains, when it differs from the block last
  // printed for that machine (crossfade progress aside).
  const explainText = (): void => {
    for (const m of explanation!.machines) {
      const key = JSON.stringify({ ...m, crossfade: m.crossfade ? { ...m.crossfade, progress: 0 } : null });
      if (lastBlock.get(m.machine) === key) continue;
      lastBlock.set(m.machine, key);
      for (const line of formatExplanation({ machines: [m] })) io.stdout(`${line}\n`);
    }
  };
  runTimeline(graph, instance, tl.timeline, (k, t, result) => {
    if (hasher) hashPoseUnchecked(hasher, result.pose);
    meter.push(result.pose, dt);
    const snap = describeStep(graph, instance, result);
    const here: TransitionContinuity[] = [];
    // An interruption's event comes just before the transition that interrupts (same machine).
    let interrupted: { machine: number; label: string } | null = null;
    for (let i = 0; i < result.events.count; i++) {
      const e = result.events.items[i]!;
      const machine = graph.machines[e.machine]!;
      const own = e.transition >= 0 ? machine.transitions[e.transition]! : null;
      // Labelled by the transition that fired (A→C when it fired from the source A of a running A→B),
      // not by the states the machine was between (B→C); an any-state transition by the state it left.
      const fromName = (s: number): string => machine.states[own && own.from >= 0 ? own.from : s]?.name ?? "";
      if (e.type === "transitionInterrupted") interrupted = { machine: e.machine, label: `${fromName(e.from)}→${machine.states[e.state]!.name}` };
      if (e.type !== "transitionStarted") continue;
      // Over the joints the transition's layer moves: an upper-body layer's fade is not blamed for the legs.
      const jump = meter.jumpOver(graph.layers[e.layer]!.mask);
      const known = !Number.isNaN(jump) && meter.joint >= 0;
      here.push({
        step: k, t, machine: machine.path, from: fromName(e.from), to: machine.states[e.state]!.name,
        blend: own ? own.blendName : "crossfade",
        jump: known ? round6(jump) : null, joint: known ? (graph.skeleton.names[meter.joint] ?? null) : null,
        ...(interrupted?.machine === e.machine ? { interrupted: interrupted.label } : {}),
      });
      interrupted = null;
    }
    started.push(...here);
    if (options.json) io.stdout(`${k > 0 ? ",\n" : ""}${JSON.stringify({ step: k, t, ...snap, ...(here.length ? { continuity: here } : {}), ...(explanation ? { explain: explanation } : {}) })}`);
    else io.stdout(`${formatStepLine(t, snap)}${here.map((c) => `  ~ ${c.from}→${c.to} (${c.blend}${c.interrupted ? `, interrupting ${c.interrupted}` : ""}) jump ${c.jump === null ? "n/a" : `${c.jump.toFixed(3)} rad/s at ${c.joint}`}`).join("")}\n`);
    steps++;
  }, dt, options.explain ? () => {
    explanation = explainStep(graph, instance);
    if (!options.json) explainText();
  } : undefined);
  const digest = hasher?.digest();
  if (options.json) {
    io.stdout(`\n],"steps":${steps},"transitions":${JSON.stringify(started)}${digest ? `,"digest":${JSON.stringify(digest)}` : ""}}\n`);
  } else if (digest) {
    io.stdout(`digest sha256:${digest}\n`);
  }
  ctx.exitCode = ExitCode.Clean;
}
