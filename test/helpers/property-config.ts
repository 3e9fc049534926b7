// Loaded before every test file (scripts/run-tests.mjs passes it with --import). Property tests use a
// fresh random seed each run, as fast-check intends; FC_SEED replays a failure that CI printed and
// FC_NUM_RUNS raises the run count for a local soak (e.g. FC_NUM_RUNS=5000 npm test -- quat).
import fc from "fast-check";

const seed = process.env["FC_SEED"];
const numRuns = process.env["FC_NUM_RUNS"];
fc.configureGlobal({
  ...(seed !== undefined && seed !== "" ? { seed: Number(seed) } : {}),
  ...(numRuns !== undefined && numRuns !== "" ? { numRuns: Number(numRuns) } : {}),
});
