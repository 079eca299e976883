import { z } from "zod";

/** A message event, as far as Link reads one: who, where, of what kind, and its text. */
export const SlackMessageEvent = z.looseObject({
  type: z.string(),
  channel: z.string().optional(),
  channel_type: z.string().optional(),
  user: z.string().optional(),
  text: z.string().optional(),
  ts: z.string().optional(),
  /** The thread's first message, on a reply in a thread. */
  thread_ts: z.string().optional(),
  bot_id: z.string().optional(),
  subtype: z.string().optional(),
  /** The sender's own workspace, where it is not the app's (a shared channel). */
  user_team: z.string().optional(),
  team: z.string().optional(),
  /** Set on an `app_mention` Slack sends again for an edit. */
  edited: z.unknown().optional(),
});
export type SlackMessageEvent = z.infer<typeof SlackMessageEvent>;

/** An events_api envelope's payload: the event and its id, the key of exactly once. */
export const SlackEventPayload = z.looseObject({
  event_id: z.string(),
  team_id: z.string().optional(),
  event: SlackMessageEvent,
});
export type SlackEventPayload = z.infer<typeof SlackEventPayload>;

/** A person's new message in a DM with the app: not a bot's, not an edit or a deletion. */
export function isPersonsDm(event: SlackMessageEvent): boolean {
  return event.type === "message" && event.channel_type === "im" && event.bot_id === undefined &&
    event.subtype === undefined && event.user !== undefined && event.channel !== undefined;
}

/** A person's new mention of the app in a channel (`app_mention`): not a bot's, not an edit. */
export function isPersonsMention(event: SlackMessageEvent): boolean {
  return event.type === "app_mention" && event.bot_id === undefined && event.subtype === undefined &&
    event.edited === undefined && event.user !== undefined && event.channel !== undefined;
}

/**
 * A person's new reply in a channel's thread, not naming the app (its `app_mention` answers that;
 * with the app's user unknown, a reply naming anyone is left to the mention).
 */
export function isPersonsThreadReply(event: SlackMessageEvent, botUserId: string | undefined): boolean {
  return event.type === "message" && event.channel_type !== "im" && event.thread_ts !== undefined &&
    event.thread_ts !== event.ts && event.bot_id === undefined && event.subtype === undefined &&
    event.user !== undefined && event.channel !== undefined &&
    !event.text?.includes(botUserId === undefined ? "<@" : `<@${botUserId}>`);
}

/** The text of a message with its mentions (`<@U…>`) taken out, trimmed. */
export function withoutMentions(text: string): string {
  return text.replace(/<@[A-Z0-9]+(\|[^>]*)?>/g, "").trim();
}
