// Spec builders shared by the spec and lint tests: a small valid graph to mutate, and parse helpers.
import { parseJsonText } from "../../src/json/index.ts";
import { parseGraphSpec, type ParseGraphSpecOptions, type ParseGraphSpecResult } from "../../src/spec/parse-graph-spec.ts";

/** A JSON object as plain data (built fresh by each call, so tests can mutate it). */
export type Json = Record<string, unknown>;

/** A small valid graph: four parameters, a mask, one layer with Idle/Run and two transitions. */
export function baseSpec(): Json {
  return {
    animgraph: 1,
    name: "t",
    frameRate: 30,
    parameters: {
      speed: { type: "float", min: 0, max: 6 },
      jump: { type: "trigger" },
      grounded: { type: "bool", default: true },
      n: { type: "int" },
    },
    masks: { upper: { include: ["Spine"] } },
    layers: [
      {
        name: "base",
        mask: "upper",
        machine: {
          entry: "Idle",
          states: {
            Idle: { clip: "idle" },
            Run: { clip: "run", events: [{ name: "step", time: 0.1 }] },
          },
          transitions: [
            { from: "Idle", to: "Run", conditions: [{ param: "speed", op: ">", value: 0.1 }] },
            { from: "Run", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 0.1 }, { param: "grounded" }] },
          ],
        },
      },
    ],
  };
}

export function parseText(text: string, options?: ParseGraphSpecOptions): ParseGraphSpecResult {
  return parseGraphSpec(parseJsonText(text, "t.json"), options);
}

export function parseObject(spec: unknown, options?: ParseGraphSpecOptions): ParseGraphSpecResult {
  return parseText(JSON.stringify(spec), options);
}

/** Shorthands into baseSpec()'s layer 0 machine. */
export function machineOf(spec: Json): Json {
  return (spec["layers"] as Json[])[0]!["machine"] as Json;
}
export function statesOf(spec: Json): Json {
  return machineOf(spec)["states"] as Json;
}
export function transitionsOf(spec: Json): Json[] {
  return machineOf(spec)["transitions"] as Json[];
}
export function paramsOf(spec: Json): Json {
  return spec["parameters"] as Json;
}
