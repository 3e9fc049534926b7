// animgraph studio: plays, explains and debugs an animation graph on a real character, live, and
// records every step so any past frame can be inspected again (record and rewind). This file wires the
// panels to the store (store.ts: the document and the selection, with undo) and runs the frame loop.
import { getParam, localToModel, locateDiagnostics, setParam, trigger, type Diagnostic, type GraphInstance } from "animgraph";
import * as THREE from "three";
import { applyPoseToThree } from "animgraph/three";
import { createBlendPanel } from "./blend-panel.ts";
import { createContinuityTracker } from "./continuity-tracker.ts";
import { createCheckPanel } from "./check-panel.ts";
import { readCharacter, type Character } from "./character.ts";
import { createCrowdPanel } from "./crowd-panel.ts";
import { defaultGraphText } from "./default-graph.ts";
import { createDemoPanel } from "./demo-panel.ts";
import { createDocumentEditor } from "./document-edit.ts";
import { emptyGraph, formatDocument, graphFromClips, MOTION_KINDS, type MotionKind } from "./graph-edits.ts";
import { createInspector } from "./inspector.ts";
import { createIkGizmos, type IkDrag } from "./ik-gizmos.ts";
import { setIkValue, type IkSkeleton } from "./ik-edits.ts";
import { createIkPanel } from "./ik-panel.ts";
import { createJointPicking } from "./joint-picking.ts";
import { createParamsEditor } from "./params-editor.ts";
import { downloadDocument, forgetSaveTarget, saveDocument, semanticKey } from "./save.ts";
import { createEditorView } from "./editor-view.ts";
import { createFadeView } from "./fade-view.ts";
import { createGraphPanel } from "./graph-panel.ts";
import { compileAnalysis, compileText, startLive, type Live } from "./live-graph.ts";
import { createLogView } from "./log-view.ts";
import { createParamsView, type ParamsView } from "./params-view.ts";
import { createPerfPanel } from "./perf-panel.ts";
import { recordStep, STEP, type TravelCommand } from "./recorder.ts";
import { createStudioStore } from "./store.ts";
import { installTestHooks } from "./test-hooks.ts";
import { createTimelinePanel } from "./timeline-panel.ts";
import { createViewport } from "./viewport.ts";
import { createWhyView } from "./why-view.ts";

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

const store = createStudioStore({ file: "robot.animgraph.json" });
const viewport = createViewport($("viewport"));
const log = createLogView($("findings"), $("events"));
/** Each transition's continuity figure, measured from the playing character's output poses. */
const continuity = createContinuityTracker();
const fade = createFadeView($<HTMLCanvasElement>("fade-curve"), $<HTMLCanvasElement>("fade-history"), $("fade-readout"));
const why = createWhyView($("why"));
const perf = createPerfPanel($("perf"));
const status = $("status");
let character: Character | undefined;
let live: Live | undefined;
let paramsView: ParamsView | undefined;
/** Travel commands queued by clicks for the next step. */
let pendingTravels: TravelCommand[] = [];
let lastError = "";

const timeline = createTimelinePanel(store, () => live);
const checkPanel = createCheckPanel($<HTMLButtonElement>("run-check"), $("check-findings"), {
  getLive: () => live,
  importTimeline: (text, name) => importTimeline(text, name),
  select: (d) => selectFinding(d),
  status: (text) => setStatus(text),
  locate: (findings) => findings.map((f) => {
    const [d] = locateDiagnostics(store.analysis.tree, [f]);
    return d && d.line !== undefined ? { ...f, line: d.line, ...(d.column !== undefined ? { column: d.column } : {}) } : f;
  }),
});
const crowd = createCrowdPanel(viewport, () => live, () => character);
const editStatus = $("edit-status");
const report = (message: string): void => { if (editStatus.textContent !== message) editStatus.textContent = message; };
const documentEditor = createDocumentEditor(store, report);
const travelTo = (layer: number, state: string): void => {
  if (layer >= 0) pendingTravels.push({ layer, state });
  else report("Travel reaches the states of a layer's own machine, not those inside a nested one");
  timeline.goLive();
};
const graphPanel = createGraphPanel(store, {
  layers: $("layers"), path: $("graph-path"), graph: $("graph"), currentState: $("current-state"), transitions: $("transitions"),
}, {
  editor: documentEditor,
  travel: travelTo,
  newState: () => ({ kind: $<HTMLSelectElement>("new-kind").value as MotionKind, clip: $<HTMLSelectElement>("new-clip").value }),
  rename: () => inspector.focusName(),
  report,
});
const inspector = createInspector($("inspector"), store, {
  editor: documentEditor,
  clips: () => character?.clips.map((c) => c.name) ?? [],
  paramValue: (name) => {
    if (!live || !live.graph.paramIndex.has(name)) return undefined;
    const v = getParam(timeline.instance(live), name);
    return typeof v === "number" ? v : undefined;
  },
  travel: (state) => travelTo(store.selection.path.length === 0 ? store.selection.layer : -1, state),
  open: (state) => store.select({ path: [...store.selection.path, state], states: [], transitions: [], samples: [] }, "inspector"),
  connect: (from) => { graphPanel.startConnect(from); $("graph").querySelector<SVGGElement>("[data-state]")?.focus(); },
});
createParamsEditor($("param-decls"), store, documentEditor, report);
/** The character's skeleton for the IK panel: names, parents and the rest pose's model frames. */
let ikSkeleton: IkSkeleton | undefined;
function ikSkeletonOf(c: Character): IkSkeleton {
  const s = c.skeleton;
  const m = localToModel(new Float32Array(16 * s.jointCount), s, s.rest);
  const rest = new Float64Array(3 * s.jointCount), restRotations = new Float64Array(4 * s.jointCount);
  const mat = new THREE.Matrix4(), p = new THREE.Vector3(), q = new THREE.Quaternion(), sc = new THREE.Vector3();
  for (let j = 0; j < s.jointCount; j++) {
    mat.fromArray(m, 16 * j).decompose(p, q, sc);
    rest.set([p.x, p.y, p.z], 3 * j);
    restRotations.set([q.x, q.y, q.z, q.w], 4 * j);
  }
  // The character's size in model units: the rest pose's extent.
  let lo = Infinity, hi = -Infinity;
  for (let k = 0; k < rest.length; k++) { lo = Math.min(lo, rest[k]!); hi = Math.max(hi, rest[k]!); }
  ikSize = Number.isFinite(hi - lo) && hi > lo ? hi - lo : 1;
  return { names: s.names, parents: s.parents, rest, restRotations };
}
let ikSize = 1;
const liveParam = (name: string): number | undefined => {
  if (!live || !live.graph.paramIndex.has(name)) return undefined;
  const v = getParam(timeline.instance(live), name);
  return typeof v === "number" ? v : undefined;
};
const ikGizmos = createIkGizmos(viewport, (drag) => dragIk(drag));
/** Click a joint in the viewport: the store's selected joint, or the joint field a "pick" button armed. */
const jointPicking = createJointPicking(viewport, store, $("viewport"), {
  handleBusy: () => ikGizmos.handleBusy(),
  setHandleEnabled: (enabled) => ikGizmos.setHandleEnabled(enabled),
  skeletonShown: () => $<HTMLInputElement>("toggle-skeleton").checked,
  report,
});
const ikPanel = createIkPanel($("ik"), store, {
  editor: documentEditor,
  skeleton: () => ikSkeleton,
  size: () => ikSize,
  paramValue: liveParam,
  selectFinding: (d) => selectFinding(d),
  report,
  selected: (i) => ikGizmos.select(i),
  picking: jointPicking,
});

/**
 * A gizmo dragged in the viewport: values bound to parameters follow at once (the parameter is set, as
 * a game would set it); numbers written in the document are edited when the drag ends, one undo step.
 */
function dragIk(drag: IkDrag): void {
  if (!live) return;
  const spec = live.spec.ik?.[drag.layer];
  if (!spec) return;
  const instance = live.instance;
  const edits: [`target/${0 | 1 | 2}` | "ground/height", number][] = [];
  const drive = (value: number | { param: string }, slot: `target/${0 | 1 | 2}` | "ground/height", v: number): void => {
    if (typeof value === "number") edits.push([slot, Math.round(v * 1000) / 1000]);
    else setParam(instance, value.param, v);
  };
  if (drag.what === "target" && spec.solver !== "footPlacement") {
    spec.target.forEach((t, k) => drive(t, `target/${k as 0 | 1 | 2}`, drag.point[k]!));
  } else if (drag.what === "ground" && spec.solver === "footPlacement") {
    // The height of the moved plane: a point p on it gives h = p·up + (n·p⊥)/(n·up), n the normal this frame.
    const layer = live.graph.ik[drag.layer]!;
    const value = (k: number): number => (layer.slots[k]! >= 0 ? instance.params[layer.slots[k]!]! : layer.values[k]!);
    const up = layer.direction;
    let nx = value(1), ny = value(2), nz = value(3);
    const nl = Math.hypot(nx, ny, nz) || 1;
    nx /= nl; ny /= nl; nz /= nl;
    const nu = nx * up[0]! + ny * up[1]! + nz * up[2]!;
    const [px, py, pz] = drag.point;
    const hp = px * up[0]! + py * up[1]! + pz * up[2]!;
    const across = nx * (px - hp * up[0]!) + ny * (py - hp * up[1]!) + nz * (pz - hp * up[2]!);
    drive(spec.ground.height, "ground/height", nu > 1e-6 ? hp + across / nu : hp);
  }
  // Numbers are written once, when the drag ends: one undo step however long the drag took.
  if (edits.length > 0 && drag.done) {
    documentEditor.apply(`Move ${drag.what} of ${spec.name}`, (doc) => { for (const [slot, v] of edits) setIkValue(doc, drag.layer, slot, v); }, { coalesce: `ik-drag:${drag.layer}`, source: "ik" });
  }
  if (drag.done) store.seal();
  timeline.goLive();
}
const blendPanel = createBlendPanel(() => (live ? timeline.instance(live) : undefined), () => timeline.goLive());
const demos = createDemoPanel(store, () => character, () => {
  if (live && live.graph.paramIndex.has("swap")) { timeline.goLive(); trigger(live.instance, "swap"); }
});
const editor = createEditorView($("editor"), {
  onChange: (text, coalesce) => store.edit(text, { source: "editor", coalesce, label: "Edit the JSON" }),
  undo: () => store.undo(),
  redo: () => store.redo(),
}, (key) => {
  // The graph's own names where the schema only says "a name".
  if (!live) return [];
  if (key === "to" || key === "from" || key === "entry") return [...new Set(live.graph.machines.flatMap((m) => m.states.map((st) => st.name)))];
  if (key === "clip") return character ? character.clips.map((c) => c.name) : [];
  if (key === "param") return live.graph.params.map((p) => p.name);
  if (key === "mask") return [...live.spec.masks.keys()];
  return [];
});

function setStatus(text: string): void {
  if (status.textContent !== text) status.textContent = text;
}

// The document: its text shows in the editor at once. What plays follows an edit at the start of the
// next frame (many edits in one frame — typing, a drag — compile once), and a load (a file, a demo) at
// once, so its findings show, and a trigger pressed next goes to the new graph.
let applyPending = false;
/** While a character loads, it applies the document itself (quietly, with a default graph to fall back on). */
let characterLoading = false;
store.subscribe((change) => {
  if (change.origin === "load") forgetSaveTarget();
  if (change.text && change.source !== "editor") editor.setText(store.text);
  if (change.text) {
    if (change.origin === "load" && character && !characterLoading) applyDocument();
    else applyPending = true;
  }
  updateUndoButtons();
});

/**
 * Compiles the store's document for the character; on success it becomes the graph that plays (keeping
 * parameter values and simulation time). On failure the findings are shown and the last good graph for
 * this character keeps playing. Returns whether it compiled.
 */
function applyDocument(options: { quiet?: boolean } = {}): boolean {
  applyPending = false;
  // Moving states only changes x- keys, which the runtime ignores: the run goes on untouched.
  const key = semanticKey(store.text);
  if (live && !live.isDefault && key !== undefined && key === playedKey && live.graph.skeleton === character?.skeleton) {
    const findings = locateDiagnostics(store.analysis.tree, store.analysis.diagnostics);
    log.showFindings(findings, selectFinding);
    editor.showDiagnostics(findings);
    ikPanel.setFindings(findings);
    live = { ...live, file: store.file };
    document.body.dataset["graph"] = "ok";
    setStatus(`${character?.name ?? ""} · ${store.file}`);
    return true;
  }
  const result = compileAnalysis(store.analysis, character);
  log.showFindings(result.findings, selectFinding);
  editor.showDiagnostics(result.findings);
  ikPanel.setFindings(result.findings);
  if (!result.graph || !result.spec) {
    if (!options.quiet) {
      setStatus(`${store.file}: does not fit ${character?.name ?? "the character"}; ${live ? `${live.file} keeps running` : "nothing to run"}`);
      document.body.dataset["graph"] = "broken";
    }
    return false;
  }
  const previous = live;
  play(startLive(live, result.spec, result.graph, store.file, false));
  playedKey = key;
  // An edit does not send the character back to the entry: each layer travels back to the state it was in.
  if (previous && previous.graph.skeleton === result.graph.skeleton) {
    previous.graph.layers.forEach((l, i) => {
      const was = l.machine.states[previous.instance.machines[l.machine.id]!.current]!.name;
      const now = result.graph!.layers[i]?.machine;
      if (now && now.stateIndex.has(was) && now.states[now.entry]!.name !== was) pendingTravels.push({ layer: i, state: was });
    });
  }
  return true;
}
/** The document that plays, without its x- keys (see applyDocument). */
let playedKey: string | undefined;

/** Makes `next` the graph that plays, and every panel show it. */
function play(next: Live): void {
  live = next;
  checkPanel.clear();
  timeline.goLive();
  graphPanel.show(next);
  paramsView = createParamsView($("params"), next.spec, () => live!.instance, () => timeline.goLive());
  blendPanel.reset();
  crowd.apply();
  document.body.dataset["graph"] = next.isDefault ? "default" : "ok";
  setStatus(`${character?.name ?? ""} · ${next.file}`);
}

async function loadCharacter(bytes: Uint8Array, name: string): Promise<void> {
  const read = await readCharacter(bytes, name);
  if ("diagnostics" in read) {
    log.showFindings(read.diagnostics, () => {});
    setStatus(`${name}: could not load the character${character ? `; ${character.name} keeps playing` : ""}`);
    return;
  }
  character = read.character;
  ikSkeleton = ikSkeletonOf(character);
  fillClipPicker(character);
  viewport.setCharacter(character.root);
  jointPicking.setCharacter(character);
  characterLoading = true;
  try {
    store.setLintContext({ clips: character.clips, joints: character.skeleton.names, jointParents: character.skeleton.parents, jointRest: ikSkeleton.rest! });
    demos.characterChanged(character);
  } finally {
    characterLoading = false;
  }
  // The document, if it fits this character; else a default graph that plays its clips.
  if (store.text && applyDocument({ quiet: true })) return;
  const defaultName = `${name} (default graph)`;
  const fallback = character.clips.length > 0 ? compileText(defaultGraphText(name, character.clips), defaultName, character) : undefined;
  if (fallback?.graph && fallback.spec) {
    play(startLive(live, fallback.spec, fallback.graph, defaultName, true));
    playedKey = undefined;
    setStatus(`${name} · ${store.text ? `${store.file} does not fit it (see findings); ` : ""}playing its ${character.clips.length} clip(s) with a default graph`);
  } else {
    live = undefined;
    setStatus(`${name}: no clips to play`);
  }
}

function selectFinding(d: Diagnostic): void {
  if ($("editor-panel").hidden) toggleEditor();
  editor.jumpTo(d);
  graphPanel.flashPointer(d.pointer);
}

function toggleEditor(): void {
  const panel = $("editor-panel");
  panel.hidden = !panel.hidden;
  $("edit-graph").setAttribute("aria-expanded", String(!panel.hidden));
  if (!panel.hidden) {
    editor.view.requestMeasure();
    panel.scrollIntoView({ block: "nearest" });
  }
}

function updateUndoButtons(): void {
  for (const [id, can, label, verb] of [["undo", store.canUndo, store.undoLabel, "Undo"], ["redo", store.canRedo, store.redoLabel, "Redo"]] as const) {
    const b = $(id);
    b.setAttribute("aria-disabled", String(!can));
    b.title = can ? `${verb}: ${label} (${id === "undo" ? "Ctrl+Z" : "Ctrl+Shift+Z"})` : `Nothing to ${verb.toLowerCase()}`;
  }
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

let accumulator = 0;
function tick(now: number): void {
  if (applyPending) applyDocument();
  const real = Math.min(0.1, Math.max(0, (now - last) / 1000));
  last = now;
  const timeScale = Number($<HTMLSelectElement>("time-scale").value);
  const t0 = performance.now();
  let evaluate = 0;
  if (live && character && live.graph.skeleton === character.skeleton) {
    if (store.selection.step === null && !$<HTMLInputElement>("toggle-pause").checked) {
      accumulator += real * timeScale;
      // Fixed steps of 1/60 s: what makes a recording replay bit for bit.
      let steps = 0;
      while (accumulator >= STEP && steps < 8) {
        accumulator -= STEP;
        steps++;
        recordStep(live.recording, live.instance, pendingTravels);
        pendingTravels = [];
        crowd.step(live, STEP);
        continuity.step(live.instance, live.graph, STEP);
        log.pushEvents(live.instance, live.graph);
      }
      if (steps === 8) accumulator = 0;
    }
    timeline.update(real);
    const instance = timeline.instance(live);
    evaluate = performance.now() - t0;
    applyPoseToThree(character.binding, instance.result.pose);
    if (store.selection.step === null) moveRoot(character, instance);
    ikGizmos.update(live.graph, instance, character);
    jointPicking.update();
    updatePanels(live, instance);
  } else {
    timeline.update(real);
  }
  const u0 = performance.now();
  crowd.upload(live);
  const upload = performance.now() - u0;
  const r0 = performance.now();
  viewport.render();
  perf.record(evaluate, upload, performance.now() - r0);
  perf.maybeShow(now, live, crowd.view);
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
  const base = l.graph.layers[0]!.machine;
  document.body.dataset["state"] = base.states[instance.machines[base.id]!.current]!.name;
  for (let i = 0; i < l.graph.layers.length; i++) {
    const m = l.graph.layers[i]!.machine;
    document.body.dataset[`state${i}`] = m.states[instance.machines[m.id]!.current]!.name;
  }
  graphPanel.update(instance, continuity);
  inspector.update();
  ikPanel.update();
  paramsView?.sync(instance);
  blendPanel.update(l, graphPanel.layer, instance);
  if (graphPanel.shown) fade.update(instance, graphPanel.shown.machine, continuity);
  why.update(l.graph, instance, graphPanel.layer);
}

// Files: pickers and drops. A .glb is a character, a name with "timeline" an `animgraph run` timeline,
// anything else a graph (which replaces any seed demo).
async function openFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (/\.glb$/i.test(file.name)) await loadCharacter(bytes, file.name);
  else if (/timeline/i.test(file.name)) importTimeline(new TextDecoder().decode(bytes), file.name);
  else {
    demos.forget();
    store.load(new TextDecoder().decode(bytes), file.name);
  }
}

function importTimeline(text: string, name: string): void {
  if (!live) return;
  const result = timeline.importTimeline(text, name);
  if (!result.ok) {
    log.showFindings(result.diagnostics, () => {});
    setStatus(`${name}: not a timeline for ${live.file}`);
    return;
  }
  setStatus(`${name}: ${result.steps} steps imported; press play to watch`);
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
$<HTMLInputElement>("toggle-ik").addEventListener("change", (e) => ikGizmos.setVisible((e.target as HTMLInputElement).checked));
$<HTMLInputElement>("toggle-skeleton").addEventListener("change", (e) => viewport.setSkeletonVisible((e.target as HTMLInputElement).checked));
$("frame").addEventListener("click", () => character && viewport.frame(character.root));
$("edit-graph").addEventListener("click", () => toggleEditor());
function fillClipPicker(c: Character): void {
  const pick = $<HTMLSelectElement>("new-clip");
  const keep = pick.value;
  pick.replaceChildren(...c.clips.map((clip) => new Option(clip.name, clip.name)));
  if (c.clips.some((clip) => clip.name === keep)) pick.value = keep;
}
$<HTMLSelectElement>("new-kind").replaceChildren(...MOTION_KINDS.map((k) => new Option({ clip: "Clip", blend1d: "1D blend tree", blend2d: "2D blend space", machine: "Nested machine" }[k], k)));
$("add-state").addEventListener("click", () => graphPanel.addState());
$("connect").addEventListener("click", () => {
  const from = store.selection.states[0];
  if (from === undefined) { report("Select the state the transition leaves (or focus “any state” and press C)"); return; }
  graphPanel.startConnect(from);
  $("graph").querySelector<SVGGElement>("[data-state]")?.focus();
});
$("make-entry").addEventListener("click", () => graphPanel.makeEntry());
$("delete-selection").addEventListener("click", () => graphPanel.deleteSelection());
$("save").addEventListener("click", () => void save(false));
$("download").addEventListener("click", () => void save(true));
$<HTMLSelectElement>("new-graph").addEventListener("change", (e) => {
  const select = e.target as HTMLSelectElement;
  const how = select.value;
  select.value = "";
  if (how === "empty" || how === "clips") newGraph(how);
});

/** A new document: empty, or one state per clip of the character. Its history starts here. */
function newGraph(how: "empty" | "clips"): void {
  const name = character ? character.name.replace(/\.glb$/i, "") : "graph";
  const doc = how === "clips" && character ? graphFromClips(name, character.clips.map((c) => c.name)) : emptyGraph(name);
  demos.forget();
  store.load(formatDocument(doc), `${name}.animgraph.json`, { select: { layer: 0, path: [], states: [], transitions: [], samples: [] } });
  report(how === "empty" ? "New empty graph: add states with + State" : `New graph with ${character?.clips.length ?? 0} state(s), one per clip`);
}

async function save(download: boolean): Promise<void> {
  try {
    const where = download ? downloadDocument(store.text, store.file) : await saveDocument(store.text, store.file);
    if (where === undefined) return; // cancelled
    store.markSaved(where.name);
    report(`Saved ${where.name}${where.how === "download" ? " (downloaded)" : ""}`);
  } catch (e) {
    report(`Could not save: ${(e as Error).message}`);
  }
}

$("undo").addEventListener("click", () => store.undo());
$("redo").addEventListener("click", () => store.redo());
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
    e.preventDefault();
    void save(false);
    return;
  }
  // Text fields keep their own keys (the JSON editor routes Ctrl+Z to the store itself).
  if ((e.target as HTMLElement).closest("input, textarea, select, .cm-editor")) return;
  if ((e.key === "f" || e.key === "F") && !e.ctrlKey && !e.metaKey && character) viewport.frame(character.root);
  const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
  if (!mod && !e.altKey && (e.key === "n" || e.key === "N") && (e.target as HTMLElement).closest("#graph, #graph-tools")) {
    e.preventDefault();
    graphPanel.addState();
  } else if (mod && e.key.toLowerCase() === "z") {
    e.preventDefault();
    if (e.shiftKey) store.redo(); else store.undo();
  } else if (mod && e.key.toLowerCase() === "y" && !e.shiftKey) {
    e.preventDefault();
    store.redo();
  }
});
updateUndoButtons();

async function start(): Promise<void> {
  const [glb, graph] = await Promise.all([
    fetch("robot/RobotExpressive.glb").then((r) => r.arrayBuffer()),
    fetch("robot/robot.animgraph.json").then((r) => r.text()),
  ]);
  // The first document: loaded before there is a character, so it is applied when the character comes.
  store.load(graph, "robot.animgraph.json");
  await crowd.ready;
  document.body.dataset["mode"] = "live";
  await loadCharacter(new Uint8Array(glb), "RobotExpressive.glb");
  requestAnimationFrame(frame);
}

const ready = start().catch((e) => { setStatus(`failed to start: ${(e as Error).message}`); throw e; });
installTestHooks({
  ready, store, editor, viewport, crowd, perf, fade, timeline, continuity, check: checkPanel, ikGizmos, jointPicking,
  live: () => live,
  character: () => character,
  loadCharacter,
  importTimeline,
  /** Loads a graph text as the document and applies it at once (its findings show when this returns). */
  reloadGraph: (text: string, file: string) => { demos.forget(); store.load(text, file); },
});
