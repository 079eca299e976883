import type { RunnerAgent } from "./runner_file.ts";

/** What a change of the runner's file did to its roster. */
export interface RosterChange {
  /** Agents the runner took on. */
  added: string[];
  /** Agents taken off and gone at once: none of their firings was in flight. */
  removed: string[];
  /** Agents taken off whose firings still run: they go once those end (PRC-7). */
  leaving: string[];
}

interface Entry {
  agent: RunnerAgent;
  /** Firings of this agent under way. */
  inFlight: number;
  /** Taken off the file: fires nothing new, and goes once `inFlight` is 0. */
  leaving: boolean;
}

/**
 * The agents a runner fires for, kept across changes of its file without a restart (PRC-7): an
 * agent taken off fires nothing new but stays until its firings under way have ended, and one put
 * back meanwhile keeps them, so no job is fired twice.
 *
 * The seam for Link Scheduler: a firing calls `begin(id)` before it sends through the agent's way
 * in and the returned `end()` once the agent answered. No job exists yet, so nothing calls it but
 * tests.
 */
export class RunnerRoster {
  #entries = new Map<string, Entry>();
  #idle = new Set<() => void>();

  /** The agents the runner fires for now (not those leaving). */
  get agents(): RunnerAgent[] {
    return [...this.#entries.values()].filter((e) => !e.leaving).map((e) => e.agent);
  }

  /** Agents taken off whose firings have not ended yet. */
  get leaving(): string[] {
    return [...this.#entries.values()].filter((e) => e.leaving).map((e) => e.agent.id);
  }

  /** Firings under way, over every agent. */
  get inFlight(): number {
    let n = 0;
    for (const e of this.#entries.values()) n += e.inFlight;
    return n;
  }

  /** Takes the file's agents as the roster: new ones on, missing ones off once their firings end. */
  update(agents: readonly RunnerAgent[]): RosterChange {
    const change: RosterChange = { added: [], removed: [], leaving: [] };
    const listed = new Map(agents.map((a) => [a.id, a]));
    for (const [id, entry] of this.#entries) {
      if (listed.has(id) || entry.leaving) continue;
      if (entry.inFlight === 0) {
        this.#entries.delete(id);
        change.removed.push(id);
      } else {
        entry.leaving = true;
        change.leaving.push(id);
      }
    }
    for (const [id, agent] of listed) {
      const entry = this.#entries.get(id);
      if (!entry) {
        this.#entries.set(id, { agent, inFlight: 0, leaving: false });
        change.added.push(id);
      } else {
        entry.agent = agent;
        entry.leaving = false;
      }
    }
    return change;
  }

  /**
   * A firing for the agent begins: returns its `end()`, or undefined when the agent is not on the
   * roster or is leaving, so nothing new fires for an agent taken off.
   */
  begin(id: string): (() => void) | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.leaving) return undefined;
    entry.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.inFlight--;
      if (entry.inFlight === 0 && entry.leaving && this.#entries.get(id) === entry) this.#entries.delete(id);
      if (this.inFlight === 0) { for (const notify of [...this.#idle]) notify(); }
    };
  }

  /** Resolves once no firing is under way (at once when none is): how a runner ends cleanly. */
  settled(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#idle.delete(done);
        resolve();
      };
      this.#idle.add(done);
    });
  }
}
