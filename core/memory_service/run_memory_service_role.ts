import { parseArgs } from "node:util";
import { announceReady, homeFrom, LinkError, LinkPaths, logger, parseDuration } from "../base/mod.ts";
import { memoryServiceSocketPath } from "../memory/mod.ts";
import { MEMORY_LINGER_MS, MemoryService } from "./memory_service.ts";
import { answerMemory } from "./serve_memory_service.ts";

const log = logger("memory");

/**
 * `lnk memory serve --owner <owner>`: one owner's Link Memory, a service of its own (MEM-2),
 * answering on `~/.lnk/run/memory-<owner>.sock`. A waking agent with memory on starts it and
 * holds a session; it ends 5 s after its last session (PRC-14). `LNK_MEMORY_LINGER` (a duration)
 * changes that, for tests only.
 */
export async function runMemoryServiceRole(args: string[], signal: AbortSignal): Promise<number> {
  const { values } = parseArgs({ args, options: { owner: { type: "string" } }, strict: true });
  const owner = values.owner;
  if (!owner) {
    throw new LinkError("USAGE", "Cannot start the memory service: it needs --owner <owner>", {
      hint: "It is started by an agent with memory on as it wakes",
    });
  }
  const paths = new LinkPaths(homeFrom(Deno.env));
  const socket = memoryServiceSocketPath(paths, owner);
  const linger = Deno.env.get("LNK_MEMORY_LINGER");
  await using service = new MemoryService(paths, owner, {
    lingerMs: linger ? parseDuration(linger) : MEMORY_LINGER_MS,
  });
  await Deno.mkdir(paths.run, { recursive: true, mode: 0o700 });
  await Deno.remove(socket).catch(() => {});
  const listening = Promise.withResolvers<void>();
  const server = Deno.serve(
    { path: socket, transport: "unix", onListen: () => listening.resolve() },
    (req) => answerMemory(service, req),
  );
  await listening.promise;
  await Deno.chmod(socket, 0o600);
  announceReady({ socket, pid: Deno.pid });
  log.info("Memory service ready", { owner, pid: Deno.pid });
  await Promise.race([
    service.ended,
    new Promise((r) => signal.addEventListener("abort", r, { once: true })),
  ]);
  // Gone from its socket first, so a wake meanwhile starts a new one rather than reach this one ending.
  await Deno.remove(socket).catch(() => {});
  await service[Symbol.asyncDispose]();
  await server.shutdown();
  log.info("Memory service stopped", { owner });
  return 0;
}
