import { announceReady, logger, parseDuration, raiseFdLimit } from "../base/mod.ts";
import { agentContext } from "../agent/mod.ts";
import { LINGER_MS } from "../base/mod.ts";
import { serveBridgesControl } from "./serve_bridges_control.ts";
import { SharedBridge } from "./shared_bridge.ts";
import { sharedBridgeSocketPath } from "../agent/sharing/mod.ts";
import { warmHarnessCode } from "../agent/launch/mod.ts";

const log = logger("bridges");

/**
 * `lnk agent bridges`: one bridge for every agent of this user on the machine (`shared_bridge =
 * true`, PRC-6), a service of its own (PRC-16). It carries the agents on its list, each with its
 * own door, store bridge, way in and key, runs one scheduler runner a time zone, and ends 20 s
 * after its last agent (PRC-15). It says it is ready once its control socket listens and the
 * agents on its list are carried.
 *
 * `LNK_BRIDGES_LINGER` (a duration) shortens the linger; only tests set it.
 */
export async function runBridgesRole(_args: string[], signal: AbortSignal): Promise<number> {
  log.debug("Descriptor limit", { ...raiseFdLimit() });
  const ctx = agentContext(Deno.env);
  const linger = Deno.env.get("LNK_BRIDGES_LINGER");
  const lingerMs = linger ? parseDuration(linger) : LINGER_MS;
  const opening = Promise.withResolvers<SharedBridge>();
  opening.promise.catch(() => {});
  // The socket first, so a start meanwhile finds it and waits, rather than starting another.
  const control = await serveBridgesControl(opening.promise, ctx.paths);
  let bridge: SharedBridge | undefined;
  try {
    bridge = await SharedBridge.open({ ctx, lingerMs }).catch((err) => {
      opening.reject(err);
      throw err;
    });
    opening.resolve(bridge);
    const carried = bridge.snapshot().agents.map((a) => a.id);
    log.info("Shared bridge open", { agents: carried, linger_ms: lingerMs });
    announceReady({ socket: sharedBridgeSocketPath(ctx.paths), agents: carried.length });
    warmHarnessCode(Deno.env.toObject());
    const why = await Promise.race([
      bridge.ended.then(() => "linger" as const),
      bridge.broken,
      new Promise<"stopped">((resolve) => {
        if (signal.aborted) resolve("stopped");
        signal.addEventListener("abort", () => resolve("stopped"), { once: true });
      }),
    ]);
    log.info(why === "linger" ? "Shared bridge ended after its linger" : "Shared bridge stopped");
    return 0;
  } finally {
    // The socket first: a start from now on finds none and starts another bridge.
    await control[Symbol.asyncDispose]();
    await bridge?.[Symbol.asyncDispose]();
  }
}
