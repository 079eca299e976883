import { LinkError, type LinkPaths } from "../base/mod.ts";
import { layoutOf, loadSettings, readKey, sendSocketPath } from "../agent/mod.ts";
import { sendOnWayIn } from "../../connections/link/mod.ts";
import { openEndpoint } from "../../connections/mod.ts";
import { promptAgent } from "../../connections/chat/mod.ts";
import type { FiringDriver } from "./firing_driver.ts";

/**
 * The runner's driver: a firing reaches the agent through its door (the port its bridge holds,
 * which wakes it when asleep), proved with the agent's key from the keyring and carrying
 * `Link-From` and `Link-Hops` (SCH-1, SCH-6); its answer goes out through the agent's way in.
 * `wayInOf` names an agent's way-in socket as the runner's file lists it.
 */
export function doorDriver(paths: LinkPaths, wayInOf: (agentId: string) => string | undefined): FiringDriver {
  const keyOf = async (agentId: string, name: string) => {
    const key = await readKey(paths, agentId);
    if (key) return key;
    throw new LinkError("AGENT_NOT_RUNNING", `Cannot reach agent "${name}": it is not running`, {
      hint: `Start it with \`lnk agent start --agent ${name}\``,
    });
  };
  return {
    async ask(job, request) {
      const settings = await loadSettings(paths, job.to);
      const key = await keyOf(job.to, settings.name);
      await using endpoint = await openEndpoint({ port: settings.ports.endpoint }, {
        agentId: job.to,
        agentName: settings.name,
        key,
        from: job.from,
        hops: job.hops,
      });
      return await promptAgent(endpoint, {
        thread: job.thread,
        request,
        text: job.text,
        tools: job.tools,
        onText: () => {},
        // A turn joined whose answer is not kept yet is asked again, never recorded as "".
        unanswered: "fail",
        // A failed turn is kept as this request's answer: the runner asks again as a new message.
        failed: "throw",
      });
    },
    async send(agentId, call) {
      const settings = await loadSettings(paths, agentId);
      const key = await keyOf(agentId, settings.name);
      const socket = wayInOf(agentId) ?? sendSocketPath(paths, agentId);
      await sendOnWayIn(socket, { agentId, owner: settings.owner, key }, call);
    },
    async scheduleOf(agentId) {
      return layoutOf(paths, await loadSettings(paths, agentId)).collection("schedule");
    },
  };
}
