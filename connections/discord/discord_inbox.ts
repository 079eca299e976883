import { z } from "zod";
import { isSnowflake } from "./discord_message.ts";
import { KeptInbox } from "../chat/mod.ts";

/**
 * One message kept before it is answered (and before its seq is kept for a RESUME): the message as
 * the gateway gave it, its place in arrival order, the answer once whole, and the messages (their
 * ids) it has been posted in so far, so a restart finishes it in place instead of posting it twice.
 */
export const DiscordInboxEntry = z.looseObject({
  message: z.unknown(),
  seq: z.number().int().nonnegative(),
  answer: z.string().optional(),
  sent: z.array(z.string()).default([]),
});
export type DiscordInboxEntry = z.infer<typeof DiscordInboxEntry>;

const KIND = { entry: DiscordInboxEntry, isKey: isSnowflake, what: "Discord message" };

/**
 * The messages a connection has seen: those kept in the inbox and those answered lately, so a
 * message the gateway replays (after a RESUME) is answered once.
 */
export class DiscordInbox extends KeptInbox<DiscordInboxEntry> {
  /** Opens the inbox of a connection's folder; what it keeps answered already is let go. */
  static async open(stateDir: string): Promise<DiscordInbox> {
    return new DiscordInbox(stateDir, KIND, await KeptInbox.answeredIn(stateDir, KIND.what));
  }

  /** Keeps a new message, written whole or not at all, before it is answered. */
  keep(messageId: string, message: unknown): Promise<DiscordInboxEntry> {
    return this.add(messageId, { message, seq: this.nextSeq(), sent: [] });
  }

  /** The messages kept and not yet answered, in the order they came. */
  async pending(): Promise<{ messageId: string; entry: DiscordInboxEntry }[]> {
    return (await this.keptEntries()).map(({ key, entry }) => ({ messageId: key, entry }));
  }
}
