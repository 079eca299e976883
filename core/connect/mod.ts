/**
 * An agent's connections (CON-1, CON-6, CON-11): the ones Link knows, connecting and disconnecting one (its
 * pairing, its token kept outside every sandbox), and carrying them from the agent's bridge. Each
 * platform's client is in connections/ and loads only when its connection is used.
 * @module
 */
/** The connections Link knows by name, and those it carries today. */
export {
  CARRIED,
  type ConnectionName,
  CONNECTIONS,
  isConnectionName,
  PAIRING_MS,
} from "./known_connections.ts";
/** `bots.telegram` and Telegram's API root. */
export { TELEGRAM_API_ROOT, TelegramBot } from "./telegram_settings.ts";
/** A connection's secrets (tokens), each a file in its folder outside every sandbox. */
export { connectionSecretFile, readConnectionSecret, writeConnectionSecret } from "./connection_secret.ts";
/** Connecting Telegram (check, pair, keep). */
export { connectTelegram, type ConnectTelegramOptions } from "./connect_telegram.ts";
/** Disconnecting any connection: its settings and its folder go. */
export { disconnect } from "./disconnect_connection.ts";
/** A connection's owner paired with the agent stopped, its tokens and settings kept. */
export { pairConnection, type Pairing } from "./pair_connection.ts";
/** Carrying one connection of an agent, in the process its bridge starts for it. */
export { carryConnection, type CarryOptions } from "./carry_connections.ts";
/** `lnk connection bridge`: that process. */
export { runConnectionBridgeRole } from "./run_connection_bridge_role.ts";
/** A change made with the agent stopped, the agent started again after if it ran. */
export { whileStopped } from "./while_stopped.ts";
/** `bots.slack` and Slack's API address; connecting Slack (check both tokens, pair, keep). */
export { SLACK_API_URL, SlackBot } from "./slack_settings.ts";
export { connectSlack, type ConnectSlackOptions } from "./connect_slack.ts";
/** `bots.discord` and Discord's API address; connecting Discord (check the token, pair, keep). */
export { DISCORD_API_URL, DiscordBot } from "./discord_settings.ts";
export { connectDiscord, type ConnectDiscordOptions } from "./connect_discord.ts";
/** `bots.signal`, the daemon's usual address and phone numbers; connecting Signal (check the daemon, keep). */
export { PhoneNumber, SIGNAL_DAEMON_URL, SignalBot } from "./signal_settings.ts";
export { connectSignal, type ConnectSignalOptions } from "./connect_signal.ts";
/** A connection's account and owner, read from its settings and folder. */
export { type ConnectionAccount, connectionAccount } from "./connection_accounts.ts";
/** `lnk agent share` and `unshare`: a chat or a person admitted in `[access] message`, or taken back. */
export {
  SHAREABLE,
  shareConnection,
  type Shared,
  type ShareOptions,
  unshareConnection,
  type Unshared,
} from "./share_connection.ts";
