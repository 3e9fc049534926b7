// The seed demo menu and the A/B crossfade controls. A demo is loaded into the store as a document of
// its own (generated for the character's clips); going back to "— your graph —" loads the user's again.
import type { Character } from "./character.ts";
import { demoClips, seedDemoText, type CrossfadeChoice, type SeedDemo } from "./seed-demos.ts";
import type { StudioStore } from "./store.ts";

export interface DemoPanel {
  /** The demo shown, or null for the user's graph. */
  readonly active: SeedDemo | null;
  /** A new character: the demo shown (if any) is made again for its clips. */
  characterChanged(character: Character): void;
  /** The user opened a graph of their own: the menu goes back to it. */
  forget(): void;
}

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function createDemoPanel(store: StudioStore, getCharacter: () => Character | undefined, onSwap: () => void): DemoPanel {
  let active: SeedDemo | null = null;
  /** The user's own graph, restored when the menu goes back to it. */
  let userGraph = { text: "", file: "" };

  /** The A/B panel's choice (clip names of the current character). */
  const crossfadeChoice = (): CrossfadeChoice => {
    const duration = Number($<HTMLInputElement>("ab-duration").value);
    return {
      a: $<HTMLSelectElement>("ab-a").value,
      b: $<HTMLSelectElement>("ab-b").value,
      duration: Number.isFinite(duration) ? Math.max(0.05, Math.min(5, duration)) : 1,
      curve: $<HTMLSelectElement>("ab-curve").value === "linear" ? "linear" : "smoothstep",
    };
  };
  /** Fills the A and B menus with the character's clips (A: walk, B: run by default). */
  const fillCrossfadeChoices = (character: Character): void => {
    const roles = demoClips(character.clips);
    for (const [id, preferred] of [["ab-a", roles.walk], ["ab-b", roles.run]] as const) {
      const select = $<HTMLSelectElement>(id);
      const keep = select.value;
      select.replaceChildren(...character.clips.map((c) => new Option(c.name, c.name)));
      select.value = character.clips.some((c) => c.name === keep) ? keep : preferred;
    }
  };
  const loadDemo = (demo: SeedDemo, character: Character): void => {
    fillCrossfadeChoices(character);
    store.load(seedDemoText(demo, character.clips, crossfadeChoice()), `seed-demo-${demo}.json`, { source: "demo" });
  };
  const show = (demo: SeedDemo | null): void => {
    active = demo;
    $("ab-panel").hidden = demo !== "crossfade";
    const character = getCharacter();
    if (!character) return;
    if (demo === null) {
      store.load(userGraph.text, userGraph.file, { source: "demo" });
      return;
    }
    if (!store.file.startsWith("seed-demo-")) userGraph = { text: store.text, file: store.file };
    loadDemo(demo, character);
  };

  $<HTMLSelectElement>("demo").addEventListener("change", (e) => {
    const v = (e.target as HTMLSelectElement).value;
    show(v === "machine" || v === "blend2d" || v === "crossfade" ? v : null);
  });
  for (const id of ["ab-a", "ab-b", "ab-duration", "ab-curve"]) {
    $(id).addEventListener("change", () => {
      const character = getCharacter();
      if (active === "crossfade" && character) store.load(seedDemoText("crossfade", character.clips, crossfadeChoice()), "seed-demo-crossfade.json", { source: "demo" });
    });
  }
  $("ab-swap").addEventListener("click", () => onSwap());

  return {
    get active() { return active; },
    characterChanged(character) {
      if (active) loadDemo(active, character);
    },
    forget() {
      active = null;
      $<HTMLSelectElement>("demo").value = "";
      $("ab-panel").hidden = true;
    },
  };
}
