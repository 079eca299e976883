import { LinkError } from "../../core/base/mod.ts";
import type { Command, Group } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";
import { table } from "../table.ts";

const add: Command = {
  summary: "Add a webhook: a URL on this machine whose posts reach the agent as a stranger's messages",
  usage: "lnk agent webhook add <name> --sift github|secret [--agent <name>] [--json]",
  examples: ["lnk agent webhook add gh --sift github", "lnk agent webhook add ci --sift secret --agent work"],
  details:
    "Prints the hook's URL, http://127.0.0.1:<port>/<name>, and its secret, this once: give the secret to\n" +
    "the sender (GitHub's webhook secret, or the Bearer token of --sift secret). The sift checks each post:\n" +
    "github: X-Hub-Signature-256 and X-GitHub-Delivery; secret: Authorization: Bearer <secret>, the id\n" +
    "from Idempotency-Key or X-Request-Id, else the body's hash. A post reaches the agent quoted, from\n" +
    "webhook:<name>, with only the tools [access] strangers_tools in its spec gives (none unless it says);\n" +
    "the sender gets 202 and nothing of the answer. The URL answers on this machine only: `lnk tunnel open\n" +
    "--public` makes it public. Only Link Harness gets webhooks. A running agent's first webhook starts it\n" +
    "again, so its bridge listens.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "sift"], boolean: ["json"], positionals: 1 },
      this.usage,
    );
    const name = flags.positionals[0];
    const sift = flags.string("sift");
    if (name === undefined || sift === undefined) {
      throw new LinkError("USAGE", "Cannot add a webhook: it needs a name and --sift", {
        hint: `Usage: ${this.usage}`,
      });
    }
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { addWebhook } = await import("../../core/webhooks/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const added = await addWebhook(ctx, agent, name, { sift });
    if (flags.bool("json")) {
      io.print({ agent: agent.name, ...added, secret: added.secret.reveal() });
      return;
    }
    io.print(
      `Added webhook "${name}" to agent "${agent.name}" (sift ${added.sift})\n` +
        `  url:    ${added.url}\n  secret: ${added.secret.reveal()}\n` +
        "The secret is shown this once. The URL answers on this machine only: " +
        "`lnk tunnel open --public` makes it public.",
    );
  },
};

const list: Command = {
  summary: "List the agent's webhooks: their names, sifts and URLs, never their secrets",
  usage: "lnk agent webhook list [--agent <name>] [--json]",
  examples: ["lnk agent webhook list", "lnk agent webhook list --json"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"] }, this.usage);
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { listWebhooks } = await import("../../core/webhooks/mod.ts");
    const agent = await resolveAgent(await contextOf(io), flags.string("agent"));
    const hooks = listWebhooks(agent);
    if (flags.bool("json")) io.print({ agent: agent.name, webhooks: hooks });
    else if (hooks.length === 0) io.print(`Agent "${agent.name}" has no webhooks`);
    else {io.print(
        table(["NAME", "SIFT", "URL", "ADDED"], hooks.map((h) => [h.name, h.sift, h.url, h.created])),
      );}
  },
};

const remove: Command = {
  summary: "Remove a webhook: its posts are refused from now, its secrets go",
  usage: "lnk agent webhook remove <name> [--agent <name>] [--json]",
  examples: ["lnk agent webhook remove gh"],
  async run(argv, io) {
    const flags = parseFlags(argv, { string: ["agent"], boolean: ["json"], positionals: 1 }, this.usage);
    const name = named(flags.positionals[0], "remove", this.usage);
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { removeWebhook } = await import("../../core/webhooks/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    await removeWebhook(ctx, agent, name);
    if (flags.bool("json")) io.print({ agent: agent.name, removed: name });
    else io.print(`Removed webhook "${name}" of agent "${agent.name}": its posts are refused from now`);
  },
};

const roll: Command = {
  summary: "Give a webhook a new secret, the previous one still taken for 24 hours, or end that with --done",
  usage: "lnk agent webhook roll <name> [--done] [--agent <name>] [--json]",
  examples: ["lnk agent webhook roll gh", "lnk agent webhook roll gh --done"],
  details:
    "Prints the new secret, this once. Posts signed with the previous one are taken for 24 hours, so the\n" +
    "sender can be given the new one; `--done` refuses the previous one from now.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent"], boolean: ["json", "done"], positionals: 1 },
      this.usage,
    );
    const name = named(flags.positionals[0], "roll", this.usage);
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const { endRoll, rollWebhook } = await import("../../core/webhooks/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const json = flags.bool("json");
    if (flags.bool("done")) {
      const ended = await endRoll(ctx, agent, name);
      if (json) io.print({ agent: agent.name, name, previous: ended ? "refused" : "none" });
      else if (ended) io.print(`Webhook "${name}": its previous secret is refused from now`);
      else io.print(`Webhook "${name}" has no previous secret: nothing to end`);
      return;
    }
    const rolled = await rollWebhook(ctx, agent, name);
    if (json) {
      io.print({
        agent: agent.name,
        name,
        secret: rolled.secret.reveal(),
        previous_until: rolled.previousUntil,
      });
      return;
    }
    io.print(
      `Rolled the secret of webhook "${name}"\n  secret: ${rolled.secret.reveal()}\n` +
        `The secret is shown this once. The previous one is taken until ${rolled.previousUntil}, ` +
        `or until \`lnk agent webhook roll ${name} --done\`.`,
    );
  },
};

function named(name: string | undefined, verb: string, usage: string): string {
  if (name !== undefined) return name;
  throw new LinkError("USAGE", `Cannot ${verb} a webhook: name it`, { hint: `Usage: ${usage}` });
}

/** `lnk agent webhook ...`: the agent's webhooks (WHK-1, WHK-7). */
export const webhook: Group = {
  summary:
    "Add, list, roll and remove the agent's webhooks: URLs whose posts reach it as strangers' messages",
  commands: { add, list, roll, remove },
};
