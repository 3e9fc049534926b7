// The crowd: N more characters of the playing graph, evaluated with the WebAssembly SIMD kernel where the
// browser has it and drawn instanced (crowd-renderer.ts); the size and LOD controls of the performance
// panel.
import { createCrowd, crowdKernelSupported, evaluateCrowd, loadCrowdKernel, setParam, type CrowdKernel } from "animgraph";
import type { Character } from "./character.ts";
import { createCrowdRenderer, type CrowdRenderer } from "./crowd-renderer.ts";
import type { Live } from "./live-graph.ts";
import type { Viewport } from "./viewport.ts";

export interface CrowdPanel {
  /** Resolves once the kernel is loaded (or known to be missing). */
  readonly ready: Promise<void>;
  readonly kernel: CrowdKernel | null;
  /** The drawn crowd, or null. */
  readonly view: CrowdRenderer | null;
  /** Makes the crowd for the playing graph at the size asked (a quarter second after the last change). */
  apply(): void;
  /** One fixed step of the crowd (drawn: with the LOD; else evaluated only). */
  step(live: Live, dt: number): void;
  /** Uploads the drawn crowd's poses (hidden when its character left without a graph). */
  upload(live: Live | undefined): void;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function createCrowdPanel(viewport: Viewport, getLive: () => Live | undefined, getCharacter: () => Character | undefined): CrowdPanel {
  let kernel: CrowdKernel | null = null;
  const ready = crowdKernelSupported()
    ? loadCrowdKernel().then((k) => { kernel = k; }, () => { kernel = null; })
    : Promise.resolve();
  let view: CrowdRenderer | null = null;
  let sizeTimer: ReturnType<typeof setTimeout> | undefined;
  let viewTimer: ReturnType<typeof setTimeout> | undefined;
  let drawnCount = 0;

  const makeCrowd = (n: number): void => {
    const live = getLive();
    if (!live) return;
    const on = $<HTMLInputElement>("toggle-crowd").checked;
    live.crowd = on ? createCrowd(live.graph, n, kernel ? { kernel } : {}) : null;
    live.crowd?.instances.forEach((c, i) => {
      for (const p of live.graph.params) if (p.type === "float") setParam(c, p.name, ((i * 7919) % 100) / 100 * 3);
    });
    showCrowd();
  };
  /**
   * Rebuilds the drawn crowd for the current crowd and character, a quarter second after the last change
   * (typing "1000" asks for crowds of 1, 10, 100 and 1000: only the last is built and drawn; meanwhile the
   * crowd is evaluated, not drawn). The camera frames the crowd when it appears or changes size, and the
   * character again when it goes; a graph edit leaves the camera alone.
   */
  const showCrowd = (): void => {
    view?.dispose();
    view = null;
    clearTimeout(viewTimer);
    viewTimer = setTimeout(buildView, 0);
  };
  const buildView = (): void => {
    const live = getLive();
    const character = getCharacter();
    const before = drawnCount;
    drawnCount = 0;
    if (!live?.crowd || !character) {
      if (character && before > 0) viewport.frame(character.root);
      return;
    }
    try {
      view = createCrowdRenderer(live.crowd, character, viewport.renderer);
      view.setLod($<HTMLInputElement>("toggle-crowd-lod").checked);
      viewport.scene.add(view.group);
      drawnCount = live.crowd.count;
      if (before !== live.crowd.count) {
        viewport.frame(view.group);
        // Framing fits the whole crowd's box; half way in, its front rows fill the view and the back ones still show.
        viewport.camera.position.lerp(viewport.controls.target, 0.45);
      }
    } catch (e) {
      $("crowd-note").textContent = `the crowd is evaluated but not drawn: ${(e as Error).message}`;
    }
  };

  const panel: CrowdPanel = {
    ready,
    get kernel() { return kernel; },
    get view() { return view; },
    /**
     * The note says at once what size will be used; the crowd itself is made a quarter second after the last
     * keystroke, so typing "99999" never builds and evaluates the crowds of 9, 99, 999 and 5000 on the way.
     */
    apply() {
      if (!getLive()) return;
      const input = $<HTMLInputElement>("crowd-size");
      const asked = Number(input.value);
      const n = Number.isFinite(asked) ? Math.max(1, Math.min(5000, Math.round(asked))) : 300;
      $("crowd-note").textContent = Number.isFinite(asked) && n !== asked ? `crowd size is 1–5000: using ${n}` : "";
      clearTimeout(sizeTimer);
      sizeTimer = setTimeout(() => makeCrowd(n), 250);
    },
    step(live, dt) {
      if (!live.crowd) return;
      if (view) view.step(dt, viewport.camera.position);
      else evaluateCrowd(live.crowd, dt);
    },
    upload(live) {
      if (!view) return;
      if (live?.crowd !== view.crowd) view.group.visible = false; // its character left without a graph
      view.upload();
    },
  };
  $<HTMLInputElement>("toggle-crowd").addEventListener("change", () => panel.apply());
  $<HTMLInputElement>("crowd-size").addEventListener("input", () => panel.apply());
  $<HTMLInputElement>("toggle-crowd-lod").addEventListener("change", (e) => view?.setLod((e.target as HTMLInputElement).checked));
  return panel;
}
