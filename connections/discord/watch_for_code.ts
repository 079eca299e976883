import { type Clock, LinkError, logger, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import type { DiscordAccount } from "./discord_account.ts";
import { untilAborted } from "../chat/mod.ts";
import { DiscordInbox } from "./discord_inbox.ts";
import { type DiscordMessage, DiscordMessage as MessageSchema, isPersons } from "./discord_message.ts";
import { receiveGateway } from "./receive_gateway.ts";

const log = logger("discord");

/** How many wrong codes a sender may send before their messages are no longer read. */
export const PAIRING_STRIKES = 5;

/** A pairing under way: its code, when it expires, and the connection's folder. */
export interface PairingOptions {
  code: string;
  expiresAt: number;
  stateDir: string;
  clock?: Clock;
  signal?: AbortSignal;
}

/** What a message is to a pairing: not for it, a wrong code (a strike), or what pairs. */
export type Reading<T> = undefined | "strike" | { found: T };

/**
 * Holds the gateway until a message `read` accepts comes from a person (never a bot) before the
 * code expires. A sender of five wrong codes is no longer read. Every message seen is remembered as
 * answered, so the carrier does not answer the pairing's messages. A token Discord refuses is
 * REFUSED; nobody in time, TIMEOUT with `timeout`'s words.
 */
export async function watchForCode<T>(
  account: DiscordAccount,
  options: PairingOptions & {
    action: string;
    timeout: { message: string; hint: string };
    read(message: DiscordMessage, botId: string): Reading<T>;
  },
): Promise<T> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const inbox = await DiscordInbox.open(options.stateDir);
  const strikes = new Map<string, number>();
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ...(options.signal ? [options.signal] : [])]);
  // A message can come before the client says READY (it handles each frame on its own): it waits.
  const bot = Promise.withResolvers<string>();
  let found: { found: T } | undefined;
  let failed: string | undefined;
  const expiry = clock.sleep(Math.max(0, options.expiresAt - clock.now()), signal).then(
    () => stop.abort(),
    () => {},
  );
  await receiveGateway({
    account,
    clock,
    signal,
    onReady: (me) => bot.resolve(me.id),
    onState: (state) => {
      if (state.state !== "failed") return;
      failed = state.why;
      stop.abort();
    },
    async keep(raw) {
      const parsed = MessageSchema.safeParse(raw);
      if (!parsed.success || inbox.has(parsed.data.id)) return;
      await inbox.finish(parsed.data.id);
      const message = parsed.data;
      const botId = await Promise.race([bot.promise, untilAborted(signal)]);
      if (found || botId === undefined || clock.now() >= options.expiresAt || !isPersons(message)) return;
      const struck = strikes.get(message.author.id) ?? 0;
      if (struck >= PAIRING_STRIKES) return;
      const reading = options.read(message, botId);
      if (reading === undefined) return;
      if (reading !== "strike") {
        found = reading;
        return stop.abort();
      }
      strikes.set(message.author.id, struck + 1);
      if (struck + 1 === PAIRING_STRIKES) {
        log.warn("Ignoring a sender of wrong pairing codes", { sender: message.author.id });
      }
    },
  });
  stop.abort();
  await expiry;
  options.signal?.throwIfAborted();
  if (found) return found.found;
  if (failed) {
    throw new LinkError("REFUSED", `${options.action}: ${failed}`, {
      hint:
        "Copy the bot's token again from the Bot page of the application in Discord's Developer Portal, then connect Discord to the agent again",
    });
  }
  throw new LinkError("TIMEOUT", `${options.action}: ${options.timeout.message}`, {
    hint: options.timeout.hint,
  });
}
