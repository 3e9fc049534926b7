import type { CliCommand } from "../context.ts";
import { blendCheckCommand } from "./blend-check.ts";
import { checkCommand } from "./check.ts";
import { compressCommand } from "./compress.ts";
import { demoCommand } from "./demo.ts";
import { inspectCommand } from "./inspect.ts";
import { lintCommand } from "./lint.ts";
import { mapCommand } from "./map.ts";
import { mirrorCommand } from "./mirror.ts";
import { retargetCommand } from "./retarget.ts";
import { runCommand } from "./run.ts";

/** Every CLI command, in the order `animgraph --help` lists them (one file per command beside this one). */
export const COMMANDS: readonly CliCommand[] = [blendCheckCommand, inspectCommand, lintCommand, checkCommand, mapCommand, retargetCommand, mirrorCommand, demoCommand, runCommand, compressCommand];
