import { LinkError, TextLineReader } from "../base/mod.ts";
import { type AgentContext, createAgent, listAgents, missingTools } from "../agent/mod.ts";
import { type InstallPlan, planInstall } from "./install_plan.ts";
import { startAgent } from "../agent/launch/mod.ts";
import { type StartAgentOptions } from "../agent/launch/mod.ts";
import { type StartResult } from "../agent/launch/mod.ts";

/** How `lnk setup` may ask and act. */
export interface SetUpOptions {
  /** Asks a person at a terminal; undefined without one. */
  ask?: (question: string) => Promise<string | undefined>;
  /** --yes: installs without asking. */
  yes?: boolean;
  /** Whose the install is: root installs itself, anyone else through sudo. This process's unless told. */
  uid?: number;
  /** What the start of `main` is given (the AppArmor offer at a terminal, SBX-3). */
  start?: Pick<StartAgentOptions, "consent">;
}

/** What a set-up did. */
export interface SetUpResult {
  /** The packages installed, and the commands run for them. */
  installed: string[];
  commands: string[][];
  /** Whether `main` was made now. */
  created: boolean;
  agent: StartResult;
}

/**
 * `lnk setup`: installs what Link needs and the PATH lacks with the system's package manager
 * (asking first at a terminal; without one only with --yes, else saying the exact command), then
 * creates `main` when there is no agent yet and starts it.
 */
export async function setUp(ctx: AgentContext, options: SetUpOptions): Promise<SetUpResult> {
  const plan = await planInstall({ env: ctx.env, uid: options.uid ?? Deno.uid() ?? 0 });
  if (plan.commands.length) {
    await consent(plan, options);
    for (const argv of plan.commands) await runInstall(ctx, argv);
    const still = await missingTools(ctx.env);
    if (still.length) {
      throw new LinkError(
        "SANDBOX_UNAVAILABLE",
        `Cannot set up Link: ${
          andList(still.map((t) => t.program))
        } still not on the PATH after \`${plan.shell}\``,
        { hint: "Put the folder they were installed in on your PATH, then run `lnk setup` again" },
      );
    }
  }
  const agents = await listAgents(ctx);
  const created = agents.length === 0;
  const main = created ? await createAgent(ctx, "main") : agents.find((a) => a.name === "main") ?? agents[0]!;
  const agent = await startAgent(ctx, main, options.start ?? {});
  return { installed: [...plan.packages], commands: plan.commands.map((c) => [...c]), created, agent };
}

async function consent(plan: InstallPlan, options: SetUpOptions): Promise<void> {
  const what = andList(plan.missing.map((t) => t.title));
  if (options.yes) return;
  const answer = await options.ask?.(
    `Link needs ${what}. Install ${plan.packages.join(" and ")} with \`${plan.shell}\`? [y/N]`,
  );
  if (answer !== undefined && /^y(es)?$/i.test(answer.trim())) return;
  throw new LinkError(
    "SANDBOX_UNAVAILABLE",
    `Cannot set up Link: ${andList(plan.missing.map((t) => t.program))} ${
      plan.missing.length > 1 ? "are" : "is"
    } not installed${answer === undefined ? " and there is no terminal to ask in" : ""}`,
    {
      hint:
        `Run \`${plan.shell}\`, then \`lnk setup\` again (or \`lnk setup --yes\` installs without asking)`,
    },
  );
}

/**
 * Runs one install command, what it prints shown to the person as progress (stderr, never the
 * results on stdout). sudo asks for its password at the terminal itself.
 */
async function runInstall(ctx: AgentContext, argv: readonly string[]): Promise<void> {
  const [program, ...args] = argv;
  ctx.note?.(`Running \`${argv.join(" ")}\``);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program!, {
      args,
      env: ctx.env.toObject(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
  } catch (err) {
    throw new LinkError("SERVICE_FAILED", `Cannot run \`${argv.join(" ")}\`: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const lines = new TextLineReader(child.stdout);
  for (let line = await lines.next(); line !== undefined; line = await lines.next()) ctx.note?.(line);
  const status = await child.status;
  if (!status.success) {
    throw new LinkError(
      "SERVICE_FAILED",
      `Cannot set up Link: \`${argv.join(" ")}\` exited with code ${status.code}`,
      {
        hint: "Read what it said above, fix that, then run `lnk setup` again",
      },
    );
  }
}

/** "a", "a and b", "a, b and c". */
function andList(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
