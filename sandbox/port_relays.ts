import { join } from "node:path";
import type { RelayRule } from "./relay_rule.ts";
import { serveRelay } from "./relay.ts";

/** The relays inside a sandbox for ports of this machine's loopback: 127.0.0.1:<port> to `<netDir>/port-<port>.sock`. */
export function portRelayRules(netDir: string, ports: readonly number[]): RelayRule[] {
  return ports.map((port) => ({ kind: "tcp-to-unix", port, socket: join(netDir, `port-${port}.sock`) }));
}

/**
 * Relays ports of this machine's loopback into a sandbox ([localhost] ports, GRT-14; a model
 * served here): the outside half, each `<netDir>/port-<port>.sock` to 127.0.0.1:<port>, until disposed.
 */
export async function relayPortsIn(
  netDir: string,
  ports: readonly number[],
  options: { signal?: AbortSignal } = {},
): Promise<AsyncDisposable> {
  await using stack = new AsyncDisposableStack();
  for (const port of ports) {
    stack.use(
      await serveRelay({ kind: "unix-to-tcp", socket: join(netDir, `port-${port}.sock`), port }, options),
    );
  }
  const owned = stack.move();
  return { [Symbol.asyncDispose]: () => owned.disposeAsync() };
}
