import { LinkError, type LinkPaths, type Secret } from "../base/mod.ts";
import type { AgentSettings } from "../agent/mod.ts";
import type { ConnectionName } from "./known_connections.ts";
import { readConnectionSecret } from "./connection_secret.ts";
import { TelegramBot } from "./telegram_settings.ts";
import { SlackBot } from "./slack_settings.ts";
import { DiscordBot } from "./discord_settings.ts";
import { SignalBot } from "./signal_settings.ts";

/** A connection as its settings and folder hold it: its account, and its owner as the platform names them. */
export type ConnectionAccount =
  | { name: "telegram"; account: { apiRoot: string; token: Secret }; ownerId: number; bot: TelegramBot }
  | {
    name: "slack";
    account: { apiUrl: string; botToken: Secret; appToken: Secret; botUserId: string };
    ownerId: string;
    bot: SlackBot;
  }
  | { name: "discord"; account: { apiUrl: string; token: Secret }; ownerId: string; bot: DiscordBot }
  | { name: "signal"; account: { daemonUrl: string; number: string }; ownerId: string; bot: SignalBot };

/**
 * Reads one connection of an agent: its settings and its tokens, from the connection's folder
 * outside every sandbox. A token gone missing says how to connect again.
 */
export async function connectionAccount(
  paths: LinkPaths,
  agent: AgentSettings,
  name: ConnectionName,
): Promise<ConnectionAccount> {
  const secret = async (file: string) => {
    const value = await readConnectionSecret(paths, agent.id, name, file);
    if (value) return value;
    throw new LinkError(
      "CONFIG_INVALID",
      `The ${name} connection of agent "${agent.name}" has lost its token`,
      {
        hint: `Connect it again with \`lnk agent connect ${name}\``,
      },
    );
  };
  switch (name) {
    case "telegram": {
      const bot = TelegramBot.parse(agent.bots.telegram);
      return {
        name,
        bot,
        ownerId: bot.owner.id,
        account: { apiRoot: bot.api_root, token: await secret("bot-token") },
      };
    }
    case "slack": {
      const bot = SlackBot.parse(agent.bots.slack);
      const account = {
        apiUrl: bot.api_url,
        botToken: await secret("bot-token"),
        appToken: await secret("app-token"),
        botUserId: bot.bot_user_id,
      };
      return { name, bot, ownerId: bot.owner.id, account };
    }
    case "discord": {
      const bot = DiscordBot.parse(agent.bots.discord);
      return {
        name,
        bot,
        ownerId: bot.owner.id,
        account: { apiUrl: bot.api_url, token: await secret("bot-token") },
      };
    }
    case "signal": {
      const bot = SignalBot.parse(agent.bots.signal);
      return {
        name,
        bot,
        ownerId: bot.owner.number,
        account: { daemonUrl: bot.daemon_url, number: bot.number },
      };
    }
  }
}
