import { join } from "node:path";
import { type AgentKey, encodeKey, LinkPaths, newAgentKey } from "../../../../core/base/mod.ts";
import type { BridgeServer } from "../../../../link_bridge/mod.ts";
import { bridgeStore, type OpenStore } from "../../../../core/harness/store/mod.ts";
import type { Clock } from "../../../../core/base/mod.ts";
import { serveStoreBridge } from "../../../../core/agent_bridge/mod.ts";
import { type StoreDriver } from "../../../../core/agent_bridge/mod.ts";

/** An agent with a key bound in a temporary home's keyring, and its `.net/<id>/` folder made. */
export interface BoundAgent {
  root: string;
  paths: LinkPaths;
  agent: { id: string; owner: string };
  key: AgentKey;
}

let counter = 0;

/** Makes a temporary home with an agent whose key is bound (BRG-7). */
export async function boundAgent(): Promise<BoundAgent> {
  const root = await Deno.makeTempDir({ prefix: "lnk-bridges-" });
  const paths = new LinkPaths(join(root, "home"));
  const agent = { id: `agent${++counter}x${crypto.randomUUID().slice(0, 8)}`, owner: "local-test-0" };
  const key = newAgentKey();
  await Deno.mkdir(paths.keys, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(paths.keyFile(agent.id), `${encodeKey(key)}\n`, { mode: 0o600 });
  await Deno.mkdir(paths.net(agent.id), { recursive: true, mode: 0o700 });
  await Deno.chmod(paths.net(agent.id), 0o700);
  return { root, paths, agent, key };
}

/** A running store bridge for a bound agent, and bridge stores calling it as the harness does. */
export interface StoreRig extends BoundAgent, AsyncDisposable {
  server: BridgeServer;
  socket: string;
  /** A store over the bridge, as the harness opens it inside its sandbox. */
  open(): OpenStore;
}

/** Starts a store bridge with the driver `driverIn(root)` gives, on the agent's store.sock. */
export async function startStoreRig(
  driverIn: (root: string, agent: BoundAgent) => StoreDriver,
  options: { clock?: Clock } = {},
): Promise<StoreRig> {
  const bound = await boundAgent();
  const server = await serveStoreBridge({
    agent: bound.agent,
    key: bound.key,
    paths: bound.paths,
    driver: driverIn(bound.root, bound),
    clock: options.clock,
  });
  const socket = (server.addr as { path: string }).path;
  return {
    ...bound,
    server,
    socket,
    open: () => bridgeStore({ socket, agentId: bound.agent.id, owner: bound.agent.owner, key: bound.key }),
    async [Symbol.asyncDispose]() {
      await server.close();
      await Deno.remove(bound.root, { recursive: true });
    },
  };
}
