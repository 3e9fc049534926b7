// Random state machines for the checker's property and speed tests: n states in one layer, two to
// three transitions out of each (some "*"), conditions on a float, an int, a bool and two triggers,
// exit times on some, a few clamp (play-once) states, crossfades of 0.1–0.3 s.
import { mulberry32 } from "../helpers/seeded-random.ts";

export function randomMachineDoc(seed: number, states: number, options: { instant?: boolean; layers?: number } = {}): object {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const layers = [];
  for (let l = 0; l < (options.layers ?? 1); l++) {
    const names = Array.from({ length: states }, (_, i) => `S${i}`);
    const st: Record<string, object> = {};
    for (const n of names) st[n] = { clip: `clip${Math.floor(rnd() * 4)}`, ...(rnd() < 0.2 ? { loop: "clamp" } : {}) };
    const transitions: object[] = [];
    // One condition per parameter at most, so no transition contradicts itself (lint refuses those).
    const conditions = (count: number): object[] => {
      const all = [
        { param: "speed", op: pick([">", "<=", ">=", "<"]), value: pick([0.5, 1, 2.5, 4]) },
        { param: "mode", op: pick(["==", "!=", ">"]), value: pick([0, 1, 2]) },
        { param: "grounded", value: rnd() < 0.5 },
        { param: pick(["jump", "attack"]) },
      ];
      const out: object[] = [];
      while (out.length < count) {
        const i = Math.floor(rnd() * all.length);
        out.push(all.splice(i, 1)[0]!);
      }
      return out;
    };
    for (let i = 0; i < states; i++) {
      const k = 2 + Math.floor(rnd() * 2);
      for (let j = 0; j < k; j++) {
        const star = rnd() < 0.04;
        const to = pick(names.filter((n) => n !== names[i]));
        const conds = conditions(Math.floor(rnd() * 3));
        const exit = rnd() < 0.3 ? { exitTime: pick([0.5, 0.8, 1]) } : {};
        const instant = options.instant && rnd() < 0.1;
        transitions.push({
          from: star ? "*" : names[i], to, conditions: conds, duration: instant ? 0 : pick([0.1, 0.2, 0.3]), ...exit,
          ...(rnd() < 0.3 ? { interruption: { source: pick(["source", "target", "sourceThenTarget"]) } } : {}),
        });
      }
    }
    layers.push({ name: `layer${l}`, machine: { entry: "S0", states: st, transitions } });
  }
  return {
    parameters: {
      speed: { type: "float", default: 0, min: 0, max: 6 },
      mode: { type: "int", default: 0, min: 0, max: 3 },
      grounded: { type: "bool", default: true },
      jump: { type: "trigger" },
      attack: { type: "trigger" },
    },
    layers,
  };
}
