import { join } from "node:path";
import { type Clock, logger } from "../../core/base/mod.ts";
import { HeldAnswer } from "../link/mod.ts";

const log = logger("chat");

/** How long held answers wait after a send that failed. */
const RETRY_MS = 5_000;

/** What sending a connection's held answers needs; `send` delivers one to its chat. */
export interface SendHeldOptions {
  /** The connection, for the log. */
  connection: string;
  /** The connection's folder; the bridge holds answers in its `held/` (the way in's). */
  stateDir: string;
  clock: Clock;
  signal: AbortSignal;
  /** Sends one held answer, whole; throws when it could not, and it stays held. */
  send(held: HeldAnswer): Promise<void>;
}

/**
 * Sends the answers the bridge holds for a connection (a message the agent sent on its way in, a
 * reminder), oldest first: at the start and at each change of `held/`, until `signal` aborts.
 * Each is renamed to `.sending` before it is sent and removed once it is, so none is lost to a
 * crash: one that crashed mid-send is sent again at the next start. Where each goes is `send`'s
 * to say (SCH-3).
 */
export async function sendHeldAnswers(options: SendHeldOptions): Promise<void> {
  const dir = join(options.stateDir, "held");
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const watcher = Deno.watchFs(dir);
  const stop = () => watcher.close();
  options.signal.addEventListener("abort", stop, { once: true });
  // A send that fails (the platform away) is tried again a while later; the answer stays held meanwhile.
  const drain = async () => {
    while (!options.signal.aborted) {
      try {
        return await sendAll(options, dir);
      } catch (err) {
        log.warn("Cannot send the held answers yet", { connection: options.connection, err });
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
    await options.send(held);
    await Deno.remove(sending);
  }
}
