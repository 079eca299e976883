import { join } from "node:path";
import {
  announceReady,
  encodeKey,
  homeFrom,
  LinkError,
  LinkPaths,
  logger,
  spawnRole,
} from "../../base/mod.ts";
import { loadAgentConfig } from "../agent_config.ts";
import { storeSocketPath } from "../bridges/mod.ts";
import { readKey } from "../keyring.ts";
import { loadSettings } from "../settings.ts";
import { roleAgentId } from "./role_flags.ts";

const log = logger("agent");

/** The harness role each harness runs as. */
function harnessRole(harness: string, socket: string): string[] {
  if (harness === "link") return ["harness", "serve", "--socket", socket];
  if (harness === "mini") return ["harness", "mini", "--socket", socket];
  throw new LinkError("HARNESS_MISSING", `Cannot run harness "${harness}": its adapter is not wired yet`);
}

/**
 * `lnk agent run --agent <id>`: the agent's service. Starts its harness (in its sandbox once that
 * lands) with the agent's key, says it is ready when the harness is, and ends with it.
 */
export async function runAgentRole(args: string[], signal: AbortSignal): Promise<number> {
  const id = roleAgentId(args);
  const paths = new LinkPaths(homeFrom(Deno.env));
  const settings = await loadSettings(paths, id);
  const key = await readKey(paths, id);
  if (!key) {
    throw new LinkError("AGENT_NOT_RUNNING", `Cannot run agent "${settings.name}": it has no key bound`, {
      hint: "Start it with `lnk agent start`",
    });
  }
  const socket = join(paths.net(id), "endpoint.sock");
  const { spec } = await loadAgentConfig(paths, settings);
  // Link Harness asks the store bridge when a driver outside keeps its conversations (TRN-14).
  const store = settings.harness === "link" && spec.model.store !== "files"
    ? { store: { socket: storeSocketPath(paths, id) } }
    : {};
  const input = JSON.stringify({ agents: [{ id, name: settings.name, key: encodeKey(key), ...store }] });
  const harness = await spawnRole(harnessRole(settings.harness, socket), {
    input: `${input}\n`,
    stderr: "inherit",
  });
  log.info("Agent started", { agent: id, harness: settings.harness, pid: harness.pid });
  announceReady({ socket, harnessPid: harness.pid });
  const stopped = new Promise<"stopped">((resolve) =>
    signal.addEventListener("abort", () => resolve("stopped"), { once: true })
  );
  const outcome = await Promise.race([harness.child.status, stopped]);
  if (outcome === "stopped") {
    await harness.stop();
    log.info("Agent stopped", { agent: id });
    return 0;
  }
  log.error("Harness exited unbidden", { agent: id, code: outcome.code });
  await harness.stop();
  return 1;
}
