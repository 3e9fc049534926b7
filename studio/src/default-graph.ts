// The graph a character gets when no graph fits it: every clip a looping state, chosen by an int
// parameter "clip" (0 = the first clip), crossfading in 0.25 s. It always compiles for its character.
import type { Clip } from "animgraph";

export function defaultGraphText(characterName: string, clips: readonly Clip[]): string {
  const names: string[] = [];
  for (const c of clips) {
    let name = c.name || "clip";
    while (names.includes(name)) name = `${name}'`;
    names.push(name);
  }
  const states = Object.fromEntries(clips.map((c, i) => [names[i]!, { clip: c.name, loop: "loop" }]));
  const transitions = names.map((name, i) => ({ from: "*", to: name, conditions: [{ param: "clip", op: "==", value: i }], duration: 0.25, curve: "smoothstep" }));
  const spec = {
    animgraph: 1,
    name: `${characterName}: its clips`,
    parameters: { clip: { type: "int", default: 0, min: 0, max: Math.max(0, clips.length - 1) } },
    layers: [{ name: "base", machine: { entry: names[0], states, transitions } }],
  };
  return `${JSON.stringify(spec, null, 2)}\n`;
}
