import type { AgentContext } from "../context.ts";
import { layoutOf } from "../layout.ts";
import type { AgentSettings } from "../settings.ts";

/**
 * What a prepared start was made from, as a string that changes when any of it changes: the
 * agent's settings, its spec and sandbox file, its harness's grant layer, machine.toml, and every
 * agent's settings (their Homes are hidden from this one's sandbox). Only stats, no reads, so a
 * wake can check it in well under a millisecond; a change means the start is prepared again.
 */
export async function launchSignature(ctx: AgentContext, agent: AgentSettings): Promise<string> {
  const paths = ctx.paths;
  const layout = layoutOf(paths, agent);
  const files = [
    paths.settingsToml(agent.id),
    layout.specToml,
    layout.sandboxToml,
    paths.harnessToml(agent.harness),
    paths.machineToml,
  ];
  try {
    for await (const entry of Deno.readDir(paths.agentsState)) {
      if (entry.isDirectory && !entry.name.startsWith(".") && entry.name !== agent.id) {
        files.push(paths.settingsToml(entry.name));
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const stats = await Promise.all(files.sort().map(async (file) => `${file}=${await statOf(file)}`));
  return stats.join("\n");
}

async function statOf(path: string): Promise<string> {
  try {
    const info = await Deno.stat(path);
    // An atomic write is a new file (a new inode) even within the same millisecond and size.
    return `${info.ino ?? 0}:${info.size}:${info.mtime?.getTime() ?? 0}`;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "-";
    throw err;
  }
}
