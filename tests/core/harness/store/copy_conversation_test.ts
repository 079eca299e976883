import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type ConversationEvent,
  copyConversation,
  copyConversations,
  filesStore,
  type OpenStore,
  sqliteStore,
} from "../../../../core/harness/store/mod.ts";
import { message } from "../../../support/store_contract.ts";

const AT = Date.UTC(2025, 0, 1);

/** A conversation with every kind of event, each written with all its fields. */
const TURN: ConversationEvent[] = [
  { type: "message", text: "what's the weather?", from: "owner", request: "r1", at: AT },
  { type: "turn", turn: "t1", answers: [1], at: AT + 1 },
  {
    type: "assistant",
    turn: "t1",
    text: "",
    tool_calls: [{ id: "c1", name: "web", arguments: '{"q":"weather"}' }],
    usage: { input: 10, output: 5 },
    at: AT + 2,
  },
  { type: "tool_result", turn: "t1", call: "c1", content: "sunny", not_made: false, at: AT + 3 },
  { type: "answer", turn: "t1", text: "Sunny.", answers: [1], at: AT + 4 },
  { type: "error", turn: "t2", message: "the model is down", at: AT + 5 },
  { type: "summary", through: 5, text: "asked the weather", at: AT + 6 },
];

async function snapshot(store: OpenStore): Promise<unknown> {
  const conversations = await store.list();
  return await Promise.all(conversations.map(async (id) => ({
    id,
    events: await store.read(id),
    tools: await store.toolsRead(id),
  })));
}

async function eventBytes(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const folder of Deno.readDir(root)) {
    const events = join(root, folder.name, "events");
    const names = await Array.fromAsync(Deno.readDir(events)).catch(() => []);
    for (const { name } of names) {
      files[`${folder.name}/${name}`] = await Deno.readTextFile(join(events, name));
    }
  }
  return files;
}

Deno.test("copyConversations() moves files -> SQLite -> files and everything is identical (TRN-18)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-copy-" });
  try {
    await using source = filesStore(join(dir, "from"));
    await using middle = sqliteStore(join(dir, "middle.db"));
    await using back = filesStore(join(dir, "back"));
    for (const [i, event] of TURN.entries()) await source.append("link:main", i + 1, event);
    await source.toolsWrite("link:main", ["files", "web"]);
    await source.append("telegram:-100", 1, message("hello"));
    await source.toolsWrite("slack:T1/C2", []);

    const there = await copyConversations(source, middle);
    assert.deepEqual(there, [
      { conversation: "link:main", events: 7, tools: ["files", "web"] },
      { conversation: "slack:T1/C2", events: 0, tools: [] },
      { conversation: "telegram:-100", events: 1, tools: undefined },
    ]);
    await copyConversations(middle, back);
    assert.deepEqual(await snapshot(middle), await snapshot(source));
    assert.deepEqual(await snapshot(back), await snapshot(source));
    const bytes = await eventBytes(join(dir, "from"));
    assert.equal(Object.keys(bytes).length, 8);
    assert.deepEqual(await eventBytes(join(dir, "back")), bytes);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copyConversation() again copies nothing; a different event under a taken number is a CONFLICT", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-copy-" });
  try {
    await using from = filesStore(join(dir, "from"));
    await using to = sqliteStore(join(dir, "to.db"));
    await from.append("link:main", 1, message("a"));
    await from.append("link:main", 2, message("b"));
    assert.equal((await copyConversation(from, to, "link:main")).events, 2);
    assert.equal((await copyConversation(from, to, "link:main")).events, 0);
    await to.append("link:main", 3, message("only in the destination"));
    await from.append("link:main", 3, message("c"));
    await assert.rejects(copyConversation(from, to, "link:main"), { name: "LinkError", code: "CONFLICT" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("copyConversation() can only narrow a tool list the destination has (TRN-12)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-copy-" });
  try {
    await using from = filesStore(join(dir, "from"));
    await using to = filesStore(join(dir, "to"));
    await from.toolsWrite("link:main", ["a", "b"]);
    await to.toolsWrite("link:main", ["b", "c"]);
    assert.deepEqual((await copyConversation(from, to, "link:main")).tools, ["b"]);
    assert.deepEqual(await to.toolsRead("link:main"), ["b"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
