/**
 * The Slack connection (CON-6, CON-9, CON-10, CON-13, ACS-5): checks an app's bot and app-level
 * tokens, pairs its owner with a one-time code sent in a DM, shares a channel with a code the owner
 * mentions there, and carries the owner's DMs, shared channels and allowlisted members to the agent's
 * endpoint over one Socket Mode connection through Slack's official clients, streaming each answer
 * back with 👀 on the owner's message, and never losing or doubling a message.
 * @module
 */
/** Where Slack's Web API answers and the app's two tokens. */
export { type SlackAccount } from "./slack_account.ts";
/** Checks both tokens with Slack (auth.test, apps.connections.open). */
export { checkSlackTokens, type SlackIdentity } from "./check_slack_tokens.ts";
/** Streaming an answer: Slack's split limit and how often it is updated. */
export { EDIT_EVERY_MS, SLACK_LIMIT, SlackAnswerStream } from "./answer_stream.ts";
/** The inbox of kept events and the answered ones, in the connection's folder. */
export { SlackInbox } from "./slack_inbox.ts";
export { answeredPath, inboxDir } from "../chat/mod.ts";
/** How the carrier is: connected, reconnecting or failed, with why. */
export { type SlackState } from "./slack_state.ts";
/** Takes as owner whoever first sends the code in a DM with the app. */
export {
  PAIRING_STRIKES,
  pairSlackOwner,
  type PairSlackOwnerOptions,
  type SlackOwner,
} from "./pair_slack_owner.ts";
/** Shares a channel: the owner's mention of the app with a one-time code in it, while the bridge is stopped. */
export { pairSlackShare, type PairSlackShareOptions, type SlackShare } from "./pair_slack_share.ts";
/** Carries the owner's DMs to the agent's endpoint and each answer back, until stopped. */
export { carrySlack, type CarrySlackOptions } from "./carry_slack.ts";
/** The reaction on the owner's message while it is answered. */
export { ANSWERING_REACTION } from "./answer_event.ts";
