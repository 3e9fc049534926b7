// animgraph studio: plays, explains and debugs an animation graph on a real character, live, and
// records every step so any past frame can be inspected again (record and rewind).
import * as THREE from "three";
import { GLTFLoader, type GLTF } from "three/examples/jsm/loaders/GLTFLoader.js";
import {
  compileGraph, createCrowd, createInstance, crowdKernelSupported, evaluateCrowd, getParam, loadCrowdKernel, hasErrors, lintDocument, locateDiagnostics,
  parseJsonText, parseTimeline, setParam, trigger,
  type Clip, type CompiledGraph, type CompiledMachine, type Crowd, type CrowdKernel, type Diagnostic, type GraphInstance, type GraphSpec, type Skeleton,
} from "animgraph";
import { applyPoseToThree, fromThreeGltf, type ThreeBinding } from "animgraph/three";
import { createBlendView, type BlendView } from "./blend-view.ts";
import { createCrowdRenderer, drawItems, type CrowdRenderer } from "./crowd-renderer.ts";
import { createEditorView } from "./editor-view.ts";
import { demoClips, seedDemoText, type CrossfadeChoice, type SeedDemo } from "./seed-demos.ts";
import { forEachDiagnostic } from "@codemirror/lint";
import { defaultGraphText } from "./default-graph.ts";
import { createFadeView } from "./fade-view.ts";
import { createGraphView, type GraphView, type Placed } from "./graph-view.ts";
import { createLayersView, type LayersView } from "./layers-view.ts";
import { createLogView } from "./log-view.ts";
import { createParamsView, type ParamsView } from "./params-view.ts";
import { createRecording, fromTimeline, MAX_RECORDED_STEPS, recordStep, replay, replayStep, STEP, toTimelineJson, verifyReplay, type Recording, type TravelCommand } from "./recorder.ts";
import { runBundledScript } from "./scripted-run.ts";
import { createViewport } from "./viewport.ts";
import { createWhyView } from "./why-view.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

interface Character { name: string; gltf: GLTF; skeleton: Skeleton; clips: readonly Clip[]; binding: ThreeBinding; root: THREE.Object3D }
interface Live {
  spec: GraphSpec; graph: CompiledGraph; file: string; instance: GraphInstance; recording: Recording;
  graphView: GraphView; paramsView: ParamsView;
  /** The machine the state graph shows (the selected layer's, or a nested one opened in it) and its path. */
  shown: { machine: CompiledMachine; path: string }; layersView: LayersView; blendView: BlendView | undefined; blendState: number; crowd: Crowd | null;
}

const viewport = createViewport($("viewport"));
const log = createLogView($("findings"), $("events"));
const fade = createFadeView($<HTMLCanvasElement>("fade-curve"), $<HTMLCanvasElement>("fade-history"), $("fade-readout"));
const why = createWhyView($("why"));
const status = $("status");
let character: Character | undefined;
let live: Live | undefined;
/** The graph text the user gave (file, editor); it may not fit the current character. */
let graphFile = "robot.animgraph.json";
let graphText = "";
let selectedLayer = 0;
/** Travel commands queued by clicks for the next step. */
let pendingTravels: TravelCommand[] = [];
/** Rewind: null while live; else the recorded step shown (the state after that many steps). */
let shownStep: number | null = null;
let shown: GraphInstance | undefined;
let playbackSpeed = 0;
let playbackAccumulator = 0;
let accumulator = 0;
let lastError = "";
// The crowd evaluates with the WebAssembly SIMD kernel where the browser has it (all current ones).
let crowdKernel: CrowdKernel | null = null;
const kernelReady = crowdKernelSupported()
  ? loadCrowdKernel().then((k) => { crowdKernel = k; }, () => { crowdKernel = null; })
  : Promise.resolve();
const FRAME_TIMES = 240;
const evalTimes = new Float64Array(FRAME_TIMES);
const renderTimes = new Float64Array(FRAME_TIMES);
const uploadTimes = new Float64Array(FRAME_TIMES);
/** The drawn crowd (instanced GPU skinning) of `live.crowd`, or null. */
let crowdView: CrowdRenderer | null = null;
let frames = 0;
let perfShownAt = 0;

/** The seed demo shown (null: the user's graph), regenerated for each character's clips. */
let activeDemo: SeedDemo | null = null;
let editTimer: ReturnType<typeof setTimeout> | undefined;
const editor = createEditorView($("editor"), (text) => {
  clearTimeout(editTimer);
  editTimer = setTimeout(() => reloadGraph(text, graphFile), 250);
}, (key) => {
  // The graph's own names where the schema only says "a name".
  if (!live) return [];
  if (key === "to" || key === "from" || key === "entry") return [...new Set(live.graph.machines.flatMap((m) => m.states.map((st) => st.name)))];
  if (key === "clip") return character ? character.clips.map((c) => c.name) : [];
  if (key === "param") return live.graph.params.map((p) => p.name);
  if (key === "mask") return Object.keys(live.spec.masks ?? {});
  return [];
});

function setStatus(text: string): void {
  if (status.textContent !== text) status.textContent = text;
}

async function loadCharacter(bytes: Uint8Array, name: string): Promise<void> {
  // One parse: three.js's GLTFLoader reads the file for drawing, and fromThreeGltf takes animgraph's
  // skeleton, clips and bone binding from its result (bit for bit what loadGltf gives).
  let gltf: GLTF;
  try {
    gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, "");
  } catch (e) {
    log.showFindings([{ code: "E_GLTF_READ", severity: "error", file: name, pointer: "", message: `three.js could not read it: ${(e as Error).message}` }], () => {});
    setStatus(`${name}: could not load the character${character ? `; ${character.name} keeps playing` : ""}`);
    return;
  }
  const loaded = await fromThreeGltf(gltf, { fileName: name });
  if (!loaded.ok || loaded.skeletons.length === 0 || !loaded.binding) {
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    log.showFindings(errors.length > 0 ? errors : [{ code: "E_NO_SKELETON", severity: "error", file: name, pointer: "", message: "the file has no skeleton to animate" }], () => {});
    setStatus(`${name}: could not load the character${character ? `; ${character.name} keeps playing` : ""}`);
    return;
  }
  const skeleton = loaded.skeletons[0]!;
  const root = gltf.scene;
  const binding = loaded.binding;
  character = { name, gltf, skeleton, clips: loaded.clips.filter((c) => c.skeleton === skeleton), binding, root };
  viewport.setCharacter(root);
  if (activeDemo) {
    fillCrossfadeChoices();
    graphText = seedDemoText(activeDemo, character.clips, crossfadeChoice());
    graphFile = `seed-demo-${activeDemo}.json`;
  }
  // The graph the user gave, if it fits this character; else one that plays its clips.
  if (!(graphText && reloadGraph(graphText, graphFile, { quietFallback: true }))) {
    const text = defaultGraphText(name, character.clips);
    if (character.clips.length > 0 && activateGraph(text, `${name} (default graph)`, true)) {
      document.body.dataset["graph"] = "default";
      setStatus(`${name} · ${graphText ? `${graphFile} does not fit it (see findings); ` : ""}playing its ${character.clips.length} clip(s) with a default graph`);
    } else {
      live = undefined;
      setStatus(`${name}: no clips to play`);
    }
  }
}

/**
 * Lints and compiles graph text for the current character; on success it becomes the running graph
 * (keeping parameter values and simulation time). On failure the findings are shown and the last good
 * graph for this character keeps running. Returns whether it compiled.
 */
function reloadGraph(text: string, file: string, options: { quietFallback?: boolean } = {}): boolean {
  graphText = text;
  graphFile = file;
  editor.setText(text);
  const ok = activateGraph(text, file, false);
  if (!ok && !options.quietFallback) {
    setStatus(`${file}: does not fit ${character?.name ?? "the character"}; ${live ? `${live.file} keeps running` : "nothing to run"}`);
    document.body.dataset["graph"] = "broken";
  }
  return ok;
}

function activateGraph(text: string, file: string, isDefault: boolean): boolean {
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
  // Compile findings carry only a JSON pointer: give them the line and column the editor marks.
  const located = locateDiagnostics(doc, findings);
  if (!isDefault || !compiled) {
    log.showFindings(located, selectFinding);
    editor.showDiagnostics(located);
  }
  if (!compiled || !lint.spec) return false;
  const instance = createInstance(compiled);
  const previous = live && live.graph.skeleton === compiled.skeleton ? live : undefined;
  if (previous) {
    // Keep the user's parameter values (by name, when the type still fits) and the simulation time.
    for (const p of compiled.params) {
      if (p.type === "trigger" || !previous.graph.paramIndex.has(p.name)) continue;
      try { setParam(instance, p.name, getParam(previous.instance, p.name)); } catch { /* type changed: keep default */ }
    }
    instance.time = previous.instance.time;
  }
  const getInstance = (): GraphInstance => shown ?? live!.instance;
  const layersView = createLayersView($("layers"), compiled, selectedLayer, (layer) => {
    if (layer !== selectedLayer) openPath = [];
    selectedLayer = layer;
    if (live) buildLayerViews(live);
  });
  const paramsView = createParamsView($("params"), lint.spec, () => live!.instance, () => goLive());
  live = { spec: lint.spec, graph: compiled, file, instance, recording: createRecording(compiled), graphView: undefined!, shown: { machine: compiled.layers[0]!.machine, path: "" }, paramsView, layersView, blendView: undefined, blendState: -2, crowd: null };
  void getInstance;
  selectedLayer = layersView.selected;
  buildLayerViews(live);
  shownStep = null;
  shown = undefined;
  applyCrowdSize();
  document.body.dataset["graph"] = isDefault ? "default" : "ok";
  setStatus(`${character?.name ?? ""} · ${file}`);
  return true;
}

/** Per layer name: where its states were drawn, so an edit keeps the layout (new states fill in). */
const layoutMemory = new Map<string, ReadonlyMap<string, Placed>>();

/** Nested machines opened in place, by state name from the selected layer's machine down. */
let openPath: string[] = [];

/** The machine the state graph shows: the selected layer's, or a nested one opened in place. */
function shownMachine(l: Live): { machine: CompiledMachine; names: string[] } {
  let machine = l.graph.layers[selectedLayer]!.machine;
  const names = [l.graph.layers[selectedLayer]!.name];
  for (const name of openPath) {
    const state = machine.states[machine.stateIndex.get(name) ?? -1];
    if (!state || state.motion.kind !== "machine") break;
    machine = state.motion.machine;
    names.push(name);
  }
  openPath = names.slice(1);
  return { machine, names };
}

/** The state graph of the selected layer (or of the nested machine opened in it), with its breadcrumb. */
function buildLayerViews(l: Live): void {
  const { machine, names } = shownMachine(l);
  const key = names.join(" › ");
  l.shown = { machine, path: key };
  const paramNames = l.graph.params.map((p) => p.name);
  l.graphView = createGraphView($("graph"), machine, paramNames, (state) => {
    // Travel works on the layer's machine; inside a nested one a click selects nothing to travel to.
    if (openPath.length === 0) pendingTravels.push({ layer: selectedLayer, state });
    goLive();
  }, layoutMemory.get(key), (state) => {
    openPath = [...openPath, machine.states[state]!.name];
    buildLayerViews(l);
  });
  layoutMemory.set(key, l.graphView.positions);
  const crumbs = $("graph-path");
  crumbs.replaceChildren(...names.flatMap((name, depth) => {
    let part: HTMLElement;
    if (depth === names.length - 1) {
      // The machine shown: plain text, not a control.
      part = document.createElement("span");
      part.setAttribute("aria-current", "location");
    } else {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("aria-label", depth === 0 ? `Back to layer ${name}'s machine` : `Back to the machine inside ${name}`);
      b.addEventListener("click", () => { openPath = openPath.slice(0, depth); buildLayerViews(l); });
      part = b;
    }
    part.className = "crumb";
    part.textContent = name;
    return depth === 0 ? [part] : [document.createTextNode(" › "), part];
  }));
  l.blendState = -2;
}

/** The blend panel follows the selected layer's current state: its blend, or what it plays. */
function updateBlendPanel(l: Live, instance: GraphInstance): void {
  const machine = l.graph.layers[selectedLayer]!.machine;
  const current = instance.layers[selectedLayer]!.current;
  if (l.blendState !== current) {
    l.blendState = current;
    const state = machine.states[current]!;
    $("blend-name").textContent = `· ${state.name}`;
    if (state.motion.kind === "blend1d" || state.motion.kind === "blend2d") {
      l.blendView = createBlendView($("blend"), $("blend-weights"), $("blend-sum"), l.graph, () => shown ?? l.instance, () => goLive(), state);
    } else {
      l.blendView = undefined;
      $("blend").textContent = state.motion.kind === "clip" ? `${state.name} plays one clip: no blend.` : `${state.name} plays a nested machine.`;
      $("blend-weights").replaceChildren();
      $("blend-sum").textContent = "–";
    }
  }
  l.blendView?.update(instance);
}

/** The A/B panel's choice (clip names of the current character). */
function crossfadeChoice(): CrossfadeChoice {
  const duration = Number($<HTMLInputElement>("ab-duration").value);
  return {
    a: $<HTMLSelectElement>("ab-a").value,
    b: $<HTMLSelectElement>("ab-b").value,
    duration: Number.isFinite(duration) ? Math.max(0.05, Math.min(5, duration)) : 1,
    curve: $<HTMLSelectElement>("ab-curve").value === "linear" ? "linear" : "smoothstep",
  };
}

/** Fills the A and B menus with the character's clips (A: walk, B: run by default). */
function fillCrossfadeChoices(): void {
  if (!character) return;
  const roles = demoClips(character.clips);
  for (const [id, preferred] of [["ab-a", roles.walk], ["ab-b", roles.run]] as const) {
    const select = $<HTMLSelectElement>(id);
    const keep = select.value;
    select.replaceChildren(...character.clips.map((c) => new Option(c.name, c.name)));
    select.value = character.clips.some((c) => c.name === keep) ? keep : preferred;
  }
}

function showDemo(demo: SeedDemo | null): void {
  activeDemo = demo;
  $("ab-panel").hidden = demo !== "crossfade";
  if (!character) return;
  if (demo === null) {
    reloadGraph(userGraph.text, userGraph.file);
    return;
  }
  if (graphFile.startsWith("seed-demo-") === false) userGraph = { text: graphText, file: graphFile };
  fillCrossfadeChoices();
  reloadGraph(seedDemoText(demo, character.clips, crossfadeChoice()), `seed-demo-${demo}.json`);
}
/** The user's own graph, restored when the demo menu goes back to it. */
let userGraph = { text: "", file: "" };

function selectFinding(d: Diagnostic): void {
  const panel = $("editor-panel");
  if (panel.hidden) toggleEditor();
  editor.jumpTo(d);
  if (!live) return;
  const tm = /\/layers\/(\d+)\/machine\/transitions\/(\d+)/.exec(d.pointer);
  if (tm) { live.graphView.flashTransition(Number(tm[2])); return; }
  const sm = /\/states\/([^/]+)/.exec(d.pointer);
  if (sm) live.graphView.flashState(sm[1]!.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Crowd size applies as it is typed; out of range says so and uses the nearest allowed size. */
let crowdSizeTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The note says at once what size will be used; the crowd itself is made a quarter second after the last
 * keystroke, so typing "99999" never builds and evaluates the crowds of 9, 99, 999 and 5000 on the way.
 */
function applyCrowdSize(): void {
  if (!live) return;
  const input = $<HTMLInputElement>("crowd-size");
  const asked = Number(input.value);
  const n = Number.isFinite(asked) ? Math.max(1, Math.min(5000, Math.round(asked))) : 300;
  $("crowd-note").textContent = Number.isFinite(asked) && n !== asked ? `crowd size is 1–5000: using ${n}` : "";
  clearTimeout(crowdSizeTimer);
  crowdSizeTimer = setTimeout(() => makeCrowd(n), 250);
}

function makeCrowd(n: number): void {
  if (!live) return;
  const on = $<HTMLInputElement>("toggle-crowd").checked;
  live.crowd = on ? createCrowd(live.graph, n, crowdKernel ? { kernel: crowdKernel } : {}) : null;
  live.crowd?.instances.forEach((c, i) => {
    for (const p of live!.graph.params) if (p.type === "float") setParam(c, p.name, ((i * 7919) % 100) / 100 * 3);
  });
  showCrowd();
}

/**
 * Rebuilds the drawn crowd for the current crowd and character, a quarter second after the last change
 * (typing "1000" asks for crowds of 1, 10, 100 and 1000: only the last is built and drawn; meanwhile the
 * crowd is evaluated, not drawn). The camera frames the crowd when it appears or changes size, and the
 * character again when it goes; a graph edit leaves the camera alone.
 */
let crowdTimer: ReturnType<typeof setTimeout> | undefined;
let crowdDrawnCount = 0;
function showCrowd(): void {
  crowdView?.dispose();
  crowdView = null;
  clearTimeout(crowdTimer);
  crowdTimer = setTimeout(buildCrowdView, 0);
}
function buildCrowdView(): void {
  const before = crowdDrawnCount;
  crowdDrawnCount = 0;
  if (!live?.crowd || !character) {
    if (character && before > 0) viewport.frame(character.root);
    return;
  }
  try {
    crowdView = createCrowdRenderer(live.crowd, character, viewport.renderer);
    crowdView.setLod($<HTMLInputElement>("toggle-crowd-lod").checked);
    viewport.scene.add(crowdView.group);
    crowdDrawnCount = live.crowd.count;
    if (before !== live.crowd.count) {
      viewport.frame(crowdView.group);
      // Framing fits the whole crowd's box; half way in, its front rows fill the view and the back ones still show.
      viewport.camera.position.lerp(viewport.controls.target, 0.45);
    }
  } catch (e) {
    $("crowd-note").textContent = `the crowd is evaluated but not drawn: ${(e as Error).message}`;
  }
}

/** Back to the live simulation (any edit of a parameter or a travel does this). */
function goLive(): void {
  if (shownStep === null) return;
  shownStep = null;
  shown = undefined;
  playbackSpeed = 0;
  document.body.dataset["mode"] = "live";
}

/** Shows recorded step k (clamped): a fresh instance replayed through the recording. */
function showStep(k: number): void {
  if (!live) return;
  const n = live.recording.params.length;
  const target = Math.max(0, Math.min(n, Math.round(k)));
  if (shown && shownStep !== null && target >= shownStep) {
    for (let s = shownStep; s < target; s++) replayStep(live.recording, shown, s);
  } else {
    shown = replay(live.recording, target);
  }
  shownStep = target;
  document.body.dataset["mode"] = "rewind";
}

let last = performance.now();
function frame(now: number): void {
  requestAnimationFrame(frame); // first, so an error below never stops the loop
  try {
    tick(now);
    if (lastError) { lastError = ""; $("error").textContent = ""; }
  } catch (e) {
    const message = `frame error: ${(e as Error).message}`;
    if (message !== lastError) {
      lastError = message;
      $("error").textContent = message;
      log.note(message);
    }
  }
}

function tick(now: number): void {
  const real = Math.min(0.1, Math.max(0, (now - last) / 1000));
  last = now;
  const timeScale = Number($<HTMLSelectElement>("time-scale").value);
  const t0 = performance.now();
  let instance: GraphInstance | undefined;
  if (live && character && live.graph.skeleton === character.skeleton) {
    if (shownStep === null) {
      if (!$<HTMLInputElement>("toggle-pause").checked) {
        accumulator += real * timeScale;
        // Fixed steps of 1/60 s: what makes a recording replay bit for bit.
        let steps = 0;
        while (accumulator >= STEP && steps < 8) {
          accumulator -= STEP;
          steps++;
          recordStep(live.recording, live.instance, pendingTravels);
          pendingTravels = [];
          if (live.crowd) { if (crowdView) crowdView.step(STEP, viewport.camera.position); else evaluateCrowd(live.crowd, STEP); }
          log.pushEvents(live.instance, live.graph);
        }
        if (steps === 8) accumulator = 0;
      }
      instance = live.instance;
    } else {
      if (playbackSpeed !== 0) {
        playbackAccumulator += real * playbackSpeed;
        const advance = Math.trunc(playbackAccumulator / STEP);
        if (advance !== 0) {
          playbackAccumulator -= advance * STEP;
          showStep(shownStep + advance);
          if (shownStep === live.recording.params.length || shownStep === 0) playbackSpeed = 0;
        }
      }
      instance = shown!;
    }
    const t1 = performance.now();
    evalTimes[frames % FRAME_TIMES] = t1 - t0;
    applyPoseToThree(character.binding, instance.result.pose);
    if (shownStep === null) moveRoot(character, instance);
    updatePanels(live, instance);
  }
  const u0 = performance.now();
  if (crowdView) {
    if (live?.crowd !== crowdView.crowd) crowdView.group.visible = false; // its character left without a graph
    crowdView.upload();
  }
  uploadTimes[frames % FRAME_TIMES] = performance.now() - u0;
  const r0 = performance.now();
  viewport.render();
  renderTimes[frames % FRAME_TIMES] = performance.now() - r0;
  frames++;
  updateTimeline();
  // Every 15 frames, and at least once a second when frames are slow (a big crowd on a CPU rasteriser).
  if (frames % 15 === 0 || now - perfShownAt > 1000) {
    perfShownAt = now;
    updatePerf();
  }
}

function moveRoot(c: Character, instance: GraphInstance): void {
  const d = instance.result.rootDelta;
  if (d[0] === 0 && d[2] === 0 && d[3] === 0) return;
  // Root motion: move the character over the grid (delta is in the character's frame).
  const root = c.root;
  const yaw = root.rotation.y;
  const cos = Math.cos(yaw), sin = Math.sin(yaw);
  root.position.x += cos * d[0]! + sin * d[2]!;
  root.position.z += -sin * d[0]! + cos * d[2]!;
  root.rotation.y += d[3]!;
  viewport.follow(root.position);
}

function updatePanels(l: Live, instance: GraphInstance): void {
  const { machine, path } = l.shown;
  const mi = instance.machines[machine.id]!;
  const base = l.graph.layers[0]!.machine;
  const baseState = base.states[instance.machines[base.id]!.current]!.name;
  $("current-state").textContent = `${path}: ${machine.states[mi.current]!.name}`;
  document.body.dataset["state"] = baseState;
  for (let i = 0; i < l.graph.layers.length; i++) {
    const m = l.graph.layers[i]!.machine;
    document.body.dataset[`state${i}`] = m.states[instance.machines[m.id]!.current]!.name;
  }
  l.layersView.update(instance);
  l.graphView.update(instance);
  l.paramsView.sync(instance);
  updateBlendPanel(l, instance);
  fade.update(instance, machine);
  renderTransitions(l, instance, machine);
  why.update(l.graph, instance, selectedLayer);
}

function renderTransitions(l: Live, instance: GraphInstance, machine: CompiledGraph["layers"][number]["machine"]): void {
  const host = $("transitions");
  const mi = instance.machines[machine.id]!;
  const rows: [string, number][] = [];
  for (let k = 0; k < mi.depth; k++) {
    const e = mi.stack[k]!;
    rows.push([`${e.from >= 0 ? machine.states[e.from]!.name : "pose"}→${machine.states[e.to]!.name}`, e.progress]);
  }
  const key = rows.map((r) => r[0]).join(",");
  if (host.dataset["key"] !== key) {
    host.dataset["key"] = key;
    host.replaceChildren(...rows.map(([name]) => {
      const div = document.createElement("div");
      div.className = "run";
      div.dataset["transition"] = name;
      const label = document.createElement("span");
      label.textContent = name;
      const bar = document.createElement("progress");
      bar.max = 1;
      bar.setAttribute("aria-label", `Transition ${name} progress`);
      div.append(label, bar);
      return div;
    }));
  }
  rows.forEach(([, progress], i) => {
    const bar = host.children[i]?.querySelector("progress");
    if (bar) bar.value = progress;
  });
  void l;
}

function updateTimeline(): void {
  const slider = $<HTMLInputElement>("timeline");
  const n = live?.recording.params.length ?? 0;
  const at = shownStep ?? n;
  if (slider.max !== String(n)) slider.max = String(n);
  if (document.activeElement !== slider || shownStep === null) slider.value = String(at);
  const full = n >= MAX_RECORDED_STEPS ? " (recording full)" : "";
  const text = `${shownStep === null ? "live" : playbackSpeed !== 0 ? `playing ${playbackSpeed}×` : "rewound"} · step ${at} / ${n} · t ${(at * STEP).toFixed(2)} s${full}`;
  const label = $("timeline-label");
  if (label.textContent !== text) label.textContent = text;
}

function medianAndSpread(values: Float64Array, count: number): { median: number; iqr: number } {
  const sorted = Array.from(values.subarray(0, Math.min(count, values.length))).sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { median: at(0.5), iqr: at(0.75) - at(0.25) };
}

function updatePerf(): void {
  if (!live) return;
  const e = medianAndSpread(evalTimes, frames), u = medianAndSpread(uploadTimes, frames), r = medianAndSpread(renderTimes, frames);
  const count = 1 + (live.crowd?.count ?? 0);
  const path = live.crowd ? (live.crowd.wasm ? " · crowd on the WebAssembly SIMD kernel" : " · crowd on the JS path") : "";
  // performance.now() is coarsened by browsers (5 µs–100 µs): medians over many frames, with their spread.
  const drawn = crowdView ? crowdView.stats() : null;
  const crowdText = drawn ? ` · crowd drawn: ${drawn.characters} in ${drawn.drawCalls} draw call(s), ${drawn.updated} evaluated this frame${drawn.lod ? " (update-rate LOD)" : ""}` : "";
  $("perf").textContent = `evaluate ${e.median.toFixed(3)} ms (IQR ${e.iqr.toFixed(3)}) · render ${r.median.toFixed(3)} ms (IQR ${r.iqr.toFixed(3)}) · upload ${u.median.toFixed(3)} ms (IQR ${u.iqr.toFixed(3)}) · medians of ${Math.min(frames, FRAME_TIMES)} frames · ${count} character(s) · ${((e.median * 1000) / count).toFixed(1)} µs per character · ${live.graph.skeleton.jointCount} joints${path}${crowdText}`;
}

async function readFileBytes(file: File): Promise<{ bytes: Uint8Array; name: string }> {
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
}

async function openFile(file: File): Promise<void> {
  const got = await readFileBytes(file);
  if (/\.glb$/i.test(got.name)) await loadCharacter(got.bytes, got.name);
  else if (/timeline/i.test(got.name)) importTimeline(new TextDecoder().decode(got.bytes), got.name);
  else {
    // A graph of the user's own replaces any seed demo.
    activeDemo = null;
    $<HTMLSelectElement>("demo").value = "";
    $("ab-panel").hidden = true;
    reloadGraph(new TextDecoder().decode(got.bytes), got.name);
  }
}

/** Imports an `animgraph run` timeline: the recording becomes what running it gives, shown from step 0. */
function importTimeline(text: string, name: string): void {
  if (!live) return;
  const parsed = parseTimeline(parseJsonText(text, name), live.graph);
  if (!parsed.timeline || hasErrors(parsed.diagnostics)) {
    log.showFindings(parsed.diagnostics, () => {});
    setStatus(`${name}: not a timeline for ${live.file}`);
    return;
  }
  live.recording = fromTimeline(live.graph, parsed.timeline);
  live.instance = replay(live.recording, live.recording.params.length);
  showStep(0);
  setStatus(`${name}: ${live.recording.params.length} steps imported; press play to watch`);
}

function exportTimeline(): void {
  if (!live) return;
  const blob = new Blob([toTimelineJson(live.recording)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `${live.file.replace(/\.json$/i, "")}.recording.timeline.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

for (const id of ["open-glb", "open-graph", "open-timeline"]) {
  $<HTMLInputElement>(id).addEventListener("change", (e) => {
    const f = (e.target as HTMLInputElement).files?.[0];
    if (f) void openFile(f).catch((err: unknown) => setStatus(`${f.name}: ${(err as Error).message}`));
    (e.target as HTMLInputElement).value = "";
  });
}
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  for (const f of Array.from(e.dataTransfer?.files ?? [])) void openFile(f).catch((err: unknown) => setStatus(`${f.name}: ${(err as Error).message}`));
});
$<HTMLInputElement>("toggle-skeleton").addEventListener("change", (e) => viewport.setSkeletonVisible((e.target as HTMLInputElement).checked));
$<HTMLInputElement>("toggle-crowd").addEventListener("change", () => applyCrowdSize());
$<HTMLInputElement>("crowd-size").addEventListener("input", () => applyCrowdSize());
$<HTMLInputElement>("toggle-crowd-lod").addEventListener("change", (e) => crowdView?.setLod((e.target as HTMLInputElement).checked));
$("frame").addEventListener("click", () => character && viewport.frame(character.root));
document.addEventListener("keydown", (e) => {
  const target = e.target as HTMLElement;
  if (target.closest("input, textarea, select, .cm-editor")) return;
  if ((e.key === "f" || e.key === "F") && character) viewport.frame(character.root);
  if (e.key === "," || e.key === ".") {
    const n = live?.recording.params.length ?? 0;
    showStep((shownStep ?? n) + (e.key === "," ? -1 : 1));
  }
});
function toggleEditor(): void {
  const panel = $("editor-panel");
  panel.hidden = !panel.hidden;
  $("edit-graph").setAttribute("aria-expanded", String(!panel.hidden));
  if (!panel.hidden) {
    editor.view.requestMeasure();
    panel.scrollIntoView({ block: "nearest" });
  }
}
$("edit-graph").addEventListener("click", () => toggleEditor());
$<HTMLSelectElement>("demo").addEventListener("change", (e) => {
  const v = (e.target as HTMLSelectElement).value;
  showDemo(v === "machine" || v === "blend2d" || v === "crossfade" ? v : null);
});
for (const id of ["ab-a", "ab-b", "ab-duration", "ab-curve"]) {
  $(id).addEventListener("change", () => { if (activeDemo === "crossfade" && character) reloadGraph(seedDemoText("crossfade", character.clips, crossfadeChoice()), "seed-demo-crossfade.json"); });
}
$("ab-swap").addEventListener("click", () => {
  if (live && live.graph.paramIndex.has("swap")) { goLive(); trigger(live.instance, "swap"); }
});
// The timeline: scrub, step, play back at any speed, back to live, export and import.
$<HTMLInputElement>("timeline").addEventListener("input", (e) => { playbackSpeed = 0; showStep(Number((e.target as HTMLInputElement).value)); });
$("step-back").addEventListener("click", () => { playbackSpeed = 0; showStep((shownStep ?? live?.recording.params.length ?? 0) - 1); });
$("step-forward").addEventListener("click", () => { playbackSpeed = 0; showStep((shownStep ?? live?.recording.params.length ?? 0) + 1); });
$("play-back").addEventListener("click", () => {
  if (!live) return;
  if (shownStep === null || shownStep >= live.recording.params.length) showStep(0);
  playbackSpeed = Number($<HTMLSelectElement>("playback-speed").value);
  playbackAccumulator = 0;
});
$("go-live").addEventListener("click", () => goLive());
$("export-recording").addEventListener("click", () => exportTimeline());

async function start(): Promise<void> {
  const [glb, graph] = await Promise.all([
    fetch("robot/RobotExpressive.glb").then((r) => r.arrayBuffer()),
    fetch("robot/robot.animgraph.json").then((r) => r.text()),
  ]);
  graphText = graph;
  await kernelReady;
  document.body.dataset["mode"] = "live";
  await loadCharacter(new Uint8Array(glb), "RobotExpressive.glb");
  requestAnimationFrame(frame);
}

/** Hooks for the end-to-end tests (and the curious, in the console). */
const ready = start().catch((e) => { setStatus(`failed to start: ${(e as Error).message}`); throw e; });
Object.assign(window, {
  animgraphStudio: {
    ready,
    frames: () => frames,
    currentState: () => document.body.dataset["state"],
    /** Runs the loaded graph on 8 characters through the kernel and the JS path; the largest difference. */
    kernelAgreement: (count = 120): { kernel: boolean; maxModelDiff: number } => {
      if (!live || !crowdKernel) return { kernel: false, maxModelDiff: NaN };
      const js = createCrowd(live.graph, 8), wasm = createCrowd(live.graph, 8, { kernel: crowdKernel });
      let max = 0;
      for (let k = 0; k < count; k++) {
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
    /** The CodeMirror editor (its view takes transactions as a user's typing would). */
    editor,
    /** The markers the editor shows: 1-based line and column, severity, message. */
    editorMarks: () => {
      const out: { line: number; column: number; severity: string; message: string }[] = [];
      forEachDiagnostic(editor.view.state, (d, from) => {
        const line = editor.view.state.doc.lineAt(from);
        out.push({ line: line.number, column: from - line.from + 1, severity: d.severity, message: d.message });
      });
      return out;
    },
    simulationTime: () => live?.instance.time ?? 0,
    /** Per state of the selected layer: its weight over the plotted history (the crossfade panel). */
    fadeHistory: () => fade.history(),
    loadCharacter: (bytes: Uint8Array, name: string) => loadCharacter(bytes, name),
    /** Recorded steps, and how many replay to a different pose (0: bit for bit). */
    recording: () => ({ steps: live?.recording.params.length ?? 0, mismatches: live ? verifyReplay(live.recording) : -1 }),
    timelineJson: () => (live ? toTimelineJson(live.recording) : ""),
    importTimeline: (text: string, name = "imported.timeline.json") => importTimeline(text, name),
    showStep: (k: number) => showStep(k),
    goLive: () => goLive(),
    shownStep: () => shownStep,
    /** The camera's distance to its target and the character's framed size (for the framing tests). */
    framing: () => viewport.framing(),
    /** The drawn crowd, for its tests and scripts/studio-figures.mjs (null when the crowd is off). */
    crowdDraw: () => crowdView && character ? {
      ...crowdView.stats(),
      calls: viewport.renderer.info.render.calls,
      characterDrawItems: drawItems(character.root),
      sceneDrawItems: drawItems(viewport.scene),
      distinctPoses: (sample: number) => crowdView!.distinctPoses(sample),
      agreementWithThree: (index: number) => crowdView!.agreementWithThree(index),
    } : null,
    setCrowdVisible: (visible: boolean) => { if (crowdView) crowdView.group.visible = visible; },
    /** Frame-time samples (ms) of the last frames: evaluate, upload, render. */
    frameTimes: () => ({ evaluate: Array.from(evalTimes), upload: Array.from(uploadTimes), render: Array.from(renderTimes), frames }),
    /** The deterministic digest of the bundled scripted run, computed here in the browser. */
    scriptedDigest: async () => {
      if (!character) throw new Error("no character loaded");
      const [g, timeline] = await Promise.all([
        fetch("robot/robot.animgraph.json").then((r) => r.text()),
        fetch("robot/walk-run-jump.timeline.json").then((r) => r.text()),
      ]);
      return runBundledScript(g, timeline, character.skeleton, character.clips);
    },
  },
});
