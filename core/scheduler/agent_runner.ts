import { type Clock, type LinkPaths, logger, SYSTEM_CLOCK } from "../base/mod.ts";
import { agentRunnerFilePath, writeRunnerFile } from "./runner_file.ts";
import { type RunnerProcess, startRunner } from "./runner_process.ts";

const log = logger("runners");

/** A runner that ended unbidden is started again this much later (a runner failing at once never spins). */
const RESTART_AFTER_MS = 1_000;

/** An agent as its own runner sees it. */
export interface RunnerOfAgent {
  id: string;
  zone: string;
  wayIn: string;
}

/**
 * The runner beside an agent's own bridge (PRC-5: "two processes an agent"): its file, in the
 * agent's state folder, lists the agent alone; the runner is the bridge's child, in the agent's
 * zone, and ends with it.
 */
export async function startAgentRunner(paths: LinkPaths, agent: RunnerOfAgent): Promise<RunnerProcess> {
  const file = agentRunnerFilePath(paths, agent.id);
  await writeRunnerFile(file, { zone: agent.zone, agents: [{ id: agent.id, way_in: agent.wayIn }] });
  return await startRunner(agent.zone, { file });
}

/** The agent's runner, kept running: the one running now, and its end. */
export interface KeptRunner extends AsyncDisposable {
  /** The runner running now; undefined between an unbidden end and its start again. */
  readonly current: RunnerProcess | undefined;
}

/**
 * Starts the agent's runner and starts it again whenever it ends unbidden (a kill -9, a crash),
 * each end logged: the runner started again takes each firing on from where its record says.
 */
export async function keepAgentRunner(
  paths: LinkPaths,
  agent: RunnerOfAgent,
  options: { clock?: Clock } = {},
): Promise<KeptRunner> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const stop = new AbortController();
  let current: RunnerProcess | undefined = await startAgentRunner(paths, agent);
  const keeping = (async () => {
    while (current && !stop.signal.aborted) {
      const status = await current.status;
      if (stop.signal.aborted) return;
      log.error("The scheduler runner ended unbidden: it starts again", {
        agent: agent.id,
        code: status.code,
      });
      current = undefined;
      try {
        await clock.sleep(RESTART_AFTER_MS, stop.signal);
        current = await startAgentRunner(paths, agent);
      } catch (err) {
        if (stop.signal.aborted) return;
        log.error("Cannot start the scheduler runner again: it is tried again", {
          agent: agent.id,
          error: err,
        });
        current = undefined;
        await clock.sleep(RESTART_AFTER_MS * 10, stop.signal).catch(() => {});
        if (!stop.signal.aborted) current = await startAgentRunner(paths, agent).catch(() => undefined);
      }
    }
  })();
  return {
    get current() {
      return current;
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await current?.stop();
      await keeping;
      await current?.stop();
    },
  };
}
