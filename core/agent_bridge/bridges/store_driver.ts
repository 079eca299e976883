import { join } from "node:path";
import { type Clock, LinkError, type LinkPaths } from "../../base/mod.ts";
import { filesStore, type OpenStore, programStore, sqliteStore } from "../../harness/store/mod.ts";
import { layoutOf } from "../../agent/mod.ts";
import type { AgentSettings } from "../../agent/mod.ts";
import type { Spec } from "../../spec/mod.ts";

/**
 * Which driver keeps an agent's conversations behind its store bridge, outside the sandbox
 * (TRN-14): the files in its `Agent/chats/`, a SQLite database in its state folder, or a program
 * speaking the store driver protocol, kept running with `serve` or run once a call (TRN-16, TRN-17).
 */
export type StoreDriver =
  | { kind: "files"; root: string }
  | { kind: "sqlite"; path: string }
  | {
    kind: "program";
    command: string[];
    serve: boolean;
    /** Whatever the driver needs to reach its store: it stays in the driver's process. */
    env?: Record<string, string>;
    /** A call past this stops the driver: 30 s unless told. */
    timeoutMs?: number;
  };

/** The SQLite database of an agent's conversations: in its state folder, which no sandbox sees. */
export function sqliteStorePath(paths: LinkPaths, agentId: string): string {
  return paths.storeDatabase(agentId);
}

/** The driver an agent's spec names (`[model] store`). */
export function storeDriverFor(paths: LinkPaths, settings: AgentSettings, spec: Spec): StoreDriver {
  switch (spec.model.store) {
    case "files":
      return { kind: "files", root: layoutOf(paths, settings).collection("chats") };
    case "sqlite":
      return { kind: "sqlite", path: sqliteStorePath(paths, settings.id) };
  }
}

/**
 * Opens the driver for one agent. A program driver is told whose conversations it keeps
 * (`LNK_STORE_AGENT`, `LNK_STORE_OWNER`), so one program may keep many agents' apart.
 */
export async function openStoreDriver(
  driver: StoreDriver,
  agent: { id: string; owner: string },
  options: { clock?: Clock } = {},
): Promise<OpenStore> {
  switch (driver.kind) {
    case "files":
      return filesStore(driver.root);
    case "sqlite":
      await Deno.mkdir(join(driver.path, ".."), { recursive: true, mode: 0o700 });
      return sqliteStore(driver.path);
    case "program":
      if (driver.command.length === 0) {
        const message = `Cannot open the store of agent "${agent.id}": its driver has no command`;
        throw new LinkError("CONFIG_INVALID", message);
      }
      return programStore({
        command: driver.command,
        serve: driver.serve,
        timeoutMs: driver.timeoutMs,
        clock: options.clock,
        env: { ...driver.env, LNK_STORE_AGENT: agent.id, LNK_STORE_OWNER: agent.owner },
      });
  }
}
