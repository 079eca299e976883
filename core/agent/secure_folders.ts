import { LinkError, type LinkPaths } from "../base/mod.ts";
import { COLLECTIONS, layoutOf } from "./layout.ts";
import type { AgentSettings } from "./settings.ts";

/**
 * Makes what is the agent's its user's alone, for an agent made before Link set its own umask
 * (or by a caller whose umask or home let others in): a folder or file others could read is
 * narrowed to its owner's bits, which keeps everything under it out of their reach too. One
 * others could have written is refused, since Link cannot tell what they put there. A Home the
 * person picked (--files) is theirs and left as it is. Returns what it narrowed.
 */
export async function secureAgentFolders(paths: LinkPaths, agent: AgentSettings): Promise<string[]> {
  const layout = layoutOf(paths, agent);
  const owned = [
    paths.lnk,
    paths.agentsState,
    paths.agentState(agent.id),
    paths.settingsToml(agent.id),
    paths.link,
    paths.agentFolders,
    layout.root,
    ...(agent.home ? [] : [layout.home]),
    layout.agent,
    ...COLLECTIONS.map((c) => layout.collection(c)),
    layout.config,
    layout.specToml,
    layout.sandboxToml,
  ];
  const writable: string[] = [];
  const narrowed: string[] = [];
  for (const path of owned) {
    const mode = await modeOf(path);
    if (mode === undefined) continue;
    if (mode & 0o022) writable.push(path);
    else if (mode & 0o077) {
      await Deno.chmod(path, mode & 0o700);
      narrowed.push(path);
    }
  }
  if (writable.length) throw openToOthers(agent, writable, [paths.lnk, layout.root]);
  return narrowed;
}

function openToOthers(agent: AgentSettings, writable: string[], roots: string[]): LinkError {
  const more = writable.length > 1 ? ` (and ${writable.length - 1} more)` : "";
  return new LinkError(
    "REFUSED",
    `Cannot start agent "${agent.name}": other users could have written "${writable[0]}"${more}`,
    {
      hint: "Check that nothing in them was put there by someone else, make them yours alone with " +
        `\`chmod -R go-rwx ${roots.map((r) => `"${r}"`).join(" ")}\`, then start the agent again`,
    },
  );
}

async function modeOf(path: string): Promise<number | undefined> {
  try {
    const mode = (await Deno.stat(path)).mode;
    return mode === null ? undefined : mode & 0o7777;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}
