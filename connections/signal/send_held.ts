import { type Clock, logger } from "../../core/base/mod.ts";
import { sendHeldAnswers, splitAnswer } from "../chat/mod.ts";
import { SIGNAL_LIMIT } from "./answer_envelope.ts";
import { isDeregistered } from "./deregistered.ts";
import { reasonOf, type SignalAccount, signalRpc } from "./signal_account.ts";

const log = logger("signal");

/** What sending the held answers needs. */
export interface SendSignalHeldOptions {
  account: SignalAccount;
  /** The connection's folder; the bridge holds answers in its `held/` (the way in's). */
  stateDir: string;
  ownerNumber: string;
  clock: Clock;
  signal: AbortSignal;
  /** Called when the daemon says Signal no longer knows the account: the carrier stops. */
  onDeregistered(): void;
}

/**
 * Sends the answers the bridge holds for this connection (a message the agent sent on its way in,
 * a reminder) to the owner's own number, never to the chat the harness named (SCH-3), each once,
 * oldest first, until `signal` aborts.
 */
export function sendSignalHeld(options: SendSignalHeldOptions): Promise<void> {
  return sendHeldAnswers({
    connection: "signal",
    stateDir: options.stateDir,
    clock: options.clock,
    signal: options.signal,
    async send(held) {
      for (const part of splitAnswer(held.text, SIGNAL_LIMIT)) await sendOne(options, part);
      log.info("Sent a held answer to the owner", { thread: held.thread });
    },
  });
}

/** Sends one message to the owner's number. */
async function sendOne(options: SendSignalHeldOptions, text: string): Promise<void> {
  try {
    await signalRpc(options.account, "send", { params: { recipient: [options.ownerNumber], message: text } });
  } catch (err) {
    if (isDeregistered(err)) options.onDeregistered();
    throw new Error(`Cannot send a held answer: ${reasonOf(err)}`);
  }
}
