import type { Clock } from "../../base/mod.ts";
import type { SandboxSpec } from "../../../sandbox/mod.ts";
import type { JsonValue } from "../model/mod.ts";

/**
 * The agent's folders as the harness finds them on disk. Inside the agent's sandbox these are
 * the paths the sandbox shows; the tools present them as one view (LAY-5): Home's own folders,
 * with instructions/, skills/ and chats/ beside them.
 */
export interface AgentFolders {
  /** Home: the person's documents and the agent's work; "." in the view. */
  readonly home: string;
  /** Agent/instructions: "instructions/" in the view. */
  readonly instructions: string;
  /** Agent/skills: "skills/" in the view. */
  readonly skills: string;
  /** Agent/memory: never in the view; the notes tools keep the agent's notes here. */
  readonly memory: string;
  /** Agent/chats: "chats/" in the view, never writable to a tool (LAY-7). */
  readonly chats: string;
}

/** What a tool's program is run with; `program` is the resolved path of argv[0]. */
export interface RunCommandOptions {
  readonly program: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly stdin?: string;
  /** Bytes kept of each of stdout and stderr; the rest is counted and left out. */
  readonly outputCap: number;
  readonly signal: AbortSignal;
  readonly clock: Clock;
}

/** What a command did: its exit, and its output as capped. */
export interface CommandOutput {
  /** The exit code, or null when it was ended by a signal. */
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Runs one command: ConfinedRun's in the agent's sandbox (LAY-7), `runProcess` by default. */
export type RunCommand = (argv: readonly string[], options: RunCommandOptions) => Promise<CommandOutput>;

/** Everything a tool call may use: who calls, where the folders are, and what the grants allow. */
export interface ToolContext {
  readonly agentId: string;
  readonly owner: string;
  readonly folders: AgentFolders;
  /** The agent's grants (Config/sandbox.toml): [files] and [commands] hold in Link's tools (SBX-20). */
  readonly grants: SandboxSpec;
  /** The conversation's thread key. */
  readonly conversation: string;
  /** Aborts when the turn is cancelled. */
  readonly signal: AbortSignal;
  readonly clock: Clock;
  /**
   * The agent's proxy, in the base-URL form `http://127.0.0.1:<port>/_link/s/<secret>/`. It holds
   * the proxy's secret, so no tool ever puts it in a result or a log line.
   */
  readonly proxy?: { readonly url: string };
  /** The runner for `run`; the default runs the program directly with Deno.Command. */
  readonly runCommand?: RunCommand;
}

/** A tool's answer to one call: text for the model, and whether the call failed. */
export interface ToolResult {
  readonly content: string;
  readonly isError: boolean;
}

/** One of the harness's own tools: a name, what it does, its parameters, and its code. */
export interface HarnessTool {
  readonly name: string;
  readonly description: string;
  /** The arguments as a JSON Schema object, fixed for a start (PRN-2). */
  readonly parameters: { readonly [key: string]: JsonValue };
  /** Checks `args` and runs; a bad argument or a refusal is a result, never a throw. */
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
}
