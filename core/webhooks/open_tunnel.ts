import { LinkError, logger, TextLineReader } from "../base/mod.ts";
import type { AgentSettings } from "../agent/mod.ts";
import { WEBHOOK_HOST } from "./listen_for_webhooks.ts";

const log = logger("tunnel");

/** How `lnk tunnel open --public` reaches the public side (WHK-8): a tunnel program Link runs, never its own. */
export interface TunnelOptions {
  via: "ssh" | "cloudflared";
  /** ssh's `user@host` (or `ssh://user@host:port`), the host the person names. */
  target?: string;
  /** The port on that host; the local webhook port's number unless told, 0 for one the host picks. */
  remotePort?: number;
  /** More `-o` options for ssh (an identity file, a port). */
  sshOptions?: readonly string[];
  /** The PATH the tunnel program is found on: the person's, as the command was given it. */
  path?: string;
  /** Told the public address once the tunnel is open. */
  onOpen(open: { url: string; local: number }): void;
  signal: AbortSignal;
}

/**
 * Opens a public tunnel to the agent's webhook listener and keeps it until `signal` aborts (WHK-8):
 * ssh's remote forwarding (`ssh -N -R <remote>:127.0.0.1:<port>`) to a host the person names, or
 * cloudflared's quick tunnel where it is installed. An explicit step: nothing else opens one.
 * Resolves when it closed as asked; throws when the tunnel program failed or ended on its own.
 */
export async function openTunnel(agent: AgentSettings, options: TunnelOptions): Promise<void> {
  const local = agent.webhooks?.port;
  if (local === undefined) {
    throw new LinkError("REFUSED", `Cannot open a tunnel for agent "${agent.name}": it has no webhooks`, {
      hint: "Add one with `lnk agent webhook add <name> --sift github`",
    });
  }
  const { command, args, opened } = options.via === "ssh"
    ? sshTunnel(local, options)
    : cloudflaredTunnel(local);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      ...(options.path === undefined ? {} : { env: { PATH: options.path } }),
    }).spawn();
  } catch (err) {
    throw new LinkError("UNSUPPORTED", `Cannot open a tunnel: ${command} is not installed`, {
      hint: options.via === "ssh" ? "Install OpenSSH's client" : "Install cloudflared, or use --via ssh",
      cause: err,
    });
  }
  const stop = () => {
    try {
      child.kill("SIGTERM");
    } catch { /* it has ended */ }
  };
  options.signal.addEventListener("abort", stop, { once: true });
  const said: string[] = [];
  let open = false;
  try {
    const lines = new TextLineReader(child.stderr);
    for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
      line = line.replace(/\r$/, "");
      if (!line.startsWith("debug")) said.push(line);
      const url = open ? undefined : opened(line);
      if (url === undefined) continue;
      open = true;
      log.info("Tunnel open", { agent: agent.id, via: options.via, url, local });
      options.onOpen({ url, local });
    }
  } finally {
    options.signal.removeEventListener("abort", stop);
  }
  const status = await child.status;
  if (options.signal.aborted) return;
  throw new LinkError(
    "SERVICE_FAILED",
    `Cannot keep the tunnel open: ${command} ended with code ${status.code}`,
    {
      hint: said.length ? `It said: ${said.slice(-3).join(" / ")}` : `Run \`${command}\` by hand to see why`,
    },
  );
}

function sshTunnel(local: number, options: TunnelOptions) {
  const target = options.target;
  if (!target || target.startsWith("-")) {
    throw new LinkError("USAGE", "Cannot open a tunnel through ssh: name the host as user@host", {
      hint: "Run `lnk tunnel open --public --via ssh you@example.com`",
    });
  }
  const host = hostOf(target);
  const remote = options.remotePort ?? local;
  const args = [
    "-N",
    "-v",
    "-o",
    "ExitOnForwardFailure=yes",
    "-o",
    "ServerAliveInterval=30",
    "-o",
    "BatchMode=yes",
    ...(options.sshOptions ?? []).flatMap((o) => ["-o", o]),
    "-R",
    `${remote}:${WEBHOOK_HOST}:${local}`,
    "--",
    target,
  ];
  const opened = (line: string): string | undefined => {
    const allocated = /^Allocated port (\d+) for remote forward/.exec(line)?.[1];
    if (allocated) return `http://${host}:${allocated}`;
    if (remote !== 0 && line.includes(`remote forward success for: listen ${remote}`)) {
      return `http://${host}:${remote}`;
    }
    return undefined;
  };
  return { command: "ssh", args, opened };
}

function cloudflaredTunnel(local: number) {
  const args = ["tunnel", "--no-autoupdate", "--url", `http://${WEBHOOK_HOST}:${local}`];
  const opened = (line: string) => /https:\/\/[a-z0-9-]+\.trycloudflare\.com/.exec(line)?.[0];
  return { command: "cloudflared", args, opened };
}

/** The host of `user@host`, `host`, or `ssh://user@host:port`. */
function hostOf(target: string): string {
  const bare = target.replace(/^ssh:\/\//, "");
  const host = bare.slice(bare.lastIndexOf("@") + 1);
  return target.startsWith("ssh://") ? host.replace(/:\d+$/, "") : host;
}
