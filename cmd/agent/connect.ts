import { LinkError, Secret } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const connect: Command = {
  summary: "Connect the agent to Telegram: check the bot's token, then pair you as its owner",
  usage: "lnk agent connect telegram [--token <token>] [--api-root <url>] [--agent <name>] [--json]",
  examples: [
    "lnk agent connect telegram",
    "lnk agent connect telegram --token 123456:ABC --agent work",
  ],
  details:
    "Asks for the bot's token (from @BotFather) unless --token gives it, checks it with Telegram, stops the\n" +
    "agent while it pairs, and prints a one-time code: send it to the bot in a private chat within ten\n" +
    "minutes, and you are the agent's owner there; nobody else is. The token stays outside the agent's\n" +
    "sandbox, with the agent's bridge. --api-root names another Bot API server (a self-hosted one).\n" +
    "With --json: one JSON object per line, the first with the code and when it expires, the last the owner.\n" +
    "Slack, Discord and Signal are not carried yet.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      { string: ["agent", "token", "api-root"], boolean: ["json"], positionals: 1 },
      this.usage,
    );
    const { CARRIED, isConnectionName, TELEGRAM_API_ROOT, connectTelegram } = await import(
      "../../core/connect/mod.ts"
    );
    const name = flags.positionals[0];
    if (name === undefined) {
      throw new LinkError("USAGE", "Cannot connect: name the connection, telegram", {
        hint: `Usage: ${this.usage}`,
      });
    }
    if (!isConnectionName(name)) {
      throw new LinkError(
        "USAGE",
        `Cannot connect "${name}": Link knows telegram, slack, discord and signal`,
        {
          hint: `Usage: ${this.usage}`,
        },
      );
    }
    if (!CARRIED.includes(name)) {
      throw new LinkError("UNSUPPORTED", `Cannot connect ${name}: Link does not carry it yet`, {
        hint: "Connect Telegram with `lnk agent connect telegram`",
      });
    }
    const json = flags.bool("json");
    const token = flags.string("token") ?? await io.ask("The bot's token (from @BotFather): ");
    if (!token?.trim()) {
      throw new LinkError("NOT_A_TERMINAL", "Cannot connect Telegram: no token was given", {
        hint: "Pass it with --token <token>",
      });
    }
    const apiRoot = flags.string("api-root") ?? TELEGRAM_API_ROOT;
    if (!URL.canParse(apiRoot)) {
      throw new LinkError("USAGE", `Cannot connect Telegram: --api-root "${apiRoot}" is not a URL`, {
        hint: "Give the Bot API server's address, such as https://api.telegram.org",
      });
    }
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const { bot } = await connectTelegram(ctx, agent, {
      token: new Secret(token.trim()),
      apiRoot,
      signal: io.signal,
      onCode: ({ code, expiresAt, bot }) => {
        const expires = new Date(expiresAt).toISOString();
        if (json) io.print({ code, expires, bot });
        else {
          io.print(
            `Send this code to @${bot} in a private chat on Telegram within ten minutes:\n\n    ${code}\n\n` +
              "Whoever sends it becomes the agent's owner there. Waiting...",
          );
        }
      },
    });
    if (json) io.print({ agent: agent.name, connection: "telegram", owner: bot.owner });
    else {
      const who = bot.owner.username ? `@${bot.owner.username}` : bot.owner.name;
      io.print(`Paired: ${who} owns agent "${agent.name}" on Telegram (@${bot.bot.username})`);
    }
  },
};
