// animgraph studio: plays, explains and debugs an animation graph on a real character, live.
import * as THREE from "three";
import { GLTFLoader, type GLTF } from "three/examples/jsm/loaders/GLTFLoader.js";
import {
  compileGraph, createCrowd, createInstance, crowdKernelSupported, evaluateCrowd, getParam, loadCrowdKernel, hasErrors, lintDocument, loadGltf, parseJsonText, setParam, step, travel,
  type Clip, type CompiledGraph, type Crowd, type CrowdKernel, type Diagnostic, type GraphInstance, type GraphSpec, type Skeleton,
} from "animgraph";
import { applyPoseToThree, bindThreeSkeleton, type ThreeBinding } from "animgraph/three";
import { createBlendView, type BlendView } from "./blend-view.ts";
import { createFadeView } from "./fade-view.ts";
import { createGraphView, type GraphView } from "./graph-view.ts";
import { createLogView } from "./log-view.ts";
import { createParamsView, type ParamsView } from "./params-view.ts";
import { runBundledScript } from "./scripted-run.ts";
import { createViewport } from "./viewport.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

interface Character { name: string; gltf: GLTF; skeleton: Skeleton; clips: readonly Clip[]; binding: ThreeBinding; root: THREE.Object3D }
interface Live { spec: GraphSpec; graph: CompiledGraph; instance: GraphInstance; graphView: GraphView; paramsView: ParamsView; blendView: BlendView | undefined; crowd: Crowd | null }

const viewport = createViewport($("viewport"));
const log = createLogView($("findings"), $("events"));
const fade = createFadeView($<HTMLCanvasElement>("fade-curve"), $<HTMLCanvasElement>("fade-history"), $("fade-readout"));
const status = $("status");
const editor = $<HTMLTextAreaElement>("editor");
let character: Character | undefined;
let live: Live | undefined;
let graphFile = "robot.animgraph.json";
let graphText = "";
// The crowd toggle evaluates with the WebAssembly SIMD kernel where the browser has it (all current ones).
let crowdKernel: CrowdKernel | null = null;
const kernelReady = crowdKernelSupported()
  ? loadCrowdKernel().then((k) => { crowdKernel = k; }, () => { crowdKernel = null; })
  : Promise.resolve();
let frames = 0;
const evalTimes = new Float64Array(60);

async function loadCharacter(bytes: Uint8Array, name: string): Promise<void> {
  const loaded = await loadGltf(bytes, { fileName: name });
  if (!loaded.ok || loaded.skeletons.length === 0) {
    log.showFindings(loaded.diagnostics.filter((d) => d.severity === "error"), () => {});
    status.textContent = `${name}: could not load the character`;
    return;
  }
  const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, "");
  const skeleton = loaded.skeletons[0]!;
  const root = gltf.scene;
  const { binding } = bindThreeSkeleton(skeleton, root, { nodeIndexOf: (o) => gltf.parser.associations.get(o)?.nodes });
  character = { name, gltf, skeleton, clips: loaded.clips.filter((c) => c.skeleton === skeleton), binding, root };
  viewport.setCharacter(root);
  if (graphText) reloadGraph(graphText, graphFile);
}

/** Lints and compiles the graph text; on success swaps the running graph, keeping parameter values. */
function reloadGraph(text: string, file: string): void {
  graphText = text;
  graphFile = file;
  if (editor.value !== text) editor.value = text;
  const doc = parseJsonText(text, file);
  const clipInfo = character ? { clips: character.clips, skeleton: character.skeleton } : {};
  const lint = lintDocument(doc, clipInfo);
  const findings: Diagnostic[] = [...lint.diagnostics];
  let compiled: CompiledGraph | undefined;
  if (lint.spec && character && !hasErrors(findings)) {
    const result = compileGraph(lint.spec, character.skeleton, character.clips, { rootMotion: "auto" });
    findings.push(...result.diagnostics);
    compiled = result.graph;
  }
  log.showFindings(findings, selectFinding);
  if (!compiled || !lint.spec) {
    status.textContent = `${file}: ${findings.filter((d) => d.severity === "error").length} error(s); the last good graph keeps running`;
    document.body.dataset["graph"] = "broken";
    return;
  }
  const instance = createInstance(compiled);
  if (live) {
    // Keep the user's parameter values across reloads (by name, when the type still fits).
    for (const p of compiled.params) {
      if (p.type === "trigger" || !live.graph.paramIndex.has(p.name)) continue;
      try { setParam(instance, p.name, getParam(live.instance, p.name)); } catch { /* type changed: keep default */ }
    }
  }
  const machine = compiled.layers[0]!.machine;
  const paramNames = compiled.params.map((p) => p.name);
  const graphView = createGraphView($("graph"), machine, paramNames, (state) => {
    try { travel(live!.instance, 0, state); } catch (e) { log.note(String((e as Error).message)); }
  });
  const getInstance = (): GraphInstance => live!.instance;
  const paramsView = createParamsView($("params"), lint.spec, getInstance, () => {});
  const blendView = createBlendView($("blend"), $("blend-weights"), $("blend-sum"), compiled, getInstance, () => {});
  live = { spec: lint.spec, graph: compiled, instance, graphView, paramsView, blendView, crowd: null };
  setCrowd($<HTMLInputElement>("toggle-crowd").checked);
  document.body.dataset["graph"] = "ok";
  status.textContent = `${character?.name ?? ""} · ${file}`;
}

function selectFinding(d: Diagnostic): void {
  if (!live) return;
  const machine = live.graph.layers[0]!.machine;
  const tm = /\/transitions\/(\d+)/.exec(d.pointer);
  if (tm) { live.graphView.flashTransition(Number(tm[1])); return; }
  const sm = /\/states\/([^/]+)/.exec(d.pointer);
  if (sm) live.graphView.flashState(sm[1]!.replace(/~1/g, "/").replace(/~0/g, "~"));
  void machine;
}

function setCrowd(on: boolean): void {
  if (!live) return;
  const n = Math.max(1, Math.min(5000, Number($<HTMLInputElement>("crowd-size").value) || 300));
  live.crowd = on ? createCrowd(live.graph, n, crowdKernel ? { kernel: crowdKernel } : {}) : null;
  live.crowd?.instances.forEach((c, i) => {
    for (const p of live!.graph.params) if (p.type === "float") setParam(c, p.name, ((i * 7919) % 100) / 100 * 3);
  });
}

let last = performance.now();
function frame(now: number): void {
  // Slow motion for inspecting crossfades; a long frame (tab in background) is capped at 0.1 s.
  const dt = Math.min(0.1, Math.max(0, (now - last) / 1000)) * Number($<HTMLSelectElement>("time-scale").value);
  last = now;
  if (live && character && !$<HTMLInputElement>("toggle-pause").checked) {
    const t0 = performance.now();
    step(live.graph, live.instance, dt);
    if (live.crowd) evaluateCrowd(live.crowd, dt);
    const t1 = performance.now();
    evalTimes[frames % evalTimes.length] = t1 - t0;
    frames++;
    applyPoseToThree(character.binding, live.instance.result.pose);
    const d = live.instance.result.rootDelta;
    if (d[0] !== 0 || d[2] !== 0 || d[3] !== 0) {
      // Root motion: move the character over the grid (delta is in the character's frame).
      const root = character.root;
      const yaw = root.rotation.y;
      const c = Math.cos(yaw), s = Math.sin(yaw);
      root.position.x += c * d[0]! + s * d[2]!;
      root.position.z += -s * d[0]! + c * d[2]!;
      root.rotation.y += d[3]!;
      if (Math.hypot(root.position.x, root.position.z) > 15) root.position.set(0, root.position.y, 0);
      viewport.follow(root.position);
    }
    const machine = live.graph.layers[0]!.machine;
    const mi = live.instance.machines[machine.id]!;
    $("current-state").textContent = machine.states[mi.current]!.name;
    document.body.dataset["state"] = machine.states[mi.current]!.name;
    live.graphView.update(live.instance);
    live.paramsView.sync(live.instance);
    live.blendView?.update(live.instance);
    fade.update(live.instance, machine);
    renderTransitions(live, machine);
    log.pushEvents(live.instance, live.graph);
    const sorted = Array.from(evalTimes.slice(0, Math.min(frames, evalTimes.length))).sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1] ?? 0;
    const count = 1 + (live.crowd?.count ?? 0);
    const path = live.crowd ? (live.crowd.wasm ? " · crowd on the WebAssembly SIMD kernel" : " · crowd on the JS path") : "";
    $("perf").textContent = `evaluation ${median.toFixed(3)} ms/frame (median of ${sorted.length}) · ${count} character(s) · ${((median * 1000) / count).toFixed(1)} µs per character · ${live.graph.skeleton.jointCount} joints${path}`;
  }
  viewport.render();
  requestAnimationFrame(frame);
}

function renderTransitions(l: Live, machine: CompiledGraph["layers"][number]["machine"]): void {
  const host = $("transitions");
  const mi = l.instance.machines[machine.id]!;
  const rows: string[] = [];
  for (let k = 0; k < mi.depth; k++) {
    const e = mi.stack[k]!;
    const from = e.from >= 0 ? machine.states[e.from]!.name : "pose";
    rows.push(`${from}→${machine.states[e.to]!.name}|${e.progress}`);
  }
  const key = rows.map((r) => r.split("|")[0]).join(",");
  if (host.dataset["key"] !== key) {
    host.dataset["key"] = key;
    host.replaceChildren(...rows.map((r) => {
      const [name] = r.split("|");
      const div = document.createElement("div");
      div.className = "run";
      div.dataset["transition"] = name!;
      const label = document.createElement("span");
      label.textContent = name!;
      const bar = document.createElement("progress");
      bar.max = 1;
      bar.setAttribute("aria-label", `Transition ${name} progress`);
      div.append(label, bar);
      return div;
    }));
  }
  rows.forEach((r, i) => {
    const bar = host.children[i]?.querySelector("progress");
    if (bar) bar.value = Number(r.split("|")[1]);
  });
}

async function readFileBytes(input: HTMLInputElement | File): Promise<{ bytes: Uint8Array; name: string } | undefined> {
  const file = input instanceof File ? input : input.files?.[0];
  if (!file) return undefined;
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

async function openFile(file: File): Promise<void> {
  const got = await readFileBytes(file);
  if (!got) return;
  if (/\.glb$/i.test(got.name)) await loadCharacter(got.bytes, got.name);
  else reloadGraph(new TextDecoder().decode(got.bytes), got.name);
}

$<HTMLInputElement>("open-glb").addEventListener("change", (e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void openFile(f); });
$<HTMLInputElement>("open-graph").addEventListener("change", (e) => { const f = (e.target as HTMLInputElement).files?.[0]; if (f) void openFile(f); });
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  for (const f of Array.from(e.dataTransfer?.files ?? [])) void openFile(f);
});
$<HTMLInputElement>("toggle-skeleton").addEventListener("change", (e) => viewport.setSkeletonVisible((e.target as HTMLInputElement).checked));
$<HTMLInputElement>("toggle-crowd").addEventListener("change", (e) => setCrowd((e.target as HTMLInputElement).checked));
$("edit-graph").addEventListener("click", () => {
  const panel = $("editor-panel");
  panel.hidden = !panel.hidden;
  $("edit-graph").setAttribute("aria-expanded", String(!panel.hidden));
});
let editTimer: ReturnType<typeof setTimeout> | undefined;
editor.addEventListener("input", () => {
  clearTimeout(editTimer);
  editTimer = setTimeout(() => reloadGraph(editor.value, graphFile), 250);
});

async function start(): Promise<void> {
  const [glb, graph] = await Promise.all([
    fetch("robot/RobotExpressive.glb").then((r) => r.arrayBuffer()),
    fetch("robot/robot.animgraph.json").then((r) => r.text()),
  ]);
  graphText = graph;
  await kernelReady;
  await loadCharacter(new Uint8Array(glb), "RobotExpressive.glb");
  requestAnimationFrame(frame);
}

/** Hooks for the end-to-end tests (and the curious, in the console). */
const ready = start().catch((e) => { status.textContent = `failed to start: ${(e as Error).message}`; throw e; });
Object.assign(window, {
  animgraphStudio: {
    ready,
    currentState: () => document.body.dataset["state"],
    /** Runs the loaded graph on 8 characters through the kernel and the JS path; the largest difference. */
    kernelAgreement: (frames = 120): { kernel: boolean; maxModelDiff: number } => {
      if (!live || !crowdKernel) return { kernel: false, maxModelDiff: NaN };
      const js = createCrowd(live.graph, 8), wasm = createCrowd(live.graph, 8, { kernel: crowdKernel });
      let max = 0;
      for (let k = 0; k < frames; k++) {
        for (let i = 0; i < 8; i++) {
          for (const p of live.graph.params) {
            if (p.type !== "float") continue;
            setParam(js.instances[i]!, p.name, ((i + k / 40) % 3));
            setParam(wasm.instances[i]!, p.name, ((i + k / 40) % 3));
          }
        }
        evaluateCrowd(js, 1 / 60);
        evaluateCrowd(wasm, 1 / 60);
        for (let x = 0; x < js.model.length; x++) max = Math.max(max, Math.abs(js.model[x]! - wasm.model[x]!));
      }
      return { kernel: true, maxModelDiff: max };
    },
    reloadGraph: (text: string, file = "edited.json") => reloadGraph(text, file),
    /** The deterministic digest of the bundled scripted run, computed here in the browser. */
    scriptedDigest: async () => {
      if (!character) throw new Error("no character loaded");
      const [graph, timeline] = await Promise.all([
        fetch("robot/robot.animgraph.json").then((r) => r.text()),
        fetch("robot/walk-run-jump.timeline.json").then((r) => r.text()),
      ]);
      return runBundledScript(graph, timeline, character.skeleton, character.clips);
    },
  },
});
