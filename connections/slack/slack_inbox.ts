import { z } from "zod";
import { atomicWrite, isTempName, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";

const log = logger("slack");

/** How many answered event ids are kept to tell a redelivery: Slack redelivers within minutes. */
export const ANSWERED_KEPT = 1000;

/**
 * One event kept before its envelope is acked (persist before acknowledging): the event as Slack
 * gave it, its place in arrival order, the answer once whole, and the messages (their `ts`) it has
 * been posted in so far, so a restart finishes it in place instead of posting it twice.
 */
export const SlackInboxEntry = z.looseObject({
  event: z.unknown(),
  /** The workspace the event came from (the payload's `team_id`): a shared channel's is `<team>:<channel>`. */
  team: z.string().optional(),
  seq: z.number().int().nonnegative(),
  answer: z.string().optional(),
  sent: z.array(z.string()).default([]),
});
export type SlackInboxEntry = z.infer<typeof SlackInboxEntry>;

const Answered = z.array(z.string());

/** Whether an event id can name a file: Slack's are letters and digits (`Ev0123ABCD`). */
export function isEventId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(id);
}

/** The folder of kept events in the connection's folder. */
export function inboxDir(stateDir: string): string {
  return joinPath(stateDir, "inbox");
}

/** The file of the event ids answered last, newest last. */
export function answeredPath(stateDir: string): string {
  return joinPath(stateDir, "answered.json");
}

function entryPath(stateDir: string, eventId: string): string {
  return joinPath(inboxDir(stateDir), `${eventId}.json`);
}

/**
 * The events a connection has seen: those kept in the inbox and those answered lately, so an
 * envelope Slack sends again (a retry, a reconnect) is acked and answered once.
 */
export class SlackInbox {
  #stateDir: string;
  #answered: string[];
  #kept = new Set<string>();
  #seq = 0;

  /** The connection's folder the inbox is in. */
  get stateDir(): string {
    return this.#stateDir;
  }

  constructor(stateDir: string, answered: string[]) {
    this.#stateDir = stateDir;
    this.#answered = answered;
  }

  /** Opens the inbox of a connection's folder; what it keeps answered already is let go. */
  static async open(stateDir: string): Promise<SlackInbox> {
    const parsed = Answered.safeParse(parseJson(await readTextIfExists(answeredPath(stateDir)) ?? "[]"));
    if (!parsed.success) log.warn("Ignoring an unreadable list of answered Slack events");
    return new SlackInbox(stateDir, parsed.success ? parsed.data : []);
  }

  /** Whether the event was kept or answered already. */
  has(eventId: string): boolean {
    return this.#kept.has(eventId) || this.#answered.includes(eventId);
  }

  /** Keeps a new event, written whole or not at all, before its envelope is acked. */
  async keep(eventId: string, event: unknown, team?: string): Promise<SlackInboxEntry> {
    const entry: SlackInboxEntry = { event, ...(team ? { team } : {}), seq: this.#seq++, sent: [] };
    await this.save(eventId, entry);
    this.#kept.add(eventId);
    return entry;
  }

  /** Keeps an event's progress: its answer, the messages it is in. */
  async save(eventId: string, entry: SlackInboxEntry): Promise<void> {
    await atomicWrite(entryPath(this.#stateDir, eventId), JSON.stringify(entry));
  }

  /** The event is answered: it joins the answered list, then its entry goes. */
  async finish(eventId: string): Promise<void> {
    if (!this.#answered.includes(eventId)) {
      this.#answered = [...this.#answered, eventId].slice(-ANSWERED_KEPT);
      await atomicWrite(answeredPath(this.#stateDir), JSON.stringify(this.#answered));
    }
    await removeIfThere(entryPath(this.#stateDir, eventId));
    this.#kept.delete(eventId);
  }

  /** The events kept and not yet answered, in the order they came; an answered one left over goes. */
  async pending(): Promise<{ eventId: string; entry: SlackInboxEntry }[]> {
    const found: { eventId: string; entry: SlackInboxEntry }[] = [];
    for (const eventId of await keptIds(this.#stateDir)) {
      if (this.#answered.includes(eventId)) {
        await removeIfThere(entryPath(this.#stateDir, eventId));
        continue;
      }
      const parsed = SlackInboxEntry.safeParse(
        parseJson(await Deno.readTextFile(entryPath(this.#stateDir, eventId))),
      );
      if (!parsed.success) {
        log.warn("Ignoring an unreadable kept Slack event", { event: eventId });
        continue;
      }
      found.push({ eventId, entry: parsed.data });
      this.#kept.add(eventId);
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
      if (item.isFile && !isTempName(item.name) && match && isEventId(match[1])) ids.push(match[1]);
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
