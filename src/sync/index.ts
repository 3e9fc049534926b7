// Phase synchronisation of cyclic clips of different lengths (sync groups).
export { syncedCycleDuration, advanceSyncedPhase, phaseToTime, wrapPhase, createSyncGroup, stepSyncGroup, type SyncGroup } from "./sync-group.ts";
