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
  /** The runner running now, or the next one started. */
  running(): Promise<RunnerProcess>;
}

/**
 * Starts the agent's runner and starts it again whenever it ends unbidden (a kill -9, a crash) or
 * fails to start (it died before it said it was ready), each logged, for as long as the bridge
 * runs: 1 s after an end or a first failed start, 10 s after failed starts in a row, so a runner
 * failing at once never spins. The
 * runner started again takes each firing on from where its record says.
 */
export async function keepAgentRunner(
  paths: LinkPaths,
  agent: RunnerOfAgent,
  options: { clock?: Clock } = {},
): Promise<KeptRunner> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const stop = new AbortController();
  let current: RunnerProcess | undefined;
  let waiting: ((runner: RunnerProcess) => void)[] = [];
  const start = async (): Promise<boolean> => {
    try {
      const runner = await startAgentRunner(paths, agent);
      current = runner;
      for (const resolve of waiting) resolve(runner);
      waiting = [];
      return true;
    } catch (err) {
      if (!stop.signal.aborted) {
        log.error("Cannot start the scheduler runner: it is tried again", { agent: agent.id, error: err });
      }
      current = undefined;
      return false;
    }
  };
  let failed = (await start()) ? 0 : 1;
  const keeping = (async () => {
    while (!stop.signal.aborted) {
      if (failed === 0 && current) {
        const status = await current.status;
        if (stop.signal.aborted) return;
        log.error("The scheduler runner ended unbidden: it starts again", {
          agent: agent.id,
          code: status.code,
        });
        current = undefined;
      }
      const wait = failed < 2 ? RESTART_AFTER_MS : RESTART_AFTER_MS * 10;
      if (!await clock.sleep(wait, stop.signal).then(() => true, () => false)) return;
      failed = (await start()) ? 0 : failed + 1;
    }
  })();
  return {
    get current() {
      return current;
    },
    running() {
      return current ? Promise.resolve(current) : new Promise((resolve) => waiting.push(resolve));
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await current?.stop();
      await keeping;
      await current?.stop();
    },
  };
}
