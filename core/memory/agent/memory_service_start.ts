import { joinPath, type LinkPaths, lockFile, roleArgv, roleEnv } from "../../base/mod.ts";
import { waitForSocket } from "../../agent/mod.ts";
import { pickBackend, type ServiceDefinition, type ServiceNames } from "../../agent/services/mod.ts";
import { askMemoryService, memoryServiceSocketPath, ownerWord } from "../memory_client.ts";

/** One owner's memory service names (MEM-2: one per owner). */
export function memoryServiceNames(owner: string): ServiceNames {
  const word = ownerWord(owner);
  return {
    base: `lnk-memory-${word}`,
    systemd: `lnk-memory-${word}.service`,
    launchd: `link.memory.${word}`,
  };
}

/** `lnk memory serve --owner <owner>` as a service of its own, so it outlives the bridge that started it. */
export function memoryService(
  paths: LinkPaths,
  owner: string,
  env: Readonly<Record<string, string>>,
): ServiceDefinition {
  return {
    role: "agent",
    // The detached backend checks its PID is still this role by a word of its command line.
    agentId: ownerWord(owner),
    names: memoryServiceNames(owner),
    description: `Link Memory for the agents of ${owner}`,
    argv: roleArgv(["memory", "serve", "--owner", owner]),
    env: { ...roleEnv(), ...env, HOME: paths.home },
  };
}

/**
 * Starts the owner's memory service unless one answers and is not ending (PRC-14): one start at a
 * time under a lock, waiting for its ready line, never for time.
 */
export async function ensureMemoryService(
  paths: LinkPaths,
  owner: string,
  env: { get(name: string): string | undefined; toObject(): Record<string, string> },
): Promise<void> {
  await Deno.mkdir(paths.run, { recursive: true, mode: 0o700 });
  using _lock = await lockFile(joinPath(paths.run, `memory-${ownerWord(owner)}.start.lock`));
  const seen = await askMemoryService(paths, owner, "/state").catch(() => undefined) as
    | { ending?: boolean }
    | undefined;
  if (seen && !seen.ending) return;
  const backend = await pickBackend(paths, env);
  await backend.stop(memoryServiceNames(owner));
  const started = await backend.start(memoryService(paths, owner, env.toObject()));
  const socket = memoryServiceSocketPath(paths, owner);
  // Service managers return before the role's ready line; the detached backend after it.
  if (started.ready.socket !== socket) await waitForSocket(socket);
}
