import { z } from "zod";
import { atomicWrite, logger, readTextIfExists } from "../../base/mod.ts";

const log = logger("hub");

const Kept = z.record(z.string(), z.string());

/**
 * The hub's sessions: each Link thread's ACP session ID, kept in a file of the harness's home
 * (`.lnk/hub_sessions.json`), so a thread keeps its conversation across the child's restarts and
 * the agent's, as far as the agent can load a session. `live` says which IDs the child now
 * running holds.
 */
export class HubSessions {
  #path: string | undefined;
  #byThread = new Map<string, string>();
  #live = new Set<string>();

  private constructor(path: string | undefined) {
    this.#path = path;
  }

  /** Reads the kept sessions (none when the file is absent or unreadable, said in the log). */
  static async open(path: string | undefined): Promise<HubSessions> {
    const sessions = new HubSessions(path);
    if (!path) return sessions;
    const text = await readTextIfExists(path).catch(() => undefined);
    if (text === undefined) return sessions;
    const parsed = Kept.safeParse((() => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    })());
    if (!parsed.success) log.warn("The hub's kept sessions do not read: each thread starts anew", { path });
    else for (const [thread, id] of Object.entries(parsed.data)) sessions.#byThread.set(thread, id);
    return sessions;
  }

  /** The thread's session in the child now running, if it has one. */
  live(thread: string): string | undefined {
    const id = this.#byThread.get(thread);
    return id !== undefined && this.#live.has(id) ? id : undefined;
  }

  /** The session an earlier child held for the thread, to load. */
  kept(thread: string): string | undefined {
    return this.#byThread.get(thread);
  }

  /** The thread's session, held by the child now running, kept. */
  async hold(thread: string, id: string): Promise<void> {
    this.#live.add(id);
    if (this.#byThread.get(thread) === id) return;
    this.#byThread.set(thread, id);
    if (!this.#path) return;
    await atomicWrite(this.#path, JSON.stringify(Object.fromEntries(this.#byThread)), { mode: 0o600 })
      .catch((err) => log.warn("Cannot keep the hub's sessions", { path: this.#path, error: err }));
  }

  /** A new child holds none of them. */
  childEnded(): void {
    this.#live.clear();
  }
}
