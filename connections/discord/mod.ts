/**
 * The Discord connection (CON-6, CON-9, CON-10, CON-13, ACS-1..3, ACS-5): checks a bot's token, pairs its
 * owner with a one-time code sent in a DM, shares a guild channel with a code the owner mentions
 * the bot with, and carries the owner's DMs, admitted persons' DMs and shared channels' mentions to
 * the agent's endpoint over one gateway connection through Discord's official clients
 * (@discordjs/ws, @discordjs/rest), streaming each answer back and never losing or doubling a message.
 * @module
 */
/** Where Discord's REST API answers and the bot's token; Discord's own address. */
export { DISCORD_API_URL, type DiscordAccount } from "./discord_account.ts";
/** Asks Discord who the token belongs to (GET users/@me). */
export { checkDiscordToken } from "./check_discord_token.ts";
/** How many wrong codes a sender may send, and what a pairing takes. */
export { PAIRING_STRIKES, type PairingOptions } from "./watch_for_code.ts";
/** Takes as owner whoever first sends the code in a DM with the bot. */
export { type DiscordOwner, pairDiscordOwner } from "./pair_discord_owner.ts";
/** Shares the guild channel the owner mentions the bot in with the code. */
export { type DiscordShare, pairDiscordShare } from "./pair_discord_share.ts";
/** The reply to a message with only a file or a sticker. */
export { ONLY_TEXT_REPLY } from "./answer_message.ts";
/** Carries the messages Link answers to the agent's endpoint and each answer back, until stopped. */
export { carryDiscord, type CarryDiscordOptions } from "./carry_discord.ts";
/** How the carrier is: connected, reconnecting or failed, with why. */
export { type DiscordState } from "./discord_state.ts";
/** Which thread a message goes to, and who wrote it, or why it is dropped. */
export { type DiscordRoute, type RouteContext, routeMessage } from "./route_message.ts";
/** A message as the gateway gives it, as far as Link reads one. */
export { DiscordMessage } from "./discord_message.ts";
/** Streaming an answer: Discord's split limit, how often it is edited, how often typing is posted. */
export { DISCORD_LIMIT, DiscordAnswerStream, EDIT_EVERY_MS, TYPING_EVERY_MS } from "./answer_stream.ts";
/** The inbox of kept messages and the answered ones, in the connection's folder. */
export { DiscordInbox } from "./discord_inbox.ts";
export { answeredPath, inboxDir } from "../chat/mod.ts";
/** The gateway session kept for a RESUME after a restart. */
export { sessionPath } from "./gateway_session.ts";
/** The shared chats an allowed person talked in, where held answers may go (connections/chat's). */
export { groupsPath, readKeptGroups } from "../chat/mod.ts";
/** What the gateway is asked for, and how often an IDENTIFY may go. */
export { GATEWAY_INTENTS, IDENTIFY_EVERY_MS } from "./receive_gateway.ts";
