/**
 * An agent's connections (CON-1..14): the ones Link knows, connecting and disconnecting one (its
 * pairing, its token kept outside every sandbox), and carrying them from the agent's bridge. Each
 * platform's client is in connections/ and loads only when its connection is used.
 * @module
 */
/** The connections Link knows by name, and those it carries today. */
export { CARRIED, type ConnectionName, CONNECTIONS, isConnectionName } from "./known_connections.ts";
/** `bots.telegram`, its API root and its token's file. */
export { readTelegramToken, TELEGRAM_API_ROOT, TelegramBot } from "./telegram_settings.ts";
/** Connecting Telegram (check, pair, keep) and disconnecting any connection. */
export { connectTelegram, type ConnectTelegramOptions, disconnect, PAIRING_MS } from "./connect_telegram.ts";
/** Carrying every connection of an agent from its bridge. */
export { carryConnections, type CarryOptions } from "./carry_connections.ts";
