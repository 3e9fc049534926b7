// A crowd character's machine instance. The fields of createInstance's machine instance, each assigned
// in the constructor so that V8 lays them all out inside the object: copied onto an object with
// Object.assign, 13 of its 24 fields went to a separate property array (15 slots, 136 bytes, and
// one more object to reach per machine and frame on the settled path).
import type { CompiledMachine } from "../graph/compiled-graph.ts";
import type { InertialState, MachineInstance, StackEntry } from "../graph/graph-instance.ts";
import type { ClipCursor } from "../clip/clip-cursor.ts";
import { createPose, type Pose } from "../pose/pose.ts";

/** A machine instance whose `frozen` pose is made on first use (a getter on the prototype, so every machine keeps one hidden class). */
export class CrowdMachine implements MachineInstance {
  declare readonly machine: CompiledMachine;
  declare readonly layer: number;
  declare current: number;
  declare source: number;
  declare depth: number;
  declare readonly stack: StackEntry[];
  declare readonly stateTime: Float64Array;
  declare readonly statePrevTime: Float64Array;
  declare readonly statePhase: Float64Array;
  declare readonly statePrevPhase: Float64Array;
  declare readonly advancedAt: Int32Array;
  declare readonly stateWeight: Float64Array;
  declare frozenWeight: number;
  declare readonly childWeights: readonly Float64Array[];
  declare readonly clocks: Float64Array;
  declare readonly cellWeights: readonly Float64Array[];
  declare readonly cursors: readonly (readonly (ClipCursor | null)[])[];
  declare readonly nested: readonly (MachineInstance | null)[];
  declare readonly inertial: InertialState | null;
  declare readonly travelPath: Int32Array;
  declare travelLength: number;
  declare travelNext: number;
  declare private frozenPose: Pose | null;
  declare private readonly jointCount: number;

  constructor(f: Omit<MachineInstance, "frozen" | "clocks"> & { readonly clocks: Float64Array }, jointCount: number) {
    this.machine = f.machine;
    this.layer = f.layer;
    this.current = f.current;
    this.source = f.source;
    this.depth = f.depth;
    this.stack = f.stack;
    this.stateTime = f.stateTime;
    this.statePrevTime = f.statePrevTime;
    this.statePhase = f.statePhase;
    this.statePrevPhase = f.statePrevPhase;
    this.advancedAt = f.advancedAt;
    this.stateWeight = f.stateWeight;
    this.frozenWeight = f.frozenWeight;
    this.childWeights = f.childWeights;
    this.clocks = f.clocks;
    this.cellWeights = f.cellWeights;
    this.cursors = f.cursors;
    this.nested = f.nested;
    this.inertial = f.inertial;
    this.travelPath = f.travelPath;
    this.travelLength = f.travelLength;
    this.travelNext = f.travelNext;
    this.frozenPose = null;
    this.jointCount = jointCount;
  }

  /** What createInstance's frozen poses start as: zero translations, identity rotations, unit scales. */
  get frozen(): Pose {
    return (this.frozenPose ??= createPose(this.jointCount));
  }
}
