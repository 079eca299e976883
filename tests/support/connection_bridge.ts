import assert from "node:assert/strict";
import { processesNaming } from "./agent_processes.ts";
import { serviceLog, waitForLog } from "./service_log.ts";
import type { TempHome } from "./temp_home.ts";

/**
 * kill -9 of the agent's one connection bridge (`lnk connection bridge`), then `meanwhile` (a
 * message sent while nothing carries it), until the agent's bridge says it ended: its bridge starts
 * it again from there. Returns the killed process's pid.
 */
export async function killConnectionBridge(
  home: TempHome,
  agentId: string,
  meanwhile: () => void = () => {},
): Promise<number> {
  const carrier = (await processesNaming(agentId)).find((p) => p.command.includes("connection bridge"));
  assert.ok(carrier, "no connection bridge runs for the agent");
  const ended = waitForLog(
    serviceLog(home, "bridge", agentId),
    (e) => e.msg?.startsWith("A connection's bridge ended") === true,
  );
  Deno.kill(carrier.pid, "SIGKILL");
  meanwhile();
  await ended;
  return carrier.pid;
}
