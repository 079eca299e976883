import { atomicWrite, isLinkError, LinkError, lockFile, readTextIfExists } from "../../base/mod.ts";
import {
  applyGrants,
  DEFAULT_SANDBOX_TOML,
  editSandboxToml,
  type GrantFlags,
  parseSandboxSpec,
  planSandbox,
  resolveSandboxInput,
  type SandboxSpec,
  type TomlValue,
} from "../../../sandbox/mod.ts";
import { agentStatus } from "../agent_status.ts";
import type { AgentContext } from "../context.ts";
import { layoutOf } from "../layout.ts";
import type { AgentSettings } from "../settings.ts";
import { grantedTeamsOnly, harnessPolicy, policySandboxFields } from "./harness_policy.ts";

/** One key of the sandbox file that changed, as "table.key", with its value before and after. */
export interface GrantChange {
  readonly key: string;
  readonly from: TomlValue | null;
  readonly to: TomlValue | null;
}

/** What `lnk agent allow` or `deny` did. */
export interface GrantsChanged {
  readonly agent: string;
  readonly file: string;
  readonly changes: readonly GrantChange[];
  /** Flags that changed nothing, each said once ("--tcp "x" was already allowed"). */
  readonly notes: readonly string[];
  /** The agent runs with its old grants until it restarts. */
  readonly restartNeeded: boolean;
}

/**
 * Changes an agent's grants (`lnk agent allow` / `deny`, SBX-2, GRT-1, GRT-4) with the flags
 * `lnk sandbox run` takes: rewrites only the keys that change in Config/sandbox.toml, keeping its
 * comments, and checks the result as the agent's next start would (schema, then the sandbox's
 * refusals, each naming the file and line) before writing it atomically. A missing file starts as
 * the defaults. A running agent is not restarted: it is told to, since its sandbox and proxy were
 * made from the old grants.
 */
export async function changeGrants(
  ctx: AgentContext,
  agent: AgentSettings,
  flags: GrantFlags,
  mode: "allow" | "deny",
): Promise<GrantsChanged> {
  const file = layoutOf(ctx.paths, agent).sandboxToml;
  await Deno.mkdir(ctx.paths.agentState(agent.id), { recursive: true });
  using _lock = await lockFile(`${ctx.paths.agentState(agent.id)}/sandbox.toml.lock`);
  const text = (await readTextIfExists(file)) ?? DEFAULT_SANDBOX_TOML;
  const before = parseSandboxSpec(text, file);
  const result = applyGrants(before, flags, mode);
  const changes = result.changes
    .map((c) => ({
      key: `${c.table.join(".")}.${c.key}`,
      from: valueAt(before, c.table, c.key),
      to: c.value ?? null,
    }))
    .filter((c) => JSON.stringify(c.from) !== JSON.stringify(c.to));
  const base = { agent: agent.name, file, notes: result.notes };
  if (changes.length === 0) return { ...base, changes, restartNeeded: false };
  const next = editSandboxToml(text, result.changes, file);
  await checkEnforceable(ctx, agent, next, file);
  await atomicWrite(file, next, { mode: 0o600 });
  const running = (await agentStatus(ctx, agent)).state === "running";
  return { ...base, changes, restartNeeded: running };
}

function valueAt(spec: SandboxSpec, table: readonly string[], key: string): TomlValue | null {
  let node: unknown = spec;
  for (const name of [...table, key]) node = (node as Record<string, unknown> | undefined)?.[name];
  return (node as TomlValue | undefined) ?? null;
}

/**
 * Resolves and plans the harness's sandbox from the new text, as the next start will: a grant the
 * sandbox cannot enforce is refused now, naming its line (GRT-5), and so is a grant whose path
 * leads through a link an agent could have made (a Home folder planted as a link before
 * `--files` grants it), naming the link, rather than at the start. Paths not there yet are
 * checked at each start.
 */
async function checkEnforceable(ctx: AgentContext, agent: AgentSettings, text: string, file: string) {
  const policy = await harnessPolicy(ctx, agent);
  const spec = grantedTeamsOnly(parseSandboxSpec(text, file), policy.teams);
  try {
    const input = await resolveSandboxInput({
      spec,
      source: { path: file, text },
      paths: ctx.paths,
      ...policySandboxFields(policy),
      command: ["true"],
      runtime: false,
    }, { probe: false });
    planSandbox(input);
  } catch (err) {
    if (!isLinkError(err, "SANDBOX_REFUSED") && !isLinkError(err, "SYMLINK_REFUSED")) throw err;
    const what = err.message.replace(/^Cannot start the sandbox: /, "");
    throw new LinkError(err.code, `Cannot change the grants: ${what}`, {
      hint: err.code === "SYMLINK_REFUSED"
        ? "Remove that link (Link never follows a link an agent could have made), or grant the place it " +
          "leads to by its own path; nothing was written"
        : "Change the flags so the sandbox can hold every grant; nothing was written",
      cause: err,
    });
  }
}
