import { z } from "zod";
import { atomicWrite, isTempName, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";

const log = logger("signal");

/** How many answered envelope keys are kept to tell a redelivery: the daemon replays what it buffered. */
export const ANSWERED_KEPT = 1000;

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

const Answered = z.array(z.string());

/** Whether a key can name a file: a number (`+15551234567`) or an ACI, `_`, and a timestamp. */
export function isEnvelopeKey(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9+-]{1,100}_[0-9]{1,20}$/.test(id);
}

/** The folder of kept envelopes in the connection's folder. */
export function inboxDir(stateDir: string): string {
  return joinPath(stateDir, "inbox");
}

/** The file of the envelope keys answered last, newest last. */
export function answeredPath(stateDir: string): string {
  return joinPath(stateDir, "answered.json");
}

function entryPath(stateDir: string, key: string): string {
  return joinPath(inboxDir(stateDir), `${key}.json`);
}

/**
 * The envelopes a connection has seen, by (source, timestamp): those kept in the inbox and those
 * answered lately, so an envelope the daemon sends again (a replay, a reconnect) is answered once.
 */
export class SignalInbox {
  #stateDir: string;
  #answered: string[];
  #kept = new Set<string>();
  #seq = 0;

  constructor(stateDir: string, answered: string[]) {
    this.#stateDir = stateDir;
    this.#answered = answered;
  }

  /** Opens the inbox of a connection's folder; what it keeps answered already is let go. */
  static async open(stateDir: string): Promise<SignalInbox> {
    const parsed = Answered.safeParse(parseJson(await readTextIfExists(answeredPath(stateDir)) ?? "[]"));
    if (!parsed.success) log.warn("Ignoring an unreadable list of answered Signal envelopes");
    return new SignalInbox(stateDir, parsed.success ? parsed.data : []);
  }

  /** Whether the envelope was kept or answered already. */
  has(key: string): boolean {
    return this.#kept.has(key) || this.#answered.includes(key);
  }

  /** Keeps a new envelope, written whole or not at all, before it is answered. */
  async keep(key: string, envelope: unknown): Promise<SignalInboxEntry> {
    const entry: SignalInboxEntry = { envelope, seq: this.#seq++, sent: 0 };
    await this.save(key, entry);
    this.#kept.add(key);
    return entry;
  }

  /** Keeps an envelope's progress: its answer, how much of it was sent. */
  async save(key: string, entry: SignalInboxEntry): Promise<void> {
    await atomicWrite(entryPath(this.#stateDir, key), JSON.stringify(entry));
  }

  /** The envelope is answered: it joins the answered list, then its entry goes. */
  async finish(key: string): Promise<void> {
    if (!this.#answered.includes(key)) {
      this.#answered = [...this.#answered, key].slice(-ANSWERED_KEPT);
      await atomicWrite(answeredPath(this.#stateDir), JSON.stringify(this.#answered));
    }
    await removeIfThere(entryPath(this.#stateDir, key));
    this.#kept.delete(key);
  }

  /** The envelopes kept and not yet answered, in the order they came; an answered one left over goes. */
  async pending(): Promise<{ key: string; entry: SignalInboxEntry }[]> {
    const found: { key: string; entry: SignalInboxEntry }[] = [];
    for (const key of await keptIds(this.#stateDir)) {
      if (this.#answered.includes(key)) {
        await removeIfThere(entryPath(this.#stateDir, key));
        continue;
      }
      const parsed = SignalInboxEntry.safeParse(
        parseJson(await Deno.readTextFile(entryPath(this.#stateDir, key))),
      );
      if (!parsed.success) {
        log.warn("Ignoring an unreadable kept Signal envelope", { envelope: key });
        continue;
      }
      found.push({ key, entry: parsed.data });
      this.#kept.add(key);
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
      if (item.isFile && !isTempName(item.name) && match && isEnvelopeKey(match[1])) ids.push(match[1]);
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
