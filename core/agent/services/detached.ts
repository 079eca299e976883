import { join } from "node:path";
import {
  atomicWrite,
  LinkError,
  type LinkPaths,
  moduleLoadFailure,
  readTextIfExists,
  RoleExited,
  spawnRole,
} from "../../base/mod.ts";
import type { ServiceBackend, ServiceDefinition, ServiceState } from "./service_backend.ts";
import type { ServiceNames } from "./service_names.ts";
import { processAlive, signalGroup, waitForExit } from "./process_state.ts";

interface PidFile {
  pid: number;
  agent: string;
  started: string;
}

// Services this process started, so stopping one also reaps it (tests run the CLI in-process).
const children = new Map<number, Deno.ChildProcess>();

/**
 * The backend for machines with neither systemd nor launchd: each service is a process group of
 * its own (a new session), with a pid file and a log file under `~/.lnk/run/`.
 */
export function detachedBackend(paths: LinkPaths): ServiceBackend {
  const pidPath = (n: ServiceNames) => join(paths.run, `${n.base}.pid`);
  const logPath = (n: ServiceNames) => join(paths.run, `${n.base}.log`);
  const readPid = async (n: ServiceNames): Promise<PidFile | undefined> => {
    const text = await readTextIfExists(pidPath(n));
    return text ? (JSON.parse(text) as PidFile) : undefined;
  };
  const status = async (n: ServiceNames): Promise<ServiceState> => {
    const pid = await readPid(n);
    if (!pid) return { running: false };
    if (await processAlive(pid.pid, pid.agent)) return { running: true, pid: pid.pid };
    return { running: false, died: true, started: pid.started };
  };
  return {
    kind: "detached",
    async start(service: ServiceDefinition) {
      const current = await status(service.names);
      if (current.running) {
        throw new LinkError(
          "SERVICE_FAILED",
          `Cannot start "${service.names.base}": it is running already (pid ${current.pid})`,
          {
            hint: "Stop it first with `lnk agent stop`",
          },
        );
      }
      await Deno.mkdir(paths.run, { recursive: true, mode: 0o700 });
      const log = logPath(service.names);
      await Deno.writeTextFile(log, "", { append: true, mode: 0o600 });
      const before = (await Deno.stat(log)).size;
      const role = await spawnRole(service.argv.slice(0), {
        raw: true,
        env: { ...service.env, LNK_SERVICE_LOG: log },
        clearEnv: true,
        wrap: ["setsid", "sh", "-c", 'exec "$@" 2>>"$LNK_SERVICE_LOG"', "sh"],
      }).catch(async (err) => {
        // Its stderr went to the log: Deno's own words there when the role could not load at all.
        if (!(err instanceof LinkError && err.cause instanceof RoleExited) || err.cause.said) throw err;
        const said = ((await readTextIfExists(log)) ?? "").slice(before);
        throw moduleLoadFailure([service.names.base], said) ?? err;
      });
      children.set(role.pid, role.child);
      const record: PidFile = { pid: role.pid, agent: service.agentId, started: new Date().toISOString() };
      await atomicWrite(pidPath(service.names), JSON.stringify(record), { mode: 0o600 });
      return { running: true, pid: role.pid, ready: role.ready };
    },
    async stop(n: ServiceNames) {
      const pid = await readPid(n);
      if (pid && (await processAlive(pid.pid, pid.agent))) {
        signalGroup(pid.pid, "SIGTERM");
        if (!(await waitForExit(pid.pid, 5000))) signalGroup(pid.pid, "SIGKILL");
      }
      if (pid) await reap(pid.pid);
      await Deno.remove(pidPath(n)).catch(() => {});
    },
    status,
    async logs(n: ServiceNames, lines: number) {
      const text = (await readTextIfExists(logPath(n))) ?? "";
      return text.split("\n").filter(Boolean).slice(-lines).join("\n");
    },
    async remove(n: ServiceNames) {
      await this.stop(n);
      await Deno.remove(logPath(n)).catch(() => {});
    },
  };
}

async function reap(pid: number): Promise<void> {
  const child = children.get(pid);
  if (!child) return;
  children.delete(pid);
  await child.status;
}
