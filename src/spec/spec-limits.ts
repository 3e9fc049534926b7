/**
 * Limits on an untrusted graph spec (mods, downloads): a spec over any of them is rejected with
 * E_SPEC_LIMIT (or E_FILE_TOO_LARGE for the file size) instead of exhausting memory or time.
 */
export interface SpecLimits {
  /** Largest spec file, in bytes. Default 4 MiB. */
  readonly maxBytes: number;
  /** States in the whole graph, all layers and nested machines together. Default 4096. */
  readonly maxStates: number;
  /** Transitions in the whole graph. Default 16384. */
  readonly maxTransitions: number;
  /** Machines nested inside states, counting the layer's machine as depth 1. Default 8. */
  readonly maxMachineDepth: number;
  /** Layers. Default 64. */
  readonly maxLayers: number;
  /** Parameters. Default 1024. */
  readonly maxParameters: number;
  /** Masks. Default 256. */
  readonly maxMasks: number;
  /** Conditions on one transition. Default 64. */
  readonly maxConditions: number;
  /** Children of one blend tree or samples of one blend space. Default 256. */
  readonly maxBlendChildren: number;
  /** Events of one state. Default 1024. */
  readonly maxEvents: number;
  /** Length of any name, in UTF-16 units. Default 256. */
  readonly maxNameLength: number;
}

/** The limits `parseGraphSpec` applies unless told otherwise (the defaults listed on {@link SpecLimits}). */
export const DEFAULT_SPEC_LIMITS: SpecLimits = {
  maxBytes: 4 * 1024 * 1024,
  maxStates: 4096,
  maxTransitions: 16384,
  maxMachineDepth: 8,
  maxLayers: 64,
  maxParameters: 1024,
  maxMasks: 256,
  maxConditions: 64,
  maxBlendChildren: 256,
  maxEvents: 1024,
  maxNameLength: 256,
};
