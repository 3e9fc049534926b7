import type { Command } from "commander";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { runSeedDemo } from "../../demo/seed-demo.ts";
import { CliUsageError, type CliCommand, type CliContext } from "../context.ts";

const DEMOS: Record<string, { readonly description: string; readonly run: () => string[] }> = {
  seed: {
    description: "the seed's Python state-machine demo (idle/walk/run on sine clips), line for line",
    run: runSeedDemo,
  },
};

/** `animgraph demo NAME`: runs a built-in demo and prints its output (`seed`: the seed's Python demo). */
export const demoCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command("demo")
      .description(`Run a built-in demo: ${Object.entries(DEMOS).map(([n, d]) => `${n} (${d.description})`).join("; ")}`)
      .argument("<name>", `demo name: ${Object.keys(DEMOS).join(", ")}`)
      .action((name: string) => {
        const demo = DEMOS[name];
        if (!Object.hasOwn(DEMOS, name) || !demo) throw new CliUsageError(`demo: unknown demo "${name}" (available: ${Object.keys(DEMOS).join(", ")})`);
        ctx.io.stdout(`${demo.run().join("\n")}\n`);
        ctx.exitCode = ExitCode.Clean;
      });
  },
};
