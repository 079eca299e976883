import { atomicWrite, type Clock, joinPath, readTextIfExists, SYSTEM_CLOCK } from "../../base/mod.ts";
import type { ConversationEvent, ConversationStore, Lease, StoredEvent } from "./contract.ts";
import { conversationFolder, conversationFromFolder } from "./conversation_folder.ts";
import { appendEventFile, readEventFiles } from "./_files_events.ts";
import { readTurnFile, releaseTurnFile, renewTurnFile, takeTurnFile } from "./_files_lease.ts";
import type { LeaseJudgement } from "./lease_rules.ts";
import { parseStoredJson, ToolsFile } from "./stored_json.ts";

/** A store that can be closed: `await using store = sqliteStore(path)`. */
export type OpenStore = ConversationStore & AsyncDisposable;

/**
 * The files driver, Link Harness's default, rooted at the agent's `Agent/chats/`:
 *
 * ```
 * <root>/<conversation folder>/events/<n>.json   one event each, created once (TRN-8, U-61)
 *                              turn.json         the lease (TRN-1), replaced atomically
 *                              turn.lock         flock(2) held while the lease is judged (TRN-7)
 *                              tools.json        {"tools": [...]}, the narrowed list (TRN-13)
 * ```
 *
 * Folder names encode conversation ids reversibly (see conversationFolder). A write killed mid-way
 * leaves only a `.<uuid>.tmp` beside its target, never read, and removed once stale (the clock).
 */
export function filesStore(root: string, options: { clock?: Clock } = {}): OpenStore {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const folder = (conversation: string) => joinPath(root, conversationFolder(conversation));
  return {
    async append(conversation: string, n: number, event: ConversationEvent): Promise<"ok" | "conflict"> {
      return await appendEventFile(folder(conversation), n, event);
    },
    async read(conversation: string, from = 1): Promise<StoredEvent[]> {
      return await readEventFiles(folder(conversation), from, clock.now());
    },
    async leaseRead(conversation: string): Promise<Lease | undefined> {
      return await readTurnFile(folder(conversation));
    },
    async leaseTake(
      conversation: string,
      lease: Lease,
      judgement: LeaseJudgement,
    ): Promise<Lease | undefined> {
      return await takeTurnFile(folder(conversation), lease, judgement);
    },
    async leaseRenew(conversation: string, lease: Lease, nowMs: number): Promise<boolean> {
      return await renewTurnFile(folder(conversation), lease, nowMs);
    },
    async leaseRelease(conversation: string, lease: Lease): Promise<void> {
      await releaseTurnFile(folder(conversation), lease);
    },
    async toolsRead(conversation: string): Promise<string[] | undefined> {
      const path = joinPath(folder(conversation), "tools.json");
      const text = await readTextIfExists(path);
      return text === undefined ? undefined : parseStoredJson(ToolsFile, text, `"${path}"`).tools;
    },
    async toolsWrite(conversation: string, tools: string[]): Promise<void> {
      const file: ToolsFile = ToolsFile.parse({ tools });
      await atomicWrite(joinPath(folder(conversation), "tools.json"), `${JSON.stringify(file)}\n`);
    },
    list: () => listFolders(root),
    async [Symbol.asyncDispose]() {},
  };
}

/** Conversations with events, a tool list or a lease, sorted; other folders are not conversations. */
async function listFolders(root: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(root)) {
      const conversation = entry.isDirectory ? conversationFromFolder(entry.name) : undefined;
      if (conversation !== undefined && await holdsAnything(joinPath(root, entry.name))) {
        found.push(conversation);
      }
    }
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  return found.sort();
}

async function holdsAnything(dir: string): Promise<boolean> {
  for (const name of ["events", "tools.json", "turn.json"]) {
    try {
      await Deno.lstat(joinPath(dir, name));
      return true;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return false;
}
