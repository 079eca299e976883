import { LinkError, Secret } from "../../core/base/mod.ts";
import type { AgentContext, AgentSettings } from "../../core/agent/mod.ts";
import type { Command, Io } from "../command.ts";
import { contextOf } from "../context.ts";
import { type Flags, parseFlags } from "../flags.ts";

export const connect: Command = {
  summary: "Connect the agent to Telegram, Slack, Discord or Signal, and pair you as its owner",
  usage: "lnk agent connect telegram|slack|discord|signal [--token <t>] [--bot-token <t> --app-token <t>] " +
    "[--number <your number>] [--daemon <url>] [--account <number>] [--api-root <url>] [--api-url <url>] " +
    "[--agent <name>] [--json]",
  examples: [
    "lnk agent connect telegram",
    "lnk agent connect telegram --token 123456:ABC --agent work",
    "lnk agent connect slack --bot-token xoxb-... --app-token xapp-...",
    "lnk agent connect discord --token MTE...",
    "lnk agent connect signal --number +15551234567 --daemon http://127.0.0.1:8080",
  ],
  details:
    "Asks for what the platform needs unless flags give it (Telegram and Discord: the bot's token, --token;\n" +
    "Slack, in Socket Mode: the bot token and the app-level token, --bot-token and --app-token; Signal: your\n" +
    "own number, --number, and the address of your signal-cli daemon in HTTP mode, --daemon), checks it with\n" +
    "the platform, stops the agent while it pairs, and prints a one-time code: send it to the bot in a\n" +
    "private chat or direct message within ten minutes, and you are the agent's owner there; nobody else is.\n" +
    "On Signal there is no code: the number you type is the owner's. The tokens stay outside the agent's\n" +
    "sandbox, with the agent's bridge. --api-root (Telegram) and --api-url (Slack, Discord) name another API\n" +
    "server (a self-hosted one); --account names the agent's number when the daemon serves several.\n" +
    "With --json: one JSON object per line, the first with the code and when it expires, the last the owner.",
  async run(argv, io) {
    const flags = parseFlags(
      argv,
      {
        string: [
          "agent",
          "token",
          "bot-token",
          "app-token",
          "api-root",
          "api-url",
          "number",
          "daemon",
          "account",
        ],
        boolean: ["json"],
        positionals: 1,
      },
      this.usage,
    );
    const connect = await import("../../core/connect/mod.ts");
    const name = flags.positionals[0];
    if (name === undefined) {
      throw new LinkError(
        "USAGE",
        "Cannot connect: name the connection, telegram, slack, discord or signal",
        {
          hint: `Usage: ${this.usage}`,
        },
      );
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
    const json = flags.bool("json");
    const given = new Given(name, flags, io);
    const onCode = ({ code, expiresAt, bot }: Pairing) => {
      if (json) io.print({ code, expires: new Date(expiresAt).toISOString(), bot });
      else {
        io.print(
          `Send this code ${WHERE[name](bot)} within ten minutes:\n\n    ${code}\n\n` +
            "Whoever sends it becomes the agent's owner there. Waiting...",
        );
      }
    };
    const pair = await PLATFORMS[name](given, connect);
    const { resolveAgent } = await import("../../core/agent/mod.ts");
    const ctx = await contextOf(io);
    const agent = await resolveAgent(ctx, flags.string("agent"));
    const { owner, said } = await pair(ctx, agent, onCode, io.signal);
    if (json) io.print({ agent: agent.name, connection: name, owner });
    else io.print(said(agent.name));
  },
};

type Connect = typeof import("../../core/connect/mod.ts");
type ConnectionName = import("../../core/connect/mod.ts").ConnectionName;
type Pairing = { code: string; expiresAt: number; bot: string };
type Pair = (
  ctx: AgentContext,
  agent: AgentSettings,
  onCode: (pairing: Pairing) => void,
  signal: AbortSignal | undefined,
) => Promise<{ owner: unknown; said: (agent: string) => string }>;

/**
 * What each platform asks for, asked before anything else is read, and how it pairs with it.
 */
const PLATFORMS: Record<ConnectionName, (given: Given, connect: Connect) => Promise<Pair>> = {
  async telegram(given, connect) {
    const token = await given.secret("token", "The bot's token (from @BotFather): ", "token");
    const apiRoot = given.address("api-root", connect.TELEGRAM_API_ROOT);
    return async (ctx, agent, onCode, signal) => {
      const { bot } = await connect.connectTelegram(ctx, agent, { token, apiRoot, signal, onCode });
      const who = bot.owner.username ? `@${bot.owner.username}` : bot.owner.name;
      return {
        owner: bot.owner,
        said: (name) => `Paired: ${who} owns agent "${name}" on Telegram (@${bot.bot.username})`,
      };
    };
  },
  async slack(given, connect) {
    const botToken = await given.secret("bot-token", "The bot token (xoxb-...): ", "bot token");
    const appToken = await given.secret(
      "app-token",
      "The app-level token for Socket Mode (xapp-...): ",
      "app token",
    );
    const apiUrl = given.address("api-url", connect.SLACK_API_URL);
    return async (ctx, agent, onCode, signal) => {
      const { bot } = await connect.connectSlack(ctx, agent, { botToken, appToken, apiUrl, signal, onCode });
      return { owner: bot.owner, said: (name) => `Paired: ${bot.owner.name} owns agent "${name}" on Slack` };
    };
  },
  async discord(given, connect) {
    const token = await given.secret("token", "The bot's token (from the Developer Portal): ", "token");
    const apiUrl = given.address("api-url", connect.DISCORD_API_URL);
    return async (ctx, agent, onCode, signal) => {
      const { bot } = await connect.connectDiscord(ctx, agent, { token, apiUrl, signal, onCode });
      return {
        owner: bot.owner,
        said: (name) => `Paired: ${bot.owner.name} owns agent "${name}" on Discord (${bot.bot.username})`,
      };
    };
  },
  async signal(given, connect) {
    const ownerNumber = await given.text("number", "Your own Signal number (+15551234567): ", "number");
    if (!connect.PhoneNumber.safeParse(ownerNumber).success) {
      throw new LinkError("USAGE", `Cannot connect signal: "${ownerNumber}" is not a phone number`, {
        hint: "Give your number with its country code, as +15551234567",
      });
    }
    const daemonUrl = given.address("daemon", connect.SIGNAL_DAEMON_URL);
    const account = given.flags.string("account");
    return async (ctx, agent) => {
      const { bot } = await connect.connectSignal(ctx, agent, { daemonUrl, ownerNumber, account });
      return {
        owner: bot.owner,
        said: (name) => `Connected: ${bot.owner.number} owns agent "${name}" on Signal (${bot.number})`,
      };
    };
  },
};

/** Where the owner sends the pairing code, on each platform that has one. */
const WHERE: Record<ConnectionName, (bot: string) => string> = {
  telegram: (bot) => `to @${bot} in a private chat on Telegram`,
  slack: () => "to the app in a direct message on Slack",
  discord: (bot) => `to ${bot} in a direct message on Discord`,
  signal: () => "",
};

/** What the person gave for a connection: a flag, or an answer at the terminal. */
class Given {
  constructor(readonly name: string, readonly flags: Flags, readonly io: Io) {}

  async text(flag: string, question: string, what: string): Promise<string> {
    const value = this.flags.string(flag) ?? await this.io.ask(question);
    if (!value?.trim()) {
      throw new LinkError("NOT_A_TERMINAL", `Cannot connect ${this.name}: no ${what} was given`, {
        hint: `Pass it with --${flag} <${what.split(" ").at(-1)}>`,
      });
    }
    return value.trim();
  }

  async secret(flag: string, question: string, what: string): Promise<Secret> {
    return new Secret(await this.text(flag, question, what));
  }

  address(flag: string, fallback: string): string {
    const url = this.flags.string(flag) ?? fallback;
    if (!URL.canParse(url)) {
      throw new LinkError("USAGE", `Cannot connect ${this.name}: --${flag} "${url}" is not a URL`, {
        hint: "Give the server's address",
      });
    }
    return url;
  }
}
