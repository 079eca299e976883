import { z } from "zod";
import { LinkError } from "../../base/mod.ts";
import { checkCommand } from "./command_policy.ts";
import { defineTool, fail } from "./define_tool.ts";
import type { CommandOutput, HarnessTool } from "./harness_tool.ts";
import { resolveInView } from "./resolve_in_view.ts";
import { runProcess } from "./run_process.ts";

/** Bytes of each of stdout and stderr a run shows: its first and last halves. */
export const RUN_OUTPUT_CAP = 32 * 1024;
/** A run's timeout unless the call says one. */
export const RUN_DEFAULT_TIMEOUT_S = 120;

/** What `run` needs from the start: where programs are found, and what they run with. */
export interface RunToolOptions {
  /** The PATH programs are found on; the harness's own by default. */
  path?: string;
  /** The environment of the default runner; the harness's own by default. */
  env?: Record<string, string>;
}

const Args = z.strictObject({
  command: z.array(z.string()).min(1).max(4096)
    .describe('The program and its arguments, such as ["git", "status"]; for a shell, ["sh", "-c", "..."]'),
  cwd: z.string().optional().describe('The folder to run in, in your folders; "." (Home) by default'),
  stdin: z.string().max(1024 * 1024).optional().describe("Text given to the program's standard input"),
  timeout_seconds: z.number().int().min(1).max(600).optional()
    .describe(`Seconds before the program is stopped; ${RUN_DEFAULT_TIMEOUT_S} by default`),
});

/**
 * run: runs a program allowed by [commands] (SBX-20) in a folder of the view. The program is
 * checked here, then run by `ctx.runCommand` (in the agent's sandbox, ConfinedRun: the harness's
 * sandbox, kept out of Agent/, LAY-7) or, by default, `runProcess`.
 */
export function runTool(options: RunToolOptions = {}): HarnessTool {
  return defineTool({
    name: "run",
    description: "Run a program in your folders and get its exit code and output (the first and last " +
      `${
        RUN_OUTPUT_CAP / 1024
      } KiB of each of stdout and stderr). Only the programs your grants allow can run.`,
    args: Args,
    async run(args, ctx) {
      const where = await resolveInView(args.cwd ?? ".", "read", {
        folders: ctx.folders,
        files: ctx.grants.files,
      });
      if (!where.exists || !(await Deno.stat(where.real)).isDirectory) {
        throw new LinkError("REFUSED", `Cannot run in "${where.view}": it is not a folder`);
      }
      const program = await checkCommand(args.command[0]!, {
        allow: ctx.grants.commands.allow,
        cwd: where.real,
        path: options.path ?? Deno.env.get("PATH") ?? "",
      });
      const timeoutS = args.timeout_seconds ?? RUN_DEFAULT_TIMEOUT_S;
      const runOptions = {
        program,
        cwd: where.real,
        timeoutMs: timeoutS * 1000,
        stdin: args.stdin,
        outputCap: RUN_OUTPUT_CAP,
        signal: ctx.signal,
        clock: ctx.clock,
      };
      const output = ctx.runCommand
        ? await ctx.runCommand(args.command, runOptions)
        : await runProcess(args.command, { ...runOptions, env: options.env });
      if (ctx.signal.aborted) {
        return fail("Cannot finish run: the turn was cancelled, and the program stopped");
      }
      return { content: describe(output, timeoutS), isError: output.timedOut || output.code !== 0 };
    },
  });
}

function describe(output: CommandOutput, timeoutS: number): string {
  const lines = [
    output.timedOut
      ? `Stopped after ${timeoutS} seconds: the timeout`
      : output.code === null
      ? `Ended by signal ${output.signal}`
      : `Exit code ${output.code}`,
  ];
  if (output.stdout !== "") lines.push("--- stdout ---", output.stdout.replace(/\n$/, ""));
  if (output.stderr !== "") lines.push("--- stderr ---", output.stderr.replace(/\n$/, ""));
  return lines.join("\n");
}
