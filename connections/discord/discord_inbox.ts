import { z } from "zod";
import { isSnowflake } from "./discord_message.ts";
import { atomicWrite, isTempName, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";

const log = logger("discord");

/** How many answered message ids are kept to tell a replay: a RESUME replays what came since the last seq. */
export const ANSWERED_KEPT = 1000;

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

const Answered = z.array(z.string());

/** The folder of kept messages in the connection's folder. */
export function inboxDir(stateDir: string): string {
  return joinPath(stateDir, "inbox");
}

/** The file of the message ids answered last, newest last. */
export function answeredPath(stateDir: string): string {
  return joinPath(stateDir, "answered.json");
}

function entryPath(stateDir: string, messageId: string): string {
  return joinPath(inboxDir(stateDir), `${messageId}.json`);
}

/**
 * The messages a connection has seen: those kept in the inbox and those answered lately, so a
 * message the gateway replays (after a RESUME) is answered once.
 */
export class DiscordInbox {
  #stateDir: string;
  #answered: string[];
  #kept = new Set<string>();
  #seq = 0;

  constructor(stateDir: string, answered: string[]) {
    this.#stateDir = stateDir;
    this.#answered = answered;
  }

  /** Opens the inbox of a connection's folder; what it keeps answered already is let go. */
  static async open(stateDir: string): Promise<DiscordInbox> {
    const parsed = Answered.safeParse(parseJson(await readTextIfExists(answeredPath(stateDir)) ?? "[]"));
    if (!parsed.success) log.warn("Ignoring an unreadable list of answered Discord messages");
    return new DiscordInbox(stateDir, parsed.success ? parsed.data : []);
  }

  /** Whether the message was kept or answered already. */
  has(messageId: string): boolean {
    return this.#kept.has(messageId) || this.#answered.includes(messageId);
  }

  /** Keeps a new message, written whole or not at all, before it is answered. */
  async keep(messageId: string, message: unknown): Promise<DiscordInboxEntry> {
    const entry: DiscordInboxEntry = { message, seq: this.#seq++, sent: [] };
    await this.save(messageId, entry);
    this.#kept.add(messageId);
    return entry;
  }

  /** Keeps a message's progress: its answer, the messages it is in. */
  async save(messageId: string, entry: DiscordInboxEntry): Promise<void> {
    await atomicWrite(entryPath(this.#stateDir, messageId), JSON.stringify(entry));
  }

  /** The message is answered: it joins the answered list, then its entry goes. */
  async finish(messageId: string): Promise<void> {
    if (!this.#answered.includes(messageId)) {
      this.#answered = [...this.#answered, messageId].slice(-ANSWERED_KEPT);
      await atomicWrite(answeredPath(this.#stateDir), JSON.stringify(this.#answered));
    }
    await removeIfThere(entryPath(this.#stateDir, messageId));
    this.#kept.delete(messageId);
  }

  /** The messages kept and not yet answered, in the order they came; an answered one left over goes. */
  async pending(): Promise<{ messageId: string; entry: DiscordInboxEntry }[]> {
    const found: { messageId: string; entry: DiscordInboxEntry }[] = [];
    for (const messageId of await keptIds(this.#stateDir)) {
      if (this.#answered.includes(messageId)) {
        await removeIfThere(entryPath(this.#stateDir, messageId));
        continue;
      }
      const parsed = DiscordInboxEntry.safeParse(
        parseJson(await Deno.readTextFile(entryPath(this.#stateDir, messageId))),
      );
      if (!parsed.success) {
        log.warn("Ignoring an unreadable kept Discord message", { message: messageId });
        continue;
      }
      found.push({ messageId, entry: parsed.data });
      this.#kept.add(messageId);
    }
    found.sort((a, b) => a.entry.seq - b.entry.seq);
    this.#seq = Math.max(this.#seq, ...found.map((f) => f.entry.seq + 1));
    return found;
  }
}

async function keptIds(stateDir: string): Promise<string[]> {
  const ids: string[] = [];
  try {
    for await (const item of Deno.readDir(inboxDir(stateDir))) {
      const match = /^(.+)\.json$/.exec(item.name);
      if (item.isFile && !isTempName(item.name) && match && isSnowflake(match[1])) ids.push(match[1]);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return ids;
}

async function removeIfThere(path: string): Promise<void> {
  await Deno.remove(path).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
