import { join } from "node:path";
import { LinkError, lockFile } from "../base/mod.ts";
import { noteIssuedId } from "./agent_id.ts";
import { listAgents } from "./agents.ts";
import type { AgentContext } from "./context.ts";
import { layoutOf } from "./layout.ts";
import { listRemoved } from "./remove_agent.ts";
import { type AgentSettings, loadSettings } from "./settings.ts";

/**
 * Brings back an agent removed on this machine while its files are still kept aside: the same ID,
 * owner, settings and folders.
 */
export async function restoreAgent(ctx: AgentContext, name: string): Promise<AgentSettings> {
  const { paths } = ctx;
  await Deno.mkdir(paths.agentsState, { recursive: true, mode: 0o700 });
  using _lock = await lockFile(paths.agentsLock);
  const record = (await listRemoved(paths)).find((r) => r.name === name || r.id === name);
  if (!record) {
    throw new LinkError(
      "AGENT_NOT_FOUND",
      `Cannot restore agent "${name}": no removed agent of that name is kept here`,
      {
        hint: "Removed agents are kept for `keep_moved` (30 days unless machine.toml says otherwise)",
      },
    );
  }
  if ((await listAgents(ctx)).some((a) => a.name.toLowerCase() === record.name.toLowerCase())) {
    throw new LinkError(
      "AGENT_EXISTS",
      `Cannot restore agent "${record.name}": an agent of that name exists`,
      {
        hint: "Remove or rename that agent first",
      },
    );
  }
  const aside = join(paths.removed, record.id);
  await Deno.mkdir(paths.agentState(record.id), { recursive: true, mode: 0o700 });
  await Deno.copyFile(join(aside, "settings.toml"), paths.settingsToml(record.id));
  const settings = await loadSettings(paths, record.id);
  const layout = layoutOf(paths, settings);
  await Deno.mkdir(paths.agentFolders, { recursive: true, mode: 0o700 });
  await Deno.rename(join(aside, "folder"), layout.root).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  await noteIssuedId(paths, record.id);
  await Deno.remove(aside, { recursive: true });
  return settings;
}
