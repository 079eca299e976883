import { z } from "zod";

/** Where a signal-cli daemon in HTTP mode answers unless `--daemon` names another. */
export const SIGNAL_DAEMON_URL = "http://127.0.0.1:8080";

/** A phone number as Signal names its accounts: `+` and the digits, country code first. */
export const PhoneNumber = z.string().regex(/^\+[1-9][0-9]{6,14}$/, "must be a number such as +15551234567");

/** `bots.signal` in the agent's settings: the daemon, the agent's number, and its owner's. */
export const SignalBot = z.strictObject({
  daemon_url: z.url(),
  number: PhoneNumber,
  owner: z.strictObject({ number: PhoneNumber }),
  paired_at: z.string(),
});
export type SignalBot = z.infer<typeof SignalBot>;
