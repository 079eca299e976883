import type { AgentKey, Clock, LinkPaths } from "../../base/mod.ts";
import { checkTeammate, type DoorAgent } from "./teammate_check.ts";
import { type DoorActivity, serveDoor } from "./serve_door.ts";
import type { AgentStarter } from "../../agent/launch/mod.ts";
import { AgentWaker, type WakeState } from "./agent_waker.ts";
import type { HarnessBusy } from "./harness_busy.ts";
import { type IdleCheck, IdleWatch } from "./idle_watch.ts";

/** What the agent's door needs: its port, its socket, how to start the agent, and when to let it sleep. */
export interface AgentDoorOptions {
  agentId: string;
  /** The agent's port (0 picks one, for tests). */
  port: number;
  /** The harness's endpoint socket the door relays to. */
  socket: string;
  starter: AgentStarter;
  /** `[run] idle_after` in ms. */
  idleAfterMs: number;
  /** Asks the harness whether a turn runs or a background command holds its lock. */
  askHarness: () => Promise<HarnessBusy>;
  /** The agent's key, so a 503 the door gives a proof request proves why it says (serveDoor). */
  key?: AgentKey;
  clock?: Clock;
  /**
   * Where the team files are, and who the agent is: a message marked from another agent is taken
   * only from a teammate of the same owner, judged as it comes (TEAM-7; see checkTeammate).
   */
  teams?: { paths: LinkPaths; agent: DoorAgent };
  /** Called at each lapse of `idle_after` with what was found. */
  onCheck?: (check: IdleCheck) => void;
}

/** The agent's door, open: its port, and where the agent behind it stands. */
export interface AgentDoor extends AsyncDisposable {
  readonly port: number;
  readonly state: WakeState;
  readonly activity: DoorActivity;
  /** Rejects with why when the door stopped accepting on its own (see Door.finished). */
  readonly finished: Promise<void>;
  /** Resolves at the agent's next change of state. */
  changed(): Promise<void>;
  /**
   * Wakes the agent now, or joins the wake under way; rejects with the reason it could not
   * (`lnk agent start` starts it awake, once everything the harness calls is served).
   */
  wake(): Promise<void>;
}

/**
 * Opens the agent's door (U-36): its port relayed to its harness's socket, waking the agent at a
 * connection that finds it asleep or its harness dead (503 with the reason when it cannot), and
 * letting it sleep when idle (PRC-10, PRC-11). The agent sleeps until `wake()` or a connection.
 * Throws PORT_UNAVAILABLE when the port is taken.
 */
export async function openAgentDoor(options: AgentDoorOptions): Promise<AgentDoor> {
  const waker = new AgentWaker({
    socket: options.socket,
    starter: options.starter,
    agentId: options.agentId,
  });
  const wired: { watch?: IdleWatch } = {};
  const teams = options.teams;
  let door;
  try {
    door = serveDoor({
      port: options.port,
      target: (signal) => waker.target(signal),
      onActivity: () => wired.watch?.doorChanged(),
      prover: options.key ? { agentId: options.agentId, key: options.key } : undefined,
      clock: options.clock,
      checkFrom: teams && ((from) => checkTeammate(teams.paths, teams.agent, from)),
    });
  } catch (err) {
    await waker[Symbol.asyncDispose]();
    throw err;
  }
  const watch = new IdleWatch({
    door,
    waker,
    idleAfterMs: options.idleAfterMs,
    askHarness: options.askHarness,
    clock: options.clock,
    onCheck: options.onCheck,
    agentId: options.agentId,
  });
  wired.watch = watch;
  const opened = door;
  return {
    port: opened.port,
    get state() {
      return waker.state;
    },
    get activity() {
      return opened.activity;
    },
    finished: opened.finished,
    changed: () => waker.changed(),
    wake: () => waker.wake(),
    async [Symbol.asyncDispose]() {
      await watch[Symbol.asyncDispose]();
      await opened.close();
      await waker[Symbol.asyncDispose]();
    },
  };
}
