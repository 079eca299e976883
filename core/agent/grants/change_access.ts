import { atomicWrite, lockFile, readTextIfExists } from "../../base/mod.ts";
import { DEFAULT_SANDBOX_TOML, editSandboxToml, parseSandboxSpec } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import { layoutOf } from "../layout.ts";
import type { AgentSettings } from "../settings.ts";

/** What `lnk agent share` or `unshare` did to `[access] message`. */
export interface AccessChanged {
  readonly file: string;
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/**
 * Changes who besides the owner may message the agent (ACS-5): rewrites only `[access] message` in
 * Config/sandbox.toml, every other line and comment kept byte for byte, checked as the next start
 * reads it, and written atomically under the file's lock (the one `lnk agent allow` takes). A missing
 * file starts as the defaults. Nothing is written when nothing changes.
 */
export async function changeAccess(
  ctx: AgentContext,
  agent: AgentSettings,
  change: (message: readonly string[]) => string[],
): Promise<AccessChanged> {
  const file = layoutOf(ctx.paths, agent).sandboxToml;
  await Deno.mkdir(ctx.paths.agentState(agent.id), { recursive: true });
  using _lock = await lockFile(`${ctx.paths.agentState(agent.id)}/sandbox.toml.lock`);
  const text = (await readTextIfExists(file)) ?? DEFAULT_SANDBOX_TOML;
  const before = parseSandboxSpec(text, file).access.message;
  const after = change(before);
  if (JSON.stringify(after) === JSON.stringify(before)) return { file, before, after };
  const next = editSandboxToml(text, [{ table: ["access"], key: "message", value: after }], file);
  parseSandboxSpec(next, file);
  await atomicWrite(file, next, { mode: 0o600 });
  return { file, before, after };
}
