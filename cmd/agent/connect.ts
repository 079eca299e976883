import { LinkError, Secret } from "../../core/base/mod.ts";
import type { Command } from "../command.ts";
import { contextOf } from "../context.ts";
import { parseFlags } from "../flags.ts";

export const connect: Command = {
  summary: "Connect the agent to Telegram or Slack: check the tokens, then pair you as its owner",
  usage:
    "lnk agent connect telegram|slack [--token <t>] [--bot-token <t> --app-token <t>] [--api-root <url>] " +
    "[--api-url <url>] [--agent <name>] [--json]",
  examples: [
    "lnk agent connect telegram",
    "lnk agent connect telegram --token 123456:ABC --agent work",
    "lnk agent connect slack --bot-token xoxb-... --app-token xapp-...",
  ],
  details:
    "Asks for what the platform needs unless flags give it (Telegram: the bot's token from @BotFather,\n" +
    "--token; Slack, in Socket Mode: the bot token and the app-level token, --bot-token and --app-token),\n" +
    "checks it with the platform, stops the agent while it pairs, and prints a one-time code: send it to the\n" +
    "bot in a private chat (Telegram) or a direct message (Slack) within ten minutes, and you are the agent's\n" +
    "owner there; nobody else is. The tokens stay outside the agent's sandbox, with the agent's bridge.\n" +
    "--api-root (Telegram) and --api-url (Slack) name another API server (a self-hosted one).\n" +
    "With --json: one JSON object per line, the first with the code and when it expires, the last the owner.\n" +
    "Discord and Signal are not carried yet.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      {
        string: ["agent", "token", "bot-token", "app-token", "api-root", "api-url"],
        boolean: ["json"],
        positionals: 1,
      },
      this.usage,
    );
    const connect = await import("../../core/connect/mod.ts");
    const name = flags.positionals[0];
    if (name === undefined) {
      throw new LinkError("USAGE", "Cannot connect: name the connection, telegram or slack", {
        hint: `Usage: ${this.usage}`,
      });
    }
    if (!connect.isConnectionName(name)) {
      throw new LinkError(
        "USAGE",
        `Cannot connect "${name}": Link knows telegram, slack, discord and signal`,
        {
          hint: `Usage: ${this.usage}`,
        },
      );
    }
    if (!connect.CARRIED.includes(name)) {
      throw new LinkError("UNSUPPORTED", `Cannot connect ${name}: Link does not carry it yet`, {
        hint: "Connect Telegram with `lnk agent connect telegram`, or Slack with `lnk agent connect slack`",
      });
    }
    const json = flags.bool("json");
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const ask = async (flag: string, question: string, what: string) => {
      const value = flags.string(flag) ?? await io.ask(question);
      if (!value?.trim()) {
        throw new LinkError("NOT_A_TERMINAL", `Cannot connect ${name}: no ${what} was given`, {
          hint: `Pass it with --${flag} <token>`,
        });
      }
      return new Secret(value.trim());
    };
    const address = (flag: string, fallback: string) => {
      const url = flags.string(flag) ?? fallback;
      if (!URL.canParse(url)) {
        throw new LinkError("USAGE", `Cannot connect ${name}: --${flag} "${url}" is not a URL`, {
          hint: "Give the API server's address",
        });
      }
      return url;
    };
    const onCode = ({ code, expiresAt, bot }: { code: string; expiresAt: number; bot: string }) => {
      const expires = new Date(expiresAt).toISOString();
      if (json) io.print({ code, expires, bot });
      else {
        const where = name === "telegram"
          ? `to @${bot} in a private chat on Telegram`
          : "to the app in a direct message on Slack";
        io.print(
          `Send this code ${where} within ten minutes:\n\n    ${code}\n\n` +
            "Whoever sends it becomes the agent's owner there. Waiting...",
        );
      }
    };
    if (name === "slack") {
      const botToken = await ask("bot-token", "The bot token (xoxb-...): ", "bot token");
      const appToken = await ask(
        "app-token",
        "The app-level token for Socket Mode (xapp-...): ",
        "app token",
      );
      const apiUrl = address("api-url", connect.SLACK_API_URL);
      const ctx = await contextOf(io);
      const agent = await resolveAgent(ctx, flags.string("agent"));
      const { bot } = await connect.connectSlack(ctx, agent, {
        botToken,
        appToken,
        apiUrl,
        signal: io.signal,
        onCode,
      });
      if (json) io.print({ agent: agent.name, connection: "slack", owner: bot.owner });
      else io.print(`Paired: ${bot.owner.name} owns agent "${agent.name}" on Slack`);
      return;
    }
    const token = await ask("token", "The bot's token (from @BotFather): ", "token");
    const apiRoot = address("api-root", connect.TELEGRAM_API_ROOT);
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const { bot } = await connect.connectTelegram(ctx, agent, { token, apiRoot, signal: io.signal, onCode });
    if (json) io.print({ agent: agent.name, connection: "telegram", owner: bot.owner });
    else {
      const who = bot.owner.username ? `@${bot.owner.username}` : bot.owner.name;
      io.print(`Paired: ${who} owns agent "${agent.name}" on Telegram (@${bot.bot.username})`);
    }
  },
};
