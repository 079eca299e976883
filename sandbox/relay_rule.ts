import { LinkError } from "../core/base/mod.ts";

/**
 * One relay across the sandbox's edge (SBX-7). "tcp-to-unix": a program inside connects to
 * 127.0.0.1:<port> and reaches the unix socket (the proxy outside, a port of this machine).
 * "unix-to-tcp": the outside connects to the unix socket and reaches 127.0.0.1:<port> inside
 * (the harness's endpoint).
 */
export type RelayRule =
  | { readonly kind: "tcp-to-unix"; readonly port: number; readonly socket: string }
  | { readonly kind: "unix-to-tcp"; readonly socket: string; readonly port: number };

/** The relay role's flags for these rules: `--tcp <port>=<socket>`, `--unix <socket>=<port>`. */
export function relayArgs(rules: readonly RelayRule[]): string[] {
  return rules.flatMap((r) =>
    r.kind === "tcp-to-unix" ? ["--tcp", `${r.port}=${r.socket}`] : ["--unix", `${r.socket}=${r.port}`]
  );
}

/** Reads the relay role's flags back into rules. */
export function parseRelayArgs(args: readonly string[]): RelayRule[] {
  const rules: RelayRule[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i];
    const value = args[i + 1] ?? "";
    if (flag === "--tcp") {
      const [port, socket] = splitOnce(value);
      rules.push({ kind: "tcp-to-unix", port: parsePort(port, value), socket: checkSocket(socket, value) });
    } else if (flag === "--unix") {
      const at = value.lastIndexOf("=");
      rules.push({
        kind: "unix-to-tcp",
        socket: checkSocket(value.slice(0, Math.max(0, at)), value),
        port: parsePort(value.slice(at + 1), value),
      });
    } else {
      throw usage(`unknown flag "${flag}"`);
    }
  }
  return rules;
}

/** Unix socket paths are limited to 107 bytes on Linux. */
export const MAX_SOCKET_PATH = 107;

function checkSocket(path: string, value: string): string {
  if (!path.startsWith("/")) throw usage(`"${value}" names no absolute socket path`);
  if (new TextEncoder().encode(path).length > MAX_SOCKET_PATH) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      `Cannot relay through "${path}": the socket path is too long`,
      {
        hint: `Keep the path under ${MAX_SOCKET_PATH} bytes (use a shorter HOME)`,
      },
    );
  }
  return path;
}

function splitOnce(value: string): [string, string] {
  const at = value.indexOf("=");
  return at < 0 ? [value, ""] : [value.slice(0, at), value.slice(at + 1)];
}

function parsePort(text: string, value: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw usage(`"${value}" names no port`);
  return port;
}

function usage(what: string): LinkError {
  return new LinkError("USAGE", `Cannot start the relay: ${what}`, {
    hint: "Usage: lnk sandbox relay [--tcp <port>=<socket>]... [--unix <socket>=<port>]... [-- <command>]",
  });
}
