import { join } from "node:path";
import { conversationFolder } from "../../../core/harness/store/mod.ts";

/** An agent's `Agent/` folder in a temporary folder, with its index beside it; removed at dispose. */
export async function memoryFolder(): Promise<
  AsyncDisposable & {
    root: string;
    agent: string;
    index: string;
    /** What MemoryIndex.open takes for this folder. */
    opening: { agentFolder: string; cache: string };
    note(name: string, text: string): Promise<void>;
    said(conversation: string, n: number, event: Record<string, unknown>): Promise<void>;
  }
> {
  const root = await Deno.makeTempDir({ prefix: "lnk-memory-" });
  const agent = join(root, "Agent");
  await Deno.mkdir(join(agent, "memory"), { recursive: true });
  await Deno.mkdir(join(agent, "chats"), { recursive: true });
  return {
    root,
    agent,
    index: join(root, "state", "memory", "index.sqlite"),
    opening: { agentFolder: agent, cache: join(root, "cache") },
    async note(name, text) {
      await Deno.writeTextFile(join(agent, "memory", `${name}.md`), text);
    },
    async said(conversation, n, event) {
      const events = join(agent, "chats", conversationFolder(conversation), "events");
      await Deno.mkdir(events, { recursive: true });
      await Deno.writeTextFile(join(events, `${n}.json`), JSON.stringify({ at: 0, ...event }));
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}
