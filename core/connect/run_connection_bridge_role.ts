import { parseArgs } from "node:util";
import { announceReady, homeFrom, LinkError, LinkPaths, setLogFields } from "../base/mod.ts";
import { loadSettings, readKey, roleAgentId } from "../agent/mod.ts";
import { carryConnection } from "./carry_connections.ts";

/**
 * `lnk connection bridge --agent <id> --connection <name>`: one connection of one agent, carried in
 * a process of its own that the agent's bridge starts and stops (CON-11), so a platform's client
 * loads in no other process and a failing one takes nothing else down. Ready once it carries.
 */
export async function runConnectionBridgeRole(args: string[], signal: AbortSignal): Promise<number> {
  const id = roleAgentId(args);
  const { values } = parseArgs({ args, options: { connection: { type: "string" } }, strict: false });
  const name = values.connection;
  if (typeof name !== "string" || !name) {
    throw new LinkError("USAGE", "Cannot start the connection's bridge: it needs --connection <name>", {
      hint: "It is started by the agent's bridge",
    });
  }
  // Every line it writes names its agent and connection: `lnk agent logs --connection <name>`.
  setLogFields({ agent: id, connection: name });
  const paths = new LinkPaths(homeFrom(Deno.env));
  const agent = await loadSettings(paths, id);
  const key = await readKey(paths, id);
  if (!key) {
    throw new LinkError(
      "AGENT_NOT_RUNNING",
      `Cannot carry ${name} for agent "${agent.name}": it has no key bound`,
      {
        hint: "Start it with `lnk agent start`",
      },
    );
  }
  announceReady({ connection: name });
  await carryConnection({ paths, agent, key, signal }, name);
  return 0;
}
