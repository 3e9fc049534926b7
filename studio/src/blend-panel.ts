// The blend panel follows the shown layer's current state: its blend tree or space (blend-view.ts), or
// a line saying what the state plays instead.
import type { GraphInstance } from "animgraph";
import { createBlendView, type BlendView } from "./blend-view.ts";
import type { Live } from "./live-graph.ts";

export interface BlendPanel {
  /** A new graph plays: rebuild on the next update. */
  reset(): void;
  update(live: Live, layer: number, instance: GraphInstance): void;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function createBlendPanel(getInstance: () => GraphInstance | undefined, onChange: () => void): BlendPanel {
  let view: BlendView | undefined;
  let shownState = -2;
  let shownLive: Live | undefined;
  let shownLayer = -1;
  return {
    reset() {
      shownState = -2;
    },
    update(live, layer, instance) {
      const machine = live.graph.layers[layer]!.machine;
      const current = instance.layers[layer]!.current;
      if (shownState !== current || shownLive !== live || shownLayer !== layer) {
        shownState = current;
        shownLive = live;
        shownLayer = layer;
        const state = machine.states[current]!;
        $("blend-name").textContent = `· ${state.name}`;
        if (state.motion.kind === "blend1d" || state.motion.kind === "blend2d") {
          view = createBlendView($("blend"), $("blend-weights"), $("blend-sum"), live.graph, () => getInstance() ?? live.instance, onChange, state);
        } else {
          view = undefined;
          $("blend").textContent = state.motion.kind === "clip" ? `${state.name} plays one clip: no blend.` : `${state.name} plays a nested machine.`;
          $("blend-weights").replaceChildren();
          $("blend-sum").textContent = "–";
        }
      }
      view?.update(instance);
    },
  };
}
