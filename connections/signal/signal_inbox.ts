import { z } from "zod";
import { KeptInbox } from "../chat/mod.ts";

/**
 * One envelope kept before it is answered: the envelope as the daemon gave it, its place in
 * arrival order, the answer once whole, and how many of the answer's messages were sent, so a
 * restart sends the rest instead of all of it again.
 */
export const SignalInboxEntry = z.looseObject({
  envelope: z.unknown(),
  seq: z.number().int().nonnegative(),
  answer: z.string().optional(),
  sent: z.number().int().nonnegative().default(0),
});
export type SignalInboxEntry = z.infer<typeof SignalInboxEntry>;

/** Whether a key can name a file: a number (`+15551234567`) or an ACI, `_`, and a timestamp. */
export function isEnvelopeKey(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9+-]{1,100}_[0-9]{1,20}$/.test(id);
}

const KIND = { entry: SignalInboxEntry, isKey: isEnvelopeKey, what: "Signal envelope" };

/**
 * The envelopes a connection has seen, by (source, timestamp): those kept in the inbox and those
 * answered lately, so an envelope the daemon sends again (a replay, a reconnect) is answered once.
 */
export class SignalInbox extends KeptInbox<SignalInboxEntry> {
  /** Opens the inbox of a connection's folder; what it keeps answered already is let go. */
  static async open(stateDir: string): Promise<SignalInbox> {
    return new SignalInbox(stateDir, KIND, await KeptInbox.answeredIn(stateDir, KIND.what));
  }

  /** Keeps a new envelope, written whole or not at all, before it is answered. */
  keep(key: string, envelope: unknown): Promise<SignalInboxEntry> {
    return this.add(key, { envelope, seq: this.nextSeq(), sent: 0 });
  }

  /** The envelopes kept and not yet answered, in the order they came. */
  pending(): Promise<{ key: string; entry: SignalInboxEntry }[]> {
    return this.keptEntries();
  }
}
