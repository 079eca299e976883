import type { ChatAccess } from "../../core/spec/mod.ts";
import {
  isPersonsDm,
  isPersonsMention,
  isPersonsThreadReply,
  type SlackMessageEvent,
} from "./slack_event.ts";

/** Who asks in an event the carrier answers: the owner (no `from`) or a person admitted (ACS-2). */
export interface SlackAsker {
  channel: string;
  /** `person:slack:<team>:<user>` for anyone but the owner (CON-7). */
  from?: string;
  /** A shared channel's ID as `[access] message` names it, `<team>:<channel>`; none for a DM. */
  chat?: string;
  /** The thread the message is in, answered there (`thread_ts`); none at the top level. */
  threadTs?: string;
}

/**
 * Who asks, if the carrier answers the event at all (ACS-1, CON-7, CON-8): the owner's DM; the DM
 * of a member on the allowlist by member ID (`<team>:<user>`); in a shared channel, a person's
 * mention of the app (`app_mention`; the channel's plain `message` is not answered, or the
 * mention would be answered twice), and a person's reply in a thread under such a mention
 * (`inAddressedThread`), mention or not. A message in a thread is answered in that thread. Never a
 * bot's, an edit, an unshared channel's, a stranger's.
 */
export function askerOf(
  event: SlackMessageEvent,
  who: {
    ownerId: string;
    access?: ChatAccess;
    team?: string;
    botUserId?: string;
    inAddressedThread?: boolean;
  },
): SlackAsker | undefined {
  const user = event.user;
  const channel = event.channel;
  if (user === undefined || channel === undefined || event.text === undefined) return undefined;
  const userTeam = event.user_team ?? event.team ?? who.team ?? "";
  const person = `${userTeam}:${user}`;
  const from = user === who.ownerId ? {} : { from: `person:slack:${person}` };
  const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts
    ? { threadTs: event.thread_ts }
    : {};
  if (isPersonsDm(event)) {
    if (user !== who.ownerId && !who.access?.persons.has(person)) return undefined;
    return { channel, ...from, ...inThread };
  }
  const chat = `${who.team ?? ""}:${channel}`;
  const threadReply = who.inAddressedThread === true && isPersonsThreadReply(event, who.botUserId);
  if (!(isPersonsMention(event) || threadReply) || !who.access?.chats.has(chat)) return undefined;
  return { channel, ...from, chat, ...inThread };
}
