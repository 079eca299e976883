import { LinkError } from "../../../core/base/mod.ts";
import { KNOWN } from "../../../core/adapters/mod.ts";
import { type AgentContext, readKey, resolveAgent } from "../../../core/agent/mod.ts";
import { type AskCaller, type EndpointAddress } from "../../../connections/mod.ts";
import { heldDir } from "../../../connections/link/mod.ts";

/** Where a chat goes: the agent's door, who calls, and the thread's held answers. */
export interface ChatTarget {
  name: string;
  address: EndpointAddress;
  caller: AskCaller;
  heldDir: string;
}

/**
 * The agent a chat talks to, reached as its bridges reach it (LOC-2): its door on the loopback,
 * its key from the keyring outside the sandbox. A harness without an endpoint is refused, saying
 * so, rather than reached another way (LOC-3).
 */
export async function chatTarget(ctx: AgentContext, name: string | undefined): Promise<ChatTarget> {
  const agent = await resolveAgent(ctx, name);
  // A harness Link knows by name says here; any other's adapter says (ADP-7).
  const endpoint = KNOWN[agent.harness]?.endpoint ??
    await (await import("../../../core/agent/launch/mod.ts")).adapterHasEndpoint(ctx, agent);
  if (!endpoint) {
    throw new LinkError(
      "UNSUPPORTED",
      `Cannot chat with agent "${agent.name}": its harness "${agent.harness}" speaks its own connections and has no endpoint to send to`,
      {
        hint: "Talk to it on one of its connections, or make an agent on Link Harness with " +
          "`lnk agent create <name> --harness link` and chat with that one",
      },
    );
  }
  const key = await readKey(ctx.paths, agent.id);
  if (!key) {
    const flag = agent.name === "main" ? "" : ` --agent ${agent.name}`;
    throw new LinkError("AGENT_NOT_RUNNING", `Cannot chat with agent "${agent.name}": it is not running`, {
      hint: `Start it with \`lnk agent start${flag}\``,
    });
  }
  return {
    name: agent.name,
    address: { port: agent.ports.endpoint },
    caller: { agentId: agent.id, agentName: agent.name, key },
    heldDir: heldDir(ctx.paths, agent.id),
  };
}
