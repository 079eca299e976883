import { type LinkPaths, logger } from "../../base/mod.ts";
import { type BridgeHosting, type BridgeServer, serveBridge } from "../../../link_bridge/mod.ts";
import { storeSocketPath } from "../../agent/mod.ts";
import { agentKeyFor, type ServedAgent } from "./served_agent.ts";
import { openStoreDriver, type StoreDriver } from "./store_driver.ts";
import { handleStoreCall } from "./store_bridge_call.ts";

const log = logger("store-bridge");

/** The store bridge's socket name in the agent's `.net/<id>/` folder. */

/** How many store calls the bridge holds at once; one more is answered `busy` (BRG-11). */
export const STORE_BRIDGE_CAP = 16;

/** Longest store call a harness may send: one event with its tool results, never a whole conversation. */
export const STORE_CALL_MAX_BYTES = 8 * 1024 * 1024;

/** Options for serveStoreBridge: whom it serves, where, and the driver it runs. */
export interface ServeStoreBridgeOptions extends ServedAgent, BridgeHosting {
  /** The home whose keyring is checked at each call, and where the socket is by default. */
  paths: LinkPaths;
  /** The agent's driver, run here, outside the sandbox (TRN-14). */
  driver: StoreDriver;
}

/**
 * Serves an agent's store bridge (TRN-14, BRG-16) on `.net/<id>/store.sock` unless told: each
 * proven call is one store operation of the agent's own conversations, answered by its driver,
 * which runs here and whose credentials stay here. The driver is opened at start and closed when
 * the bridge stops; a `serve` driver answers call after call on one process (TRN-16).
 */
export async function serveStoreBridge(options: ServeStoreBridgeOptions): Promise<BridgeServer> {
  const { agent, paths, driver } = options;
  const keyFor = agentKeyFor(options, "store");
  const store = await openStoreDriver(driver, agent, { clock: options.clock });
  let server: BridgeServer;
  try {
    server = await serveBridge({
      path: options.port === undefined ? (options.path ?? storeSocketPath(paths, agent.id)) : undefined,
      port: options.port,
      clock: options.clock,
      placesPerUser: options.placesPerUser,
      placesPerBridge: options.placesPerBridge,
      checkKeyring: paths,
      signal: options.signal,
      name: "store",
      cap: STORE_BRIDGE_CAP,
      maxBodyBytes: STORE_CALL_MAX_BYTES,
      keyFor,
      handle: (call, conn) => handleStoreCall(store, call, conn),
    });
  } catch (err) {
    await store[Symbol.asyncDispose]();
    throw err;
  }
  log.debug("Store bridge open", { agent: agent.id, driver: driver.kind });
  return closingStore(server, store, options.signal);
}

/** The server, closing the driver after the last call ends. */
function closingStore(server: BridgeServer, store: AsyncDisposable, signal?: AbortSignal): BridgeServer {
  let closing: Promise<void> | undefined;
  const close = () =>
    closing ??= (async () => {
      await server.close();
      await store[Symbol.asyncDispose]();
    })();
  if (signal?.aborted) void close();
  signal?.addEventListener("abort", () => void close(), { once: true });
  return {
    name: server.name,
    addr: server.addr,
    get calls() {
      return server.calls;
    },
    get unproven() {
      return server.unproven;
    },
    finished: server.finished,
    close,
    [Symbol.asyncDispose]: close,
  };
}
