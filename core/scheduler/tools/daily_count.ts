import { z } from "zod";
import { atomicWrite, joinPath as join, LinkError, readTextIfExists } from "../../base/mod.ts";

/** The counter's file in the agent's `Agent/schedule/`: the day, in the agent's zone, and its count. */
export const DAILY_COUNT_FILE = "started.json";

const DailyCountFile = z.strictObject({ v: z.literal(1), day: z.string(), count: z.number().int().min(0) });

/**
 * How many messages the agent started today (TEAM-8, SCH-10's `per_day`): every `send`,
 * `schedule` and `start_subagent` counts, kept in a file of `Agent/schedule/` beside its jobs, so
 * cancelling a job, a fired job's removal or a restart of the bridge never gives one back. The day
 * is the agent's, in its time zone. Takes are made one after another, so two calls never both
 * take the last one.
 */
export class DailyCount {
  readonly path: string;
  #zone: string;
  #queue: Promise<unknown> = Promise.resolve();

  /** `schedule` is the agent's `Agent/schedule` folder; `zone` its time zone. */
  constructor(schedule: string, zone: string) {
    this.path = join(schedule, DAILY_COUNT_FILE);
    this.#zone = zone;
  }

  /** The day `now` falls on in the agent's zone, as YYYY-MM-DD. */
  dayOf(now: number): string {
    return new Intl.DateTimeFormat("en-CA", {
      timeZone: this.#zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date(now));
  }

  /** Today's count so far. */
  async read(now: number): Promise<number> {
    const kept = await this.#kept(now);
    return kept && kept.day === this.dayOf(now) ? kept.count : 0;
  }

  /**
   * Takes `n` more of today's `cap`, kept before it returns; refused with REFUSED, taking none,
   * when they do not fit.
   */
  take(n: number, cap: number, now: number): Promise<number> {
    const run = this.#queue.then(async () => {
      const day = this.dayOf(now);
      const kept = await this.#kept(now);
      const count = kept && kept.day === day ? kept.count : 0;
      if (count + n > cap) {
        throw new LinkError(
          "REFUSED",
          `Cannot start ${n === 1 ? "another message" : `${n} more messages`}: this agent has started ` +
            `${count} of its ${cap} messages for today (${day}), the daily cap ([tool.scheduler] per_day)`,
          { hint: "Wait for tomorrow, or ask the owner to raise per_day in the agent's spec" },
        );
      }
      await atomicWrite(this.path, `${JSON.stringify({ v: 1, day, count: count + n })}\n`);
      return count + n;
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  async #kept(now: number): Promise<z.infer<typeof DailyCountFile> | undefined> {
    const text = await readTextIfExists(this.path);
    if (text === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const parsed = DailyCountFile.safeParse(value);
    if (!parsed.success) {
      // A counter that does not read counts as full, never as empty: the cap holds.
      return { v: 1, day: this.dayOf(now), count: Number.MAX_SAFE_INTEGER };
    }
    return parsed.data;
  }
}
