// window.animgraphStudio: what the end-to-end tests, scripts/docs-studio.mjs and scripts/studio-figures.mjs
// drive (and the curious, in the console).
import { forEachDiagnostic } from "@codemirror/lint";
import { createCrowd, evaluateCrowd, localToModel, setParam } from "animgraph";
import { Vector3 } from "three";
import type { Character } from "./character.ts";
import type { CheckPanel } from "./check-panel.ts";
import type { CrowdPanel } from "./crowd-panel.ts";
import { drawItems } from "./crowd-renderer.ts";
import type { EditorViewHandle } from "./editor-view.ts";
import type { ContinuityTracker } from "./continuity-tracker.ts";
import type { FadeView } from "./fade-view.ts";
import type { IkGizmos } from "./ik-gizmos.ts";
import type { JointPicking } from "./joint-picking.ts";
import type { Live } from "./live-graph.ts";
import type { PerfPanel } from "./perf-panel.ts";
import { toTimelineJson, verifyReplay } from "./recorder.ts";
import { runBundledScript } from "./scripted-run.ts";
import type { StudioStore } from "./store.ts";
import type { TimelinePanel } from "./timeline-panel.ts";
import type { Viewport } from "./viewport.ts";

export interface TestHookContext {
  readonly ready: Promise<void>;
  readonly store: StudioStore;
  readonly editor: EditorViewHandle;
  readonly viewport: Viewport;
  readonly crowd: CrowdPanel;
  readonly perf: PerfPanel;
  readonly fade: FadeView;
  readonly continuity: ContinuityTracker;
  readonly timeline: TimelinePanel;
  readonly check: CheckPanel;
  readonly ikGizmos: IkGizmos;
  readonly jointPicking: JointPicking;
  live(): Live | undefined;
  character(): Character | undefined;
  loadCharacter(bytes: Uint8Array, name: string): Promise<void>;
  importTimeline(text: string, name: string): void;
  reloadGraph(text: string, file: string): void;
}

export function installTestHooks(c: TestHookContext): void {
  Object.assign(window, {
    animgraphStudio: {
      ready: c.ready,
      /** The store: the document's text, the selection, undo and redo. */
      store: c.store,
      frames: () => c.perf.frames,
      currentState: () => document.body.dataset["state"],
      /** Runs the loaded graph on 8 characters through the kernel and the JS path; the largest difference. */
      kernelAgreement: (count = 120): { kernel: boolean; maxModelDiff: number } => {
        const live = c.live();
        const kernel = c.crowd.kernel;
        if (!live || !kernel) return { kernel: false, maxModelDiff: NaN };
        const js = createCrowd(live.graph, 8), wasm = createCrowd(live.graph, 8, { kernel });
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
      reloadGraph: (text: string, file = "edited.json") => c.reloadGraph(text, file),
      /** The CodeMirror editor (its view takes transactions as a user's typing would). */
      editor: c.editor,
      /** The markers the editor shows: 1-based line and column, severity, message. */
      editorMarks: () => {
        const out: { line: number; column: number; severity: string; message: string }[] = [];
        const view = c.editor.view;
        forEachDiagnostic(view.state, (d, from) => {
          const line = view.state.doc.lineAt(from);
          out.push({ line: line.number, column: from - line.from + 1, severity: d.severity, message: d.message });
        });
        return out;
      },
      /** Per IK layer of the graph that plays: its gizmos' places (world space) and its weight this frame. */
      ikGizmos: () => c.ikGizmos.snapshot(),
      /**
       * A joint of the character: its world position as drawn (the three.js bone the output pose was applied
       * to), the same in model space (through the inverse of the model → world matrix), and its model-space
       * position computed from the output pose by the library (`pose`).
       */
      joint: (name: string) => {
        const character = c.character();
        const j = character?.skeleton.indexOf.get(name);
        if (!character || j === undefined) return null;
        const at = character.binding.objectOfJoint[j] ?? -1;
        const obj = at >= 0 ? character.binding.objects[at] : undefined;
        if (!obj) return null;
        character.root.updateMatrixWorld(true);
        const world = obj.getWorldPosition(new Vector3());
        const model = world.clone().applyMatrix4(c.ikGizmos.modelMatrix(character).invert());
        // And from the output pose itself, with the library's own model-space transform.
        const live = c.live();
        let pose: number[] | null = null;
        if (live) {
          const m = localToModel(new Float32Array(16 * character.skeleton.jointCount), character.skeleton, c.timeline.instance(live).result.pose);
          pose = [m[16 * j + 12]!, m[16 * j + 13]!, m[16 * j + 14]!];
        }
        return { world: [world.x, world.y, world.z], model: [model.x, model.y, model.z], pose };
      },
      /** The joint a click at client point (x, y) of the viewport would pick (name, index, mesh or bone), or null. */
      pickAt: (x: number, y: number) => c.jointPicking.pickAt(x, y),
      /** The joint under the pointer (hover), by name, or null. */
      hoveredJoint: () => c.jointPicking.hovered,
      /** The field a "pick" button armed (its key and label), or null. */
      armedPick: () => { const a = c.jointPicking.armed; return a ? { key: a.key, label: a.label } : null; },
      /** The character's joints: names and parents (parent index, −1 for a root). */
      skeleton: () => { const s = c.character()?.skeleton; return s ? { names: [...s.names], parents: Array.from(s.parents) } : null; },
      /** A world-space point in the character's model space (the frame IK targets are given in). */
      modelPoint: (world: readonly number[]) => {
        const character = c.character();
        if (!character) return null;
        const m = new Vector3(world[0], world[1], world[2]).applyMatrix4(c.ikGizmos.modelMatrix(character).invert());
        return [m.x, m.y, m.z];
      },
      /** Where a world-space point is drawn on the page (client pixels), for tests that drag gizmos. */
      screenPoint: (world: readonly number[]) => {
        const v = new Vector3(world[0], world[1], world[2]).project(c.viewport.camera);
        const rect = c.viewport.renderer.domElement.getBoundingClientRect();
        return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
      },
      simulationTime: () => c.live()?.instance.time ?? 0,
      /** Per state of the shown machine: its weight over the plotted history (the crossfade panel). */
      fadeHistory: () => c.fade.history(),
      /** Per step over the plotted history: the output's velocity jump (rad/s) and whether a transition started. */
      jumpHistory: () => c.continuity.history(),
      loadCharacter: (bytes: Uint8Array, name: string) => c.loadCharacter(bytes, name),
      /** Recorded steps, and how many replay to a different pose (0: bit for bit). */
      recording: () => {
        const live = c.live();
        return { steps: live?.recording.params.length ?? 0, mismatches: live ? verifyReplay(live.recording) : -1 };
      },
      timelineJson: () => {
        const live = c.live();
        return live ? toTimelineJson(live.recording) : "";
      },
      importTimeline: (text: string, name = "imported.timeline.json") => c.importTimeline(text, name),
      showStep: (k: number) => c.timeline.showStep(k),
      /** Runs the check panel on the graph that plays: per finding its code, pointer and witness steps. */
      runCheck: () => {
        const r = c.check.run();
        return r ? { complete: r.exploration.complete, findings: r.findings.map((f) => ({ code: f.code, pointer: f.pointer, steps: f.witness?.steps ?? 0, replayed: f.witness?.replayed ?? false })) } : null;
      },
      /** Loads check finding i's witness into the rewind bar (as its button does); its step count. */
      loadWitness: (i: number) => c.check.loadWitness(i),
      goLive: () => c.timeline.goLive(),
      shownStep: () => c.store.selection.step,
      /** The camera's distance to its target and the character's framed size (for the framing tests). */
      framing: () => c.viewport.framing(),
      /** The drawn crowd, for its tests and scripts/studio-figures.mjs (null when the crowd is off). */
      crowdDraw: () => {
        const view = c.crowd.view;
        const character = c.character();
        return view && character ? {
          ...view.stats(),
          calls: c.viewport.renderer.info.render.calls,
          characterDrawItems: drawItems(character.root),
          sceneDrawItems: drawItems(c.viewport.scene),
          distinctPoses: (sample: number) => view.distinctPoses(sample),
          agreementWithThree: (index: number) => view.agreementWithThree(index),
        } : null;
      },
      setCrowdVisible: (visible: boolean) => { if (c.crowd.view) c.crowd.view.group.visible = visible; },
      /** Frame-time samples (ms) of the last frames: evaluate, upload, render. */
      frameTimes: () => c.perf.samples(),
      /** The deterministic digest of the bundled scripted run, computed here in the browser. */
      scriptedDigest: async () => {
        const character = c.character();
        if (!character) throw new Error("no character loaded");
        const [g, timeline] = await Promise.all([
          fetch("robot/robot.animgraph.json").then((r) => r.text()),
          fetch("robot/walk-run-jump.timeline.json").then((r) => r.text()),
        ]);
        return runBundledScript(g, timeline, character.skeleton, character.clips);
      },
    },
  });
}
