/**
 * Events API payloads as Slack sends them inside a Socket Mode envelope: an `event_callback` around a
 * `message` (with `channel_type`), its `message_changed` / `message_deleted` subtypes, or an
 * `app_mention`.
 */
import { APP_ID, BOT_USER_ID, type SlackConversation, type SlackMessage, TEAM_ID } from "./workspace.ts";

/** An event inside a payload. */
export type SlackEvent = Record<string, unknown> & { type: string };

let nextEventId = 1;

/** The `event_callback` payload around `event`, with a fresh `Ev…` id. */
export function eventCallback(event: SlackEvent, eventTime: number): Record<string, unknown> {
  return {
    token: "fakeVerificationToken",
    team_id: TEAM_ID,
    context_team_id: TEAM_ID,
    context_enterprise_id: null,
    api_app_id: APP_ID,
    event,
    type: "event_callback",
    event_id: `Ev0${String(nextEventId++).padStart(9, "0")}`,
    event_time: eventTime,
    authorizations: [{
      enterprise_id: null,
      team_id: TEAM_ID,
      user_id: BOT_USER_ID,
      is_bot: true,
      is_enterprise_install: false,
    }],
    is_ext_shared_channel: false,
    event_context: `4-fake-${nextEventId}`,
  };
}

/** A `message` event for a message said in `conversation`. */
export function messageEvent(conversation: SlackConversation, message: SlackMessage): SlackEvent {
  const { reactions: _reactions, ...fields } = structuredClone(message);
  return { ...fields, channel: conversation.id, event_ts: message.ts, channel_type: conversation.type };
}

/** An `app_mention` event for a message in a channel that names the bot. */
export function appMentionEvent(conversation: SlackConversation, message: SlackMessage): SlackEvent {
  const { reactions: _reactions, ...fields } = structuredClone(message);
  return { ...fields, type: "app_mention", channel: conversation.id, event_ts: message.ts };
}

/** A `message_changed` event: `message` now reads as it does, `previous` as it did. */
export function changedEvent(
  conversation: SlackConversation,
  previous: SlackMessage,
  message: SlackMessage,
  ts: string,
): SlackEvent {
  return {
    type: "message",
    subtype: "message_changed",
    message: structuredClone(message),
    previous_message: structuredClone(previous),
    channel: conversation.id,
    hidden: true,
    ts,
    event_ts: ts,
    channel_type: conversation.type,
  };
}

/** A `message_deleted` event for `previous`. */
export function deletedEvent(
  conversation: SlackConversation,
  previous: SlackMessage,
  ts: string,
): SlackEvent {
  return {
    type: "message",
    subtype: "message_deleted",
    hidden: true,
    deleted_ts: previous.ts,
    channel: conversation.id,
    previous_message: structuredClone(previous),
    ts,
    event_ts: ts,
    channel_type: conversation.type,
  };
}
