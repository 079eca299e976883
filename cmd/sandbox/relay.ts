import { runRelayRole } from "../../sandbox/mod.ts";
import type { Command } from "../command.ts";

export const relay: Command = {
  summary: "Relay ports across a sandbox's edge, then run a command (runs inside the sandbox)",
  usage: "lnk sandbox relay [--tcp <port>=<socket>]... [--unix <socket>=<port>]... [-- <command> [<arg>...]]",
  examples: [
    "lnk sandbox relay --tcp 3128=/home/me/.lnk/agents/.net/abc123/proxy.sock -- lnk harness serve",
  ],
  details:
    "--tcp listens on 127.0.0.1:<port> and joins each connection to the unix socket; --unix listens\n" +
    "on the socket and joins each connection to 127.0.0.1:<port>. Link starts it inside the sandbox.",
  hidden: true,
  async run(argv, io) {
    return await runRelayRole(argv, io.signal);
  },
};
