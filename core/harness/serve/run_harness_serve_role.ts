import { parseArgs } from "node:util";
import { announceReady, homeFrom, LinkError, LinkPaths, logger } from "../../base/mod.ts";
import { readStdinLine } from "../../adapters/mod.ts";
import { HarnessServeInput } from "./harness_input.ts";
import { loadServedAgent } from "./load_served_agent.ts";
import { serveHarness } from "./serve_harness.ts";

const log = logger("harness");

/**
 * `lnk harness serve --socket <path>`: Link Harness, the role inside the agent's sandbox. It reads
 * its agents and their keys from stdin (HarnessServeInput), serves its endpoint on the socket,
 * says it is ready, and runs until stopped.
 */
export async function runHarnessServeRole(args: string[], signal: AbortSignal): Promise<number> {
  const { values } = parseArgs({ args, options: { socket: { type: "string" } }, strict: false });
  const socket = values.socket;
  if (typeof socket !== "string" || !socket) {
    throw new LinkError("USAGE", "Cannot start Link Harness: it needs --socket <path>", {
      hint: "Link Harness is started by `lnk agent start`",
    });
  }
  const input = HarnessServeInput.parse(JSON.parse(await readStdinLine()));
  const paths = new LinkPaths(homeFrom(Deno.env));
  const loaded = await Promise.all(input.agents.map((a) => loadServedAgent(a, { paths, env: Deno.env })));
  try {
    await using server = await serveHarness({ agents: loaded, socket, signal });
    log.info("Link Harness serving", { agents: loaded.map((l) => l.agent.id), pid: Deno.pid });
    announceReady({ socket, pid: Deno.pid });
    await server.finished;
  } finally {
    for (const l of loaded) {
      await l.runner?.[Symbol.asyncDispose]();
      await l.store[Symbol.asyncDispose]();
    }
  }
  return 0;
}
