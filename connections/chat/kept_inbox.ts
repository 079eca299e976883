import type { z } from "zod";
import { atomicWrite, isTempName, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";
import { messageReceived } from "./message_log.ts";

const log = logger("connections");

/** How many answered keys are kept to tell a message sent again: platforms resend within minutes. */
export const ANSWERED_KEPT = 1000;

/** The folder of kept messages in a connection's folder. */
export function inboxDir(stateDir: string): string {
  return joinPath(stateDir, "inbox");
}

/** The file of the keys answered last, newest last. */
export function answeredPath(stateDir: string): string {
  return joinPath(stateDir, "answered.json");
}

/** What a kept inbox is of: its entries' schema, the keys that can name a file, its words in logs. */
export interface InboxKind<Entry extends { seq: number }> {
  entry: z.ZodType<Entry>;
  isKey(key: string): boolean;
  /** "Slack event", "Signal envelope": what one kept message is called in a log line. */
  what: string;
}

/**
 * The messages a connection has seen (persist before acknowledging): those kept in its inbox, one
 * file each, written whole or not at all, and the keys answered lately, so a message the platform
 * sends again (a retry, a reconnect, a replay) is answered once. Each connection keys and shapes
 * its entries its own way; every entry has its place in arrival order.
 */
export class KeptInbox<Entry extends { seq: number }> {
  readonly stateDir: string;
  #kind: InboxKind<Entry>;
  #answered: string[];
  #kept = new Set<string>();
  #seq = 0;
  /** The answered list's writes, one after another, so the file always ends with the latest list. */
  #writing: Promise<void> = Promise.resolve();

  protected constructor(stateDir: string, kind: InboxKind<Entry>, answered: string[]) {
    this.stateDir = stateDir;
    this.#kind = kind;
    this.#answered = answered;
  }

  /** The keys a connection's folder says it answered lately; an unreadable list reads as none. */
  protected static async answeredIn(stateDir: string, what: string): Promise<string[]> {
    const text = await readTextIfExists(answeredPath(stateDir)) ?? "[]";
    const list = parseJson(text);
    if (Array.isArray(list) && list.every((k) => typeof k === "string")) return list;
    log.warn(`Ignoring an unreadable list of answered ${what}s`);
    return [];
  }

  /** The next place in arrival order. */
  protected nextSeq(): number {
    return this.#seq++;
  }

  /** Whether the message was kept or answered already. */
  has(key: string): boolean {
    return this.#kept.has(key) || this.#answered.includes(key);
  }

  /** Keeps a new message's entry before the platform is told it came. */
  protected async add(key: string, entry: Entry): Promise<Entry> {
    await this.save(key, entry);
    this.#kept.add(key);
    messageReceived(key);
    return entry;
  }

  /** Keeps a message's progress: its answer, what of it was sent. */
  async save(key: string, entry: Entry): Promise<void> {
    await atomicWrite(this.#entryPath(key), JSON.stringify(entry));
  }

  /**
   * The message is answered: it joins the answered list, then its entry goes. Finishes at once
   * (the pairing's events, acked together) write in turn, each the whole list as it is when its
   * turn comes: two renames racing could otherwise leave an older list last, and a redelivered
   * message answered a second time.
   */
  async finish(key: string): Promise<void> {
    if (!this.#answered.includes(key)) {
      this.#answered = [...this.#answered, key].slice(-ANSWERED_KEPT);
      const written = this.#writing.then(() =>
        atomicWrite(answeredPath(this.stateDir), JSON.stringify(this.#answered))
      );
      this.#writing = written.catch(() => {});
      await written;
    }
    await removeIfThere(this.#entryPath(key));
    this.#kept.delete(key);
  }

  /** The messages kept and not yet answered, in the order they came; an answered one left over goes. */
  protected async keptEntries(): Promise<{ key: string; entry: Entry }[]> {
    const found: { key: string; entry: Entry }[] = [];
    for (const key of await this.#keptKeys()) {
      if (this.#answered.includes(key)) {
        await removeIfThere(this.#entryPath(key));
        continue;
      }
      const parsed = this.#kind.entry.safeParse(parseJson(await Deno.readTextFile(this.#entryPath(key))));
      if (!parsed.success) {
        log.warn(`Ignoring an unreadable kept ${this.#kind.what}`, { key });
        continue;
      }
      found.push({ key, entry: parsed.data });
      this.#kept.add(key);
    }
    found.sort((a, b) => a.entry.seq - b.entry.seq);
    this.#seq = Math.max(this.#seq, ...found.map((f) => f.entry.seq + 1));
    return found;
  }

  #entryPath(key: string): string {
    return joinPath(inboxDir(this.stateDir), `${key}.json`);
  }

  async #keptKeys(): Promise<string[]> {
    const keys: string[] = [];
    try {
      for await (const item of Deno.readDir(inboxDir(this.stateDir))) {
        const match = /^(.+)\.json$/.exec(item.name);
        if (item.isFile && !isTempName(item.name) && match && this.#kind.isKey(match[1]!)) {
          keys.push(match[1]!);
        }
      }
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    return keys;
  }
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
