import { LinkError } from "../base/mod.ts";
import { type AgentContext, type AgentSettings, updateSettings } from "../agent/mod.ts";
import { whileStopped } from "./while_stopped.ts";

/** Disconnects a connection: its settings and its folder go; a running agent starts again without it. */
export async function disconnect(
  ctx: AgentContext,
  agent: AgentSettings,
  connection: string,
): Promise<AgentSettings> {
  if (!(connection in agent.bots)) {
    throw new LinkError(
      "REFUSED",
      `Cannot disconnect ${connection} from agent "${agent.name}": it is not connected`,
      {
        hint: "See its connections with `lnk agent status`",
      },
    );
  }
  const { agent: next } = await whileStopped(ctx, agent, async () => {
    const next = await updateSettings(ctx.paths, agent.id, (s) => {
      const { [connection]: _gone, ...bots } = s.bots;
      return { ...s, bots };
    });
    await Deno.remove(ctx.paths.connectionDir(agent.id, connection), { recursive: true }).catch(() => {});
    return { agent: next };
  });
  return next;
}
