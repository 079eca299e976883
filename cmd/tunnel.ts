import { LinkError } from "../core/base/mod.ts";
import type { Command, Group } from "./command.ts";
import { contextOf } from "./context.ts";
import { parseFlags } from "./flags.ts";

const open: Command = {
  summary: "Make the agent's webhooks public through a tunnel to a host you name, until you stop it",
  usage:
    "lnk tunnel open --public --via ssh|cloudflared [<user@host>] [--remote-port <n>] [--ssh-option <opt>]... [--agent <name>] [--json]",
  examples: [
    "lnk tunnel open --public --via ssh you@example.com",
    "lnk tunnel open --public --via ssh you@example.com --remote-port 8443",
    "lnk tunnel open --public --via cloudflared",
  ],
  details:
    "Webhooks listen on 127.0.0.1 only; this is the one way to make them public, and nothing opens it for\n" +
    "you. --via ssh runs `ssh -N -R <remote port>:127.0.0.1:<webhook port> <user@host>`: the host's port\n" +
    "(the webhook port's number unless --remote-port says, 0 for one the host picks) forwards to the\n" +
    "agent's webhooks, public when the host's sshd has `GatewayPorts yes`. --ssh-option passes `-o <opt>`\n" +
    "to ssh. --via cloudflared runs a quick tunnel, where cloudflared is installed. Prints the public\n" +
    "address once open (with --json, one object), then runs until Ctrl-C.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      {
        string: ["agent", "via", "remote-port"],
        multiple: ["ssh-option"],
        boolean: ["json", "public"],
        positionals: 1,
      },
      this.usage,
    );
    const via = flags.string("via");
    if (!flags.bool("public") || (via !== "ssh" && via !== "cloudflared")) {
      throw new LinkError("USAGE", "Cannot open a tunnel: say --public and --via ssh or --via cloudflared", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const remote = flags.string("remote-port");
    if (remote !== undefined && !/^\d{1,5}$/.test(remote) || Number(remote) > 65535) {
      throw new LinkError("USAGE", `Cannot open a tunnel on port "${remote}": it is a number up to 65535`, {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../core/agent/mod.ts");
    const { openTunnel } = await import("../core/webhooks/mod.ts");
    const agent = await resolveAgent(await contextOf(io), flags.string("agent"));
    const json = flags.bool("json");
    await openTunnel(agent, {
      via,
      target: flags.positionals[0],
      ...(remote === undefined ? {} : { remotePort: Number(remote) }),
      sshOptions: flags.list("ssh-option"),
      path: io.env.get("PATH"),
      signal: io.signal,
      onOpen({ url, local }) {
        const hooks = Object.fromEntries(
          Object.keys(agent.webhooks?.hooks ?? {}).map((h) => [h, `${url}/${h}`]),
        );
        if (json) io.print({ agent: agent.name, via, url, local, webhooks: hooks });
        else {
          io.print(
            `Tunnel open: ${url} forwards to 127.0.0.1:${local}, the webhooks of agent "${agent.name}"\n` +
              Object.entries(hooks).map(([h, u]) => `  ${h}: ${u}\n`).join("") + "Press Ctrl-C to close it.",
          );
        }
      },
    });
  },
};

/** `lnk tunnel ...`: public tunnels to this machine's webhooks (WHK-8). */
export const tunnel: Group = {
  summary: "Open a public tunnel to an agent's webhooks, through ssh or cloudflared",
  commands: { open },
};
