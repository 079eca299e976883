import { join } from "node:path";
import { type Clock, logger } from "../../core/base/mod.ts";
import { HeldAnswer } from "../link/mod.ts";
import { splitAnswer } from "../chat/mod.ts";
import { SIGNAL_LIMIT } from "./answer_envelope.ts";
import { reasonOf, type SignalAccount, signalRpc } from "./signal_account.ts";

const log = logger("signal");

/** How long held answers wait after a send that failed. */
const RETRY_MS = 5_000;

/** What sending the held answers needs. */
export interface SendHeldOptions {
  account: SignalAccount;
  /** The connection's folder; the bridge holds answers in its `held/` (the way in's). */
  stateDir: string;
  ownerNumber: string;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Sends the answers the bridge holds for this connection (a message the agent sent on its way in,
 * a reminder) to the owner's own number, never to the chat the harness named (SCH-3), oldest
 * first: at the start and at each change of `held/`, until `signal` aborts. Each is renamed to
 * `.sending` before it is sent and removed once it is, so none is lost to a crash: one that
 * crashed mid-send is sent again at the next start.
 */
export async function sendHeldAnswers(options: SendHeldOptions): Promise<void> {
  const dir = join(options.stateDir, "held");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const watcher = Deno.watchFs(dir);
  const stop = () => watcher.close();
  options.signal.addEventListener("abort", stop, { once: true });
  // A send that fails (the daemon away) is tried again a while later; the answer stays held meanwhile.
  const drain = async () => {
    while (!options.signal.aborted) {
      try {
        return await sendAll(options, dir);
      } catch (err) {
        log.warn("Cannot send the held answers yet", { err });
        await options.clock.sleep(RETRY_MS, options.signal).catch(() => {});
      }
    }
  };
  try {
    await drain();
    for await (const _ of watcher) await drain();
  } finally {
    options.signal.removeEventListener("abort", stop);
    if (!options.signal.aborted) watcher.close();
  }
}

async function sendAll(options: SendHeldOptions, dir: string): Promise<void> {
  const names = (await Array.fromAsync(Deno.readDir(dir)))
    .filter((e) => e.isFile && (e.name.endsWith(".json") || e.name.endsWith(".json.sending")))
    .map((e) => e.name).sort();
  for (const name of names) {
    if (options.signal.aborted) return;
    const sending = join(dir, name.endsWith(".sending") ? name : `${name}.sending`);
    if (!name.endsWith(".sending")) {
      try {
        await Deno.rename(join(dir, name), sending);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) continue; // taken meanwhile
        throw err;
      }
    }
    let held: HeldAnswer;
    try {
      held = HeldAnswer.parse(JSON.parse(await Deno.readTextFile(sending)));
    } catch (err) {
      log.warn("Cannot read a held answer: it is left aside", { path: sending, err });
      await Deno.rename(sending, `${sending}.unread`).catch(() => {});
      continue;
    }
    for (const part of splitAnswer(held.text, SIGNAL_LIMIT)) await sendOne(options, part);
    await Deno.remove(sending);
    log.info("Sent a held answer to the owner", { thread: held.thread });
  }
}

/** Sends one message to the owner's number. */
async function sendOne(options: SendHeldOptions, text: string): Promise<void> {
  try {
    await signalRpc(options.account, "send", { params: { recipient: [options.ownerNumber], message: text } });
  } catch (err) {
    throw new Error(`Cannot send a held answer: ${reasonOf(err)}`);
  }
}
