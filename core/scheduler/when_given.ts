import { z } from "zod";
import { LinkError, parseDuration } from "../base/mod.ts";
import type { JobWhen } from "./job.ts";

/** When a job fires as a person or a model gives it: exactly one of at, in and cron, a zone with cron. */
export interface WhenGiven {
  at?: string;
  in?: string;
  cron?: string;
  zone?: string;
}

/**
 * How the caller names what it gave: `lnk agent schedule add`'s flags (USAGE, `--in 10m`) or Link
 * Scheduler's arguments (INVALID, `in: "10m"`), so each reads its errors in its own words.
 */
export interface WhenSpelling {
  code: "USAGE" | "INVALID";
  /** A key as the caller names it: `--at`, `at`. */
  name(key: keyof WhenGiven): string;
  /** One key given a value, as the caller writes it. */
  say(key: keyof WhenGiven, value: string): string;
}

/** The CLI's spelling: flags. */
export const FLAG_SPELLING: WhenSpelling = {
  code: "USAGE",
  name: (key) => `--${key}`,
  say: (key, value) => `--${key} ${/\s/.test(value) ? `"${value}"` : value}`,
};

/** The tool's spelling: arguments. */
export const ARGUMENT_SPELLING: WhenSpelling = {
  code: "INVALID",
  name: (key) => key,
  say: (key, value) => `${key}: "${value}"`,
};

/**
 * The job's `when` from what was given (`zone` names a cron job's zone when none was given), one
 * clear error for each way it can be wrong. A time is kept as the instant it names, in UTC; a
 * delay from `now`.
 */
export async function whenFromGiven(
  given: WhenGiven,
  options: { spelling: WhenSpelling; now: number; zone: () => string | Promise<string> },
): Promise<JobWhen> {
  const { code, name, say } = options.spelling;
  const named = (["at", "in", "cron"] as const).filter((k) => given[k] !== undefined);
  if (named.length !== 1) {
    throw new LinkError(
      code,
      `Cannot schedule: say when with exactly one of ${name("at")}, ${name("in")} or ${name("cron")}, ` +
        `not ${named.length}`,
      {
        hint: `Such as ${say("in", "10m")}, ${say("at", "2026-12-24T18:00:00+01:00")} or ${
          say("cron", "30 8 * * 1-5")
        }`,
      },
    );
  }
  if (given.zone !== undefined && given.cron === undefined) {
    throw new LinkError(code, `Cannot schedule: ${name("zone")} goes with ${name("cron")} only`, {
      hint: `Give the time its own offset, such as ${say("at", "2026-12-24T18:00:00+01:00")}`,
    });
  }
  if (given.cron !== undefined) {
    return { kind: "cron", cron: given.cron.trim(), zone: given.zone ?? await options.zone() };
  }
  if (given.in !== undefined) {
    let ms: number;
    try {
      ms = parseDuration(given.in);
    } catch (err) {
      throw new LinkError(code, `Cannot schedule in "${given.in}": it is not a delay`, {
        hint: `Give a number and a unit, such as ${say("in", "10m")} (30s, 2h, 1d and 1h30m are delays too)`,
        cause: err,
      });
    }
    return { kind: "at", at: new Date(options.now + ms).toISOString() };
  }
  const at = given.at!.trim();
  if (!z.iso.datetime({ offset: true, local: false }).safeParse(at).success || Number.isNaN(Date.parse(at))) {
    throw new LinkError(code, `Cannot schedule at "${at}": it is not an ISO 8601 time with its offset`, {
      hint: `Give a time with its offset, such as ${say("at", "2026-12-24T18:00:00+01:00")} or ${
        say("at", "2026-12-24T17:00:00Z")
      }`,
    });
  }
  return { kind: "at", at: new Date(Date.parse(at)).toISOString() };
}
