import { z } from "zod";
import { KeptInbox } from "../chat/mod.ts";

/**
 * One event kept before its envelope is acked (persist before acknowledging): the event as Slack
 * gave it, its place in arrival order, the answer once whole, and the messages (their `ts`) it has
 * been posted in so far, so a restart finishes it in place instead of posting it twice.
 */
export const SlackInboxEntry = z.looseObject({
  event: z.unknown(),
  /** The workspace the event came from (the payload's `team_id`): a shared channel's is `<team>:<channel>`. */
  team: z.string().optional(),
  seq: z.number().int().nonnegative(),
  answer: z.string().optional(),
  sent: z.array(z.string()).default([]),
});
export type SlackInboxEntry = z.infer<typeof SlackInboxEntry>;

/** Whether an event id can name a file: Slack's are letters and digits (`Ev0123ABCD`). */
export function isEventId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(id);
}

const KIND = { entry: SlackInboxEntry, isKey: isEventId, what: "Slack event" };

/**
 * The events a connection has seen: those kept in the inbox and those answered lately, so an
 * envelope Slack sends again (a retry, a reconnect) is acked and answered once.
 */
export class SlackInbox extends KeptInbox<SlackInboxEntry> {
  /** Opens the inbox of a connection's folder; what it keeps answered already is let go. */
  static async open(stateDir: string): Promise<SlackInbox> {
    return new SlackInbox(stateDir, KIND, await KeptInbox.answeredIn(stateDir, KIND.what));
  }

  /** Keeps a new event, written whole or not at all, before its envelope is acked. */
  keep(eventId: string, event: unknown, team?: string): Promise<SlackInboxEntry> {
    return this.add(eventId, { event, ...(team ? { team } : {}), seq: this.nextSeq(), sent: [] });
  }

  /** The events kept and not yet answered, in the order they came. */
  async pending(): Promise<{ eventId: string; entry: SlackInboxEntry }[]> {
    return (await this.keptEntries()).map(({ key, entry }) => ({ eventId: key, entry }));
  }
}
