import { join } from "node:path";
import { LinkError, logger } from "../../base/mod.ts";
import { LAUNCH_KEPT, passedEnv } from "../harness_env.ts";
import { writeLiveMark } from "../live_mark.ts";
import { configureOpenClaw, LIVE_FILE, NO_KEY, TOKEN_FILE } from "./openclaw_config.ts";
import { installBin, installPath, OPENCLAW_ENV } from "./openclaw_install.ts";
import { parseLaunchArgs } from "../shipped_adapter.ts";

const log = logger("openclaw");

/** How long the gateway may take to answer its health check. */
const GATEWAY_START_MS = 120_000;
/** How long the gateway is given to stop once `openclaw acp` has ended. */
const GATEWAY_STOP_MS = 10_000;

/**
 * `lnk harness launch openclaw --install <folder> --port <n> [--allow <risk>]...`: OpenClaw's endpoint
 * inside the agent's sandbox, run by the hub as its stdio ACP command. `openclaw acp` talks to
 * OpenClaw's gateway, so this brings the gateway up first, in the same sandbox on the agent's port
 * (its stdout and stderr to the agent's log, never to the ACP stream), waits for its health, then
 * runs `openclaw acp` on this process's stdio with the gateway's token from a file (never argv),
 * and stops the gateway when it ends. Link's install step has run;
 * the model's address is known only here, so it configures OpenClaw first, from the model the hub hands it: idempotent, writing nothing when the hash matches.
 */
export async function runOpenClawLaunchRole(args: string[], signal: AbortSignal): Promise<number> {
  const launch = parseLaunchArgs(args, "openclaw", "OpenClaw");
  const home = Deno.env.get("HOME");
  if (!home) {
    throw new LinkError("CONFIG_INVALID", "lnk harness launch openclaw needs HOME, the harness home");
  }
  const baseUrl = Deno.env.get("OPENAI_BASE_URL");
  const model = Deno.env.get("OPENAI_MODEL");
  if (!baseUrl || !model) {
    throw new LinkError("CONFIG_INVALID", "OpenClaw has no model: the hub handed it no OPENAI_BASE_URL", {
      hint:
        "Give the agent a model: `lnk agent create <name> --harness openclaw --model-url <url> --model <m>`",
    });
  }
  // The key as the hub hands it: Link's placeholder while the proxy adds the real one (SBX-17).
  const key = Deno.env.get("OPENAI_API_KEY") ?? NO_KEY;
  const configured = await configureOpenClaw({
    install: launch.install,
    home,
    port: launch.port,
    model: { baseUrl, model },
    key,
    allowed: launch.allowed,
  });
  if (configured.changed) log.info("Configured OpenClaw", { wrote: configured.wrote });
  const openclaw = join(installBin(launch.install), "openclaw");
  const env: Record<string, string> = {
    HOME: home,
    PATH: installPath(launch.install),
    ...OPENCLAW_ENV,
    // The config holds the same key: the proxy replaces the placeholder with the real one (SBX-17).
    OPENAI_API_KEY: key,
  };
  Object.assign(env, passedEnv(Deno.env, LAUNCH_KEPT));
  const gateway = new Deno.Command(openclaw, {
    args: ["gateway", "--port", String(launch.port)],
    cwd: home,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  // The gateway's stdout goes to the agent's log: this process's stdout is the ACP stream.
  void gateway.stdout.pipeTo(Deno.stderr.writable, { preventClose: true }).catch(() => {});
  let acp: Deno.ChildProcess | undefined;
  const stop = () => {
    for (const child of [acp, gateway]) {
      try {
        child?.kill("SIGTERM");
      } catch { /* it ended */ }
    }
  };
  signal.addEventListener("abort", stop, { once: true });
  try {
    await waitHealthy(launch.port, gateway.status, signal);
    // What `health` reads from outside the sandbox, where the gateway's port is not this one's.
    await writeLiveMark(join(home, LIVE_FILE), launch.port);
    acp = new Deno.Command(openclaw, {
      args: [
        "acp",
        "--url",
        `ws://127.0.0.1:${launch.port}`,
        "--token-file",
        join(home, TOKEN_FILE),
        "--no-prefix-cwd",
      ],
      env,
      clearEnv: true,
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const status = await acp.status;
    return status.code;
  } finally {
    signal.removeEventListener("abort", stop);
    await Deno.remove(join(home, LIVE_FILE)).catch(() => {});
    stop();
    const timer = setTimeout(() => {
      try {
        gateway.kill("SIGKILL");
      } catch { /* it ended */ }
    }, GATEWAY_STOP_MS);
    await gateway.status;
    clearTimeout(timer);
  }
}

/** Waits for the gateway's health; fails when it exits first or takes too long. */
async function waitHealthy(
  port: number,
  exited: Promise<Deno.CommandStatus>,
  signal: AbortSignal,
): Promise<void> {
  let ended: Deno.CommandStatus | undefined;
  void exited.then((status) => (ended = status));
  const deadline = Date.now() + GATEWAY_START_MS;
  while (!(await gatewayHealth(port)).ok) {
    if (ended) {
      throw new LinkError(
        "SERVICE_FAILED",
        `OpenClaw's gateway exited (code ${ended.code}) before it was healthy`,
        {
          hint: "Run `lnk agent logs` to see what it said",
        },
      );
    }
    if (signal.aborted) throw new LinkError("SERVICE_FAILED", "OpenClaw's launcher was stopped");
    if (Date.now() > deadline) {
      throw new LinkError("TIMEOUT", `OpenClaw's gateway was not healthy on port ${port} within 2 minutes`, {
        hint: "Run `lnk agent logs` to see what it said",
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Asks the gateway's `/healthz` on the loopback over plain HTTP (no proxy, whatever the variables
 * say): `{ok, detail}` as `health` answers it.
 */
export async function gatewayHealth(port: number): Promise<{ ok: boolean; detail: string }> {
  let conn: Deno.TcpConn | undefined;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(`GET /healthz HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
    const chunks: Uint8Array[] = [];
    const buf = new Uint8Array(4096);
    for (let total = 0; total < 65536;) {
      const n = await conn.read(buf);
      if (n === null) break;
      chunks.push(buf.slice(0, n));
      total += n;
    }
    const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
    // The gateway's own answer, not another server's on the port (the bridge's door, outside).
    const body = text.slice(text.indexOf("\r\n\r\n") + 4);
    const ok = /^HTTP\/1\.[01] 200/.test(text) && /"status"\s*:\s*"live"/.test(body);
    return { ok, detail: ok ? `gateway live on port ${port}` : text.split("\r\n")[0] ?? "no answer" };
  } catch (err) {
    return {
      ok: false,
      detail: `nothing answers on port ${port}: ${err instanceof Error ? err.message : err}`,
    };
  } finally {
    try {
      conn?.close();
    } catch { /* closed */ }
  }
}
