import { join } from "node:path";
import { announceReady, decodeKey, LinkError, readStdinLine } from "../base/mod.ts";
import { serveEndpoint } from "../../connections/mod.ts";
import { Hub, hubCommand, HubInput } from "../adapters/hub/mod.ts";

/**
 * `lnk harness hub --socket <path>`: the hub inside the agent's sandbox (ARCHITECTURE.md section
 * 6). It reads its input from stdin, serves the agent's endpoint on the socket, and starts the
 * stdio ACP program at the first message; it keeps the thread-to-session map in the harness's home
 * (its HOME inside; the folder its input names when it runs unsandboxed), so a thread keeps its
 * conversation across restarts.
 */
export async function runHarnessHubRole(args: string[], signal: AbortSignal): Promise<number> {
  const at = args.indexOf("--socket");
  const socket = at >= 0 ? args[at + 1] : undefined;
  if (!socket) throw new LinkError("USAGE", "lnk harness hub needs --socket <path>");
  const input = HubInput.parse(JSON.parse(await readStdinLine()));
  const entry = input.agents[0]!;
  const home = Deno.env.get("HOME");
  const state = entry.state ?? (home ? join(home, ".lnk") : undefined);
  if (state) await Deno.mkdir(state, { recursive: true, mode: 0o700 });
  await using hub = new Hub({
    agent: { id: entry.id, name: entry.name, key: decodeKey(entry.key) },
    command: hubCommand(entry, home ?? "/"),
    sessionsFile: state && join(state, "hub_sessions.json"),
  });
  const server = await serveEndpoint({ path: socket, signal }, hub.handler);
  announceReady({ socket });
  await server.finished;
  return 0;
}
