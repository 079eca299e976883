import { atomicWrite, lockFile, readTextIfExists } from "../../base/mod.ts";
import { type AgentContext, type AgentSettings, layoutOf } from "../../agent/mod.ts";
import { DEFAULT_SPEC_TOML, parseSpec } from "../../spec/mod.ts";
import { editSandboxToml } from "../../../sandbox/mod.ts";

/** What `lnk agent memory on` or `off` did. */
export interface MemoryChanged {
  readonly agent: string;
  readonly file: string;
  readonly on: boolean;
  readonly changed: boolean;
}

/**
 * Turns the agent's memory on or off (MEM-1): rewrites only `[memory] on` in Config/spec.toml,
 * every other line and comment kept, checked as the next start reads it and written atomically
 * under the spec's lock. Nothing is written when nothing changes. It takes effect at the agent's
 * next start of its bridge.
 */
export async function changeMemory(
  ctx: AgentContext,
  agent: AgentSettings,
  on: boolean,
): Promise<MemoryChanged> {
  const file = layoutOf(ctx.paths, agent).specToml;
  await Deno.mkdir(ctx.paths.agentState(agent.id), { recursive: true, mode: 0o700 });
  using _lock = await lockFile(`${ctx.paths.agentState(agent.id)}/spec.toml.lock`);
  const text = (await readTextIfExists(file)) ?? DEFAULT_SPEC_TOML;
  if (parseSpec(text, file).memory.on === on) return { agent: agent.name, file, on, changed: false };
  const next = editSandboxToml(text, [{ table: ["memory"], key: "on", value: on }], file);
  parseSpec(next, file);
  await atomicWrite(file, next, { mode: 0o600 });
  return { agent: agent.name, file, on, changed: true };
}
