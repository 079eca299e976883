import { z } from "zod";
import { atomicWrite, joinPath, logger } from "../../base/mod.ts";

const log = logger("harness");

/** An answer nobody waited for, kept until the bridge (or the chat) says it was sent (TRN-5, TRN-6, U-14). */
export const KeptAnswer = z.strictObject({
  id: z.string(),
  conversation: z.string(),
  answer: z.string(),
  /** The requests of the messages it answers, so the bridge finds where it goes. */
  requests: z.array(z.string()),
  /** True when the answer says the agent could not answer (a provider's failure). */
  error: z.boolean().default(false),
  at: z.number(),
});
export type KeptAnswer = z.infer<typeof KeptAnswer>;

/**
 * Answers finished after their caller went (a crash, Ctrl-C), one file each, kept in two phases:
 * listing hands them over, and only an ack deletes them, so one lost on the way is handed over
 * again rather than dropped (TRN-6, LOC-5).
 */
export class KeptAnswers {
  readonly dir: string;
  #seq = 0;
  #waiters = new Set<() => void>();

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Keeps an answer; returns it with its ID. */
  async keep(answer: Omit<KeptAnswer, "id" | "at">, at: number): Promise<KeptAnswer> {
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = `${String(at).padStart(15, "0")}-${String(++this.#seq).padStart(4, "0")}-${
      crypto.randomUUID().slice(0, 8)
    }`;
    const kept: KeptAnswer = { id, at, ...answer };
    await atomicWrite(joinPath(this.dir, `${id}.json`), JSON.stringify(kept), { mode: 0o600 });
    log.info("Kept an answer nobody waited for", { conversation: answer.conversation, id });
    for (const wake of [...this.#waiters]) wake();
    return kept;
  }

  /** The kept answers, oldest first; only a conversation's when one is named. */
  async list(conversation?: string): Promise<KeptAnswer[]> {
    const found: KeptAnswer[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(this.dir));
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    }
    for (const entry of entries) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const kept = await this.#read(joinPath(this.dir, entry.name));
      if (kept && (conversation === undefined || kept.conversation === conversation)) found.push(kept);
    }
    return found.sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Deletes the answers that were sent; returns how many were still kept. */
  async ack(ids: readonly string[]): Promise<number> {
    let removed = 0;
    for (const id of ids) {
      if (!/^[0-9a-f-]+$/.test(id)) continue;
      try {
        await Deno.remove(joinPath(this.dir, `${id}.json`));
        removed++;
      } catch (err) {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      }
    }
    return removed;
  }

  /** Resolves at the next answer kept by this process, or when the signal aborts. */
  changed(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      if (signal.aborted) return resolve();
      this.#waiters.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  async #read(path: string): Promise<KeptAnswer | undefined> {
    try {
      const parsed = KeptAnswer.safeParse(JSON.parse(await Deno.readTextFile(path)));
      if (parsed.success) return parsed.data;
      log.warn("Cannot read a kept answer: it is not one", { path });
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) log.warn("Cannot read a kept answer", { path, error: err });
    }
    return undefined;
  }
}
