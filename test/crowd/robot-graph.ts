// The robot example graph (examples/robot) for the crowd tests, also usable as a worker recipe.
import type { CompiledGraph, RuntimeOptions } from "../../src/graph/compiled-graph.ts";
import { exampleGraph } from "./example-graph.ts";

/** examples/robot/robot.animgraph.json compiled against RobotExpressive (root motion on). */
export function robotGraph(options: RuntimeOptions = {}): Promise<CompiledGraph> {
  return exampleGraph("robot/robot.animgraph.json", "robot/RobotExpressive.glb", options);
}
