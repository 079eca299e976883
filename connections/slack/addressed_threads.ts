import { z } from "zod";
import { atomicWrite, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";

const log = logger("slack");

/** How many threads are remembered: the oldest are let go past it. */
const KEPT_THREADS = 500;

/** A thread (`<channel>:<thread_ts>`) and the `ts` of the first mention of the app in it. */
const AddressedThread = z.strictObject({ thread: z.string(), since: z.string() });
type AddressedThread = z.infer<typeof AddressedThread>;
const AddressedThreads = z.array(AddressedThread);

/** The file of the threads under a mention of the app, in the connection's folder. */
function threadsPath(stateDir: string): string {
  return joinPath(stateDir, "threads.json");
}

async function readThreads(stateDir: string): Promise<AddressedThread[]> {
  const text = await readTextIfExists(threadsPath(stateDir));
  if (text === undefined) return [];
  try {
    return AddressedThreads.parse(JSON.parse(text));
  } catch {
    log.warn("Ignoring an unreadable list of Slack threads");
    return [];
  }
}

/**
 * Remembers that the thread of message `threadTs` in `channel` addresses the app from the mention
 * `since` on: a person mentioned it there, so a later reply in that thread is for it, mention or not.
 */
export async function keepAddressedThread(
  stateDir: string,
  channel: string,
  at: { threadTs: string; since: string },
): Promise<void> {
  const threads = await readThreads(stateDir);
  const thread = `${channel}:${at.threadTs}`;
  if (threads.some((t) => t.thread === thread)) return;
  const kept = [...threads, { thread, since: at.since }].slice(-KEPT_THREADS);
  await atomicWrite(threadsPath(stateDir), JSON.stringify(kept), { mode: 0o600 });
}

/**
 * Whether message `ts`, a reply in the thread of `threadTs` in `channel`, came after a mention of
 * the app in that thread (or the mention that started it).
 */
export async function isAddressedThread(
  stateDir: string,
  channel: string,
  at: { threadTs: string; ts: string },
): Promise<boolean> {
  const found = (await readThreads(stateDir)).find((t) => t.thread === `${channel}:${at.threadTs}`);
  return found !== undefined && isLater(at.ts, found.since);
}

/** Whether Slack's timestamp `a` ("<seconds>.<micro>") is later than `b`. */
function isLater(a: string, b: string): boolean {
  if (!/^\d+(\.\d+)?$/.test(a) || !/^\d+(\.\d+)?$/.test(b)) return false;
  const [as, am] = a.split(".").map(BigInt);
  const [bs, bm] = b.split(".").map(BigInt);
  return as! > bs! || (as === bs && (am ?? 0n) > (bm ?? 0n));
}
