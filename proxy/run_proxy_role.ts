import { parseArgs } from "node:util";
import { z } from "zod";
import { announceReady, LinkError, logger, raiseFdLimit, Secret } from "../core/base/mod.ts";
import { ProxyKeyInput } from "./proxy_key.ts";
import { ProxyPolicy } from "./proxy_policy.ts";
import { serveProxy } from "./serve_proxy.ts";

const log = logger("proxy");

/**
 * What `lnk proxy serve` reads as one JSON line on stdin, so neither the secret nor the keys
 * ever appear in a command line: where to listen (a unix socket, or a port of 127.0.0.1), the
 * port callers name in Host, the secret of this start, the policy and the keys.
 */
export const ProxyRoleInput = z.strictObject({
  socket: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  hostPort: z.number().int().min(1).max(65535).optional(),
  secret: z.string().min(16).regex(/^[A-Za-z0-9._~-]+$/, "must be URL-safe"),
  policy: ProxyPolicy.prefault({}),
  keys: z.array(ProxyKeyInput).default([]),
}).refine((input) => (input.socket === undefined) !== (input.port === undefined), {
  message: 'give exactly one of "socket" and "port"',
});
export type ProxyRoleInput = z.input<typeof ProxyRoleInput>;

/**
 * The `lnk proxy serve [--agent <id>]` role: reads its options from a JSON line on stdin,
 * serves the proxy, prints the ready line (`{"socket":…}` or `{"port":…}`), and runs until
 * `signal` aborts; returns the exit code.
 */
export async function runProxyRole(args: readonly string[], signal: AbortSignal): Promise<number> {
  log.debug("Descriptor limit", { ...raiseFdLimit() });
  let agent: string | undefined;
  try {
    agent = parseArgs({ args: [...args], options: { agent: { type: "string" } }, strict: true }).values.agent;
  } catch (err) {
    throw new LinkError("USAGE", `Cannot start the proxy: ${(err as Error).message}`, {
      hint: "Run `lnk proxy serve [--agent <id>]` with its options as one JSON line on stdin",
    });
  }
  const parsed = ProxyRoleInput.safeParse(await readJsonLine(Deno.stdin.readable));
  if (!parsed.success) {
    throw new LinkError("CONFIG_INVALID", "Cannot start the proxy: the options on stdin are not valid", {
      hint: `Fix these options:\n${z.prettifyError(parsed.error)}`,
    });
  }
  const input = parsed.data;
  await using server = await serveProxy({
    secret: new Secret(input.secret),
    policy: input.policy,
    keys: input.keys,
    path: input.socket,
    port: input.port,
    hostPort: input.hostPort,
    signal,
  });
  log.info("Proxy role ready", { agent, hosts: input.policy.hosts.length, keys: input.keys.length });
  announceReady(input.socket !== undefined ? { socket: input.socket } : { port: server.port });
  await server.finished;
  return 0;
}

/** Reads the first line of a stream as JSON; throws CONFIG_INVALID when there is none. */
async function readJsonLine(stream: ReadableStream<Uint8Array>): Promise<unknown> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      if (text.length > 1024 * 1024) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const line = text.split("\n")[0]!.trim();
  try {
    return JSON.parse(line);
  } catch (err) {
    throw new LinkError("CONFIG_INVALID", "Cannot start the proxy: stdin holds no line of JSON", {
      hint: "Write the options as one JSON line on the role's stdin",
      cause: err,
    });
  }
}
