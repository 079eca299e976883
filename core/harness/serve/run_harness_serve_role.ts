import { announceReady, homeFrom, LinkError, LinkPaths, logger, readStdinLine } from "../../base/mod.ts";
import { openHarnessEndpoint } from "./harness_endpoint.ts";
import type { LoadedAgent } from "./load_served_agent.ts";
import { invalidInput, servedHeads } from "./served_heads.ts";

const log = logger("harness");

/**
 * `lnk harness serve --socket <path>`: Link Harness, the role inside the agent's sandbox. It reads
 * its agents and their keys from stdin (HarnessServeInput), listens on the socket and says it is
 * ready at once, answering proofs while it loads its agents (PRC-13), then serves them until
 * stopped. An agent that cannot be loaded ends it, every request waiting answered with why.
 */
export async function runHarnessServeRole(args: string[], signal: AbortSignal): Promise<number> {
  const started = performance.now();
  // Read by hand rather than with node:util's parseArgs: the first node: import costs a woken
  // harness some 15 ms (PRC-13).
  const at = args.findIndex((a) => a === "--socket" || a.startsWith("--socket="));
  const socket = at < 0 ? undefined : args[at]!.startsWith("--socket=") ? args[at]!.slice(9) : args[at + 1];
  if (typeof socket !== "string" || !socket) {
    throw new LinkError("USAGE", "Cannot start Link Harness: it needs --socket <path>", {
      hint: "Link Harness is started by `lnk agent start`",
    });
  }
  const line = await readStdinLine();
  const heads = servedHeads(line);
  const endpoint = await openHarnessEndpoint({ socket, agents: heads, signal });
  // Ready first: the process's first log line costs milliseconds the bridge need not wait for.
  announceReady({ socket, pid: Deno.pid });
  log.info("Link Harness listening", { agents: heads.map((h) => h.id), pid: Deno.pid });
  const loaded: LoadedAgent[] = [];
  try {
    try {
      loaded.push(...await loadAgents(line));
      await endpoint.serve(loaded);
    } catch (err) {
      endpoint.fail(err);
      throw err;
    }
    log.info("Link Harness serving", {
      agents: heads.map((h) => h.id),
      ms: Math.round(performance.now() - started),
    });
    await endpoint.finished;
  } finally {
    await endpoint[Symbol.asyncDispose]();
    for (const l of loaded) {
      await l.runner?.[Symbol.asyncDispose]();
      await l.store[Symbol.asyncDispose]();
    }
  }
  return 0;
}

/**
 * Validates the whole input line against its schema (the spec's and grants' with it) and loads
 * each agent: its modules load here, after the endpoint listens.
 */
async function loadAgents(line: string): Promise<LoadedAgent[]> {
  const [{ HarnessServeInput }, { loadServedAgent }] = await Promise.all([
    import("./harness_input.ts"),
    import("./load_served_agent.ts"),
  ]);
  const parsed = HarnessServeInput.safeParse(JSON.parse(line));
  if (!parsed.success) throw invalidInput(parsed.error.message);
  const paths = new LinkPaths(homeFrom(Deno.env));
  return await Promise.all(parsed.data.agents.map((a) => loadServedAgent(a, { paths, env: Deno.env })));
}
