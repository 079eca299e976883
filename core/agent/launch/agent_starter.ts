import { type RoleProcess, spawnRole } from "../../base/mod.ts";
import type { ServiceBackend, ServiceDefinition } from "../services/mod.ts";
import { socketAnswers, waitForSocket } from "../endpoint_socket.ts";
import { serviceFailure } from "../service_failure.ts";

/** How the bridge starts and stops its agent (`lnk agent run`): as a service, or as its own child. */
export interface AgentStarter extends AsyncDisposable {
  /** Starts the agent; resolves once its endpoint socket answers, or throws with the reason it cannot. */
  start(signal: AbortSignal): Promise<void>;
  /** Stops the agent and waits until it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts the agent through the service backend (the detached backend's start, `systemctl --user
 * start`, launchd): a service left running with a harness that answers is kept; one whose harness
 * died is stopped and started again. A failed start says the agent's own last error.
 */
export function serviceStarter(
  backend: ServiceBackend,
  service: ServiceDefinition,
  options: { socket: string; agentName: string },
): AgentStarter {
  const names = service.names;
  return {
    async start(signal) {
      try {
        const current = await backend.status(names);
        if (current.running && await socketAnswers(options.socket)) return;
        if (current.running || current.died) await backend.stop(names);
        const started = await backend.start(service);
        if (started.ready.socket !== options.socket) await waitForSocket(options.socket, { signal });
      } catch (err) {
        throw serviceFailure(err, `Cannot wake agent "${options.agentName}"`);
      }
    },
    stop: () => backend.stop(names),
    // The service outlives its bridge: `lnk agent stop` ends both.
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
}

/**
 * Starts the agent as this process's child (`lnk agent start --foreground`): it lives in the
 * terminal's session and ends with the bridge.
 */
export function childStarter(roleArgs: string[], options: { agentName: string }): AgentStarter {
  let child: RoleProcess | undefined;
  const stop = async () => {
    const last = child;
    child = undefined;
    await last?.stop();
  };
  return {
    async start(signal) {
      await stop();
      try {
        child = await spawnRole(roleArgs, { stderr: "inherit", signal });
      } catch (err) {
        // What its error line said, its code kept; its log lines went to the terminal.
        throw serviceFailure(err, `Cannot wake agent "${options.agentName}"`);
      }
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
