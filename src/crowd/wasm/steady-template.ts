// A settled character's kernel commands, kept per kernel crowd (steady-commands.ts records by it).
import type { MotionSource } from "../../graph/motion-source.ts";

/** Most commands a template holds; a character recording more is always walked. */
export const MAX_COMMANDS = 32;

/** One plan's commands, made from the first character recorded with it. */
export interface SteadyTemplate {
  /** The plan generation it was made for (SteadyPlan.generation); −1: none yet. */
  generation: number;
  /** False when that plan's characters cannot be recorded by template (a staged clip, too many commands). */
  usable: boolean;
  /** Commands in the template, the last one OUTPUT. */
  count: number;
  /** The commands, 8 int32 per command as in the kernel's list (float64 operands included). */
  readonly commands: Int32Array;
  /** Commands carrying a clip time (SAMPLE, SAMPLE_LAYER), in order: command index, layer, source, whether synchronised. */
  times: number;
  readonly timeCommand: Int32Array;
  readonly timeLayer: Int32Array;
  readonly timeSource: (MotionSource | null)[];
  readonly timeSync: Uint8Array;
  /** The slot stack's height after recording (WasmCrowd.slotTop). */
  slotTop: number;
}

/** An empty template (made once per kernel crowd). */
export function createSteadyTemplate(): SteadyTemplate {
  return {
    generation: -1, usable: false, count: 0, commands: new Int32Array(8 * MAX_COMMANDS),
    times: 0, timeCommand: new Int32Array(MAX_COMMANDS), timeLayer: new Int32Array(MAX_COMMANDS),
    timeSource: new Array<MotionSource | null>(MAX_COMMANDS).fill(null), timeSync: new Uint8Array(MAX_COMMANDS), slotTop: 0,
  };
}
