import { parseArgs } from "node:util";
import { announceReady, homeFrom, LinkError, LinkPaths, logger } from "../base/mod.ts";
import { runnerFilePath } from "./runner_file.ts";
import { RunnerRoster } from "./runner_roster.ts";
import { RunnerSchedules } from "./runner_schedules.ts";
import { isTimeZone } from "./time_zone.ts";
import { watchRunnerFile } from "./watch_runner_file.ts";

const log = logger("runner");

/**
 * `lnk scheduler runner --tz <zone> [--file <path>] [--with-parent]`: one scheduler runner, whose
 * times are its process's zone, set once as it starts (its parent gives it `TZ`; PRC-7). It reads
 * its file (`~/.lnk/runners/<zone>.json` unless told) and again at each change, keeping its
 * agents without a restart; an agent taken off goes once its firings have ended. With
 * --with-parent it ends when its parent does (its stdin closes). At its end it lets the firings
 * under way finish.
 *
 * Each agent's jobs (its `Agent/schedule/jobs/`) are fired when due through its door, each firing
 * kept before it is sent, so one killed at any step is taken on by the next runner (SCH-1, SCH-6).
 */
export async function runRunnerRole(args: string[], signal: AbortSignal): Promise<number> {
  const flags = runnerFlags(args);
  const paths = new LinkPaths(homeFrom(Deno.env));
  const file = flags.file ?? runnerFilePath(paths, flags.zone);
  const roster = new RunnerRoster();
  const ended = new AbortController();
  signal.addEventListener("abort", () => ended.abort(), { once: true });
  if (flags.withParent) void untilStdinCloses().then(() => ended.abort());
  {
    let first = true;
    await using schedules = new RunnerSchedules({ paths, roster });
    await using _watch = await watchRunnerFile(file, flags.zone, (read) => {
      const change = roster.update(read.agents);
      schedules.follow(roster.agents);
      if (!first && !change.added.length && !change.removed.length && !change.leaving.length) return;
      first = false;
      log.info("Runner agents", { zone: flags.zone, agents: roster.agents.map((a) => a.id), ...change });
    });
    log.info("Runner started", {
      zone: flags.zone,
      // What this process's clock reads as its zone: the runner's times.
      process_zone: new Intl.DateTimeFormat().resolvedOptions().timeZone,
      file,
    });
    announceReady({ zone: flags.zone, agents: roster.agents.length });
    if (!ended.signal.aborted) {
      await new Promise((resolve) => ended.signal.addEventListener("abort", resolve, { once: true }));
    }
  }
  await roster.settled();
  log.info("Runner stopped", { zone: flags.zone });
  return 0;
}

function runnerFlags(args: string[]): { zone: string; file?: string; withParent: boolean } {
  const { values } = parseArgs({
    args,
    options: { tz: { type: "string" }, file: { type: "string" }, "with-parent": { type: "boolean" } },
    strict: true,
  });
  const zone = values.tz;
  if (!zone || !isTimeZone(zone)) {
    throw new LinkError(
      "USAGE",
      `Cannot start the runner: --tz needs a known time zone, not "${zone ?? ""}"`,
      {
        hint: "Runners are started by the bridge with an IANA zone such as Europe/Paris",
      },
    );
  }
  return { zone, file: values.file, withParent: values["with-parent"] ?? false };
}

async function untilStdinCloses(): Promise<void> {
  try {
    for await (const _ of Deno.stdin.readable) { /* nothing is ever sent: only the end counts */ }
  } catch { /* closed */ }
}
