import { OP, type CompiledCondition } from "../graph/compiled-graph.ts";

/**
 * Whether one condition holds for the parameter values `params` (bool/trigger stored as 0/1): the
 * slot's value compared with the condition's value by its operator (`==` / `!=` exact).
 */
export function conditionHolds(params: Float64Array, c: CompiledCondition): boolean {
  const v = params[c.slot]!;
  switch (c.op) {
    case OP.gt: return v > c.value;
    case OP.ge: return v >= c.value;
    case OP.lt: return v < c.value;
    case OP.le: return v <= c.value;
    case OP.eq: return v === c.value;
    default: return v !== c.value;
  }
}
