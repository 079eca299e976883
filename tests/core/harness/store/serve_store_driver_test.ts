import assert from "node:assert/strict";
import { join } from "node:path";
import { filesStore, serveStoreDriver } from "../../../../core/harness/store/mod.ts";
import { leaseOf, message } from "../../../support/store_contract.ts";

function linesIn(lines: string[], keepOpen = false): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const line of lines) controller.enqueue(new TextEncoder().encode(`${line}\n`));
      if (!keepOpen) controller.close();
    },
  });
}

function collected(): { stream: WritableStream<Uint8Array>; answers(): unknown[]; first: Promise<void> } {
  let text = "";
  const decoder = new TextDecoder();
  const first = Promise.withResolvers<void>();
  return {
    first: first.promise,
    stream: new WritableStream({
      write(chunk) {
        text += decoder.decode(chunk, { stream: true });
        first.resolve();
      },
    }),
    answers: () => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)),
  };
}

async function withChats(fn: (root: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-store-serve-" });
  try {
    await fn(join(dir, "chats"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("serveStoreDriver() with serve answers every call in order, a bad line with a USAGE error (U-12)", async () => {
  await withChats(async (root) => {
    await using store = filesStore(root);
    const out = collected();
    const calls = [
      { op: "append", conversation: "link:main", n: 1, event: message("hi") },
      { op: "append", conversation: "link:main", n: 1, event: message("late") },
      { op: "lease.take", conversation: "link:main", lease: leaseOf(1, "t1"), lapse_ms: 60_000, now_ms: 9 },
      { op: "read", conversation: "link:main" },
      { op: "tools.read", conversation: "link:main" },
      { op: "list" },
    ].map((c) => JSON.stringify(c));
    const lines = [calls[0]!, calls[1]!, "", "not json", '{"op":"drop"}', ...calls.slice(2)];
    const answered = await serveStoreDriver(store, {
      input: linesIn(lines),
      output: out.stream,
      serve: true,
    });
    assert.equal(answered, 8);
    const answers = out.answers() as Record<string, Record<string, unknown>>[];
    assert.deepEqual(answers.slice(0, 2), [{ ok: true }, { conflict: true }]);
    assert.equal(answers[2]!.error!.code, "USAGE");
    assert.equal(answers[3]!.error!.code, "USAGE");
    assert.deepEqual(answers.slice(4), [
      { ok: true, lease: leaseOf(1, "t1", 9) },
      { ok: true, events: [{ n: 1, event: message("hi") }] },
      { ok: true, tools: null },
      { ok: true, conversations: ["link:main"] },
    ]);
  });
});

Deno.test("serveStoreDriver() without serve answers one call and leaves the rest", async () => {
  await withChats(async (root) => {
    await using store = filesStore(root);
    const out = collected();
    const lines = ['{"op":"list"}', '{"op":"list"}'];
    assert.equal(
      await serveStoreDriver(store, { input: linesIn(lines), output: out.stream, serve: false }),
      1,
    );
    assert.deepEqual(out.answers(), [{ ok: true, conversations: [] }]);
  });
});

Deno.test("serveStoreDriver() stops waiting for calls when its signal aborts", async () => {
  await withChats(async (root) => {
    await using store = filesStore(root);
    const out = collected();
    const stop = new AbortController();
    const input = linesIn(['{"op":"list"}'], true);
    const served = serveStoreDriver(store, { input, output: out.stream, serve: true, signal: stop.signal });
    await out.first;
    stop.abort();
    assert.equal(await served, 1);
  });
});
