import assert from "node:assert/strict";
import { newAgentKey } from "../../../../core/base/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { FakeClock } from "../../../support/mod.ts";
import {
  doorOver,
  IDLE_AFTER_MS,
  InProcessAgent,
  miniAgent,
  readUntil,
  StalledAnswer,
  untilState,
  writeText,
} from "./_support.ts";

const ID = "a1b2c3d4";
const MINUTE = 60_000;

/** A door on a fake clock over the mini harness in this process, started awake unless told. */
async function miniDoor(options: { awake?: boolean } = {}) {
  const dir = await Deno.makeTempDir({ prefix: "lnk-idle-" });
  const clock = new FakeClock();
  const key = newAgentKey();
  const stalled = new StalledAnswer();
  const opened = await doorOver(
    dir,
    clock,
    (socket) => new InProcessAgent(socket, miniAgent(ID, key, stalled)),
    { agentId: ID, agentName: "work", key },
    options,
  );
  if (options.awake ?? true) await clock.waitForSleepers(1);
  return {
    ...opened,
    clock,
    stalled,
    async [Symbol.asyncDispose]() {
      stalled.finish();
      await opened.door[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Sends one message through the door as a bridge does; resolves with the answer's text. */
async function ask(port: number, caller: Parameters<typeof openEndpoint>[1], text: string): Promise<string> {
  await using endpoint = await openEndpoint({ port }, caller);
  const chunks: string[] = [];
  await endpoint.call(
    "session/prompt",
    { sessionId: "link:main", prompt: [{ type: "text", text }] },
    (u) => chunks.push(String((u.content as { text: string }).text)),
  );
  return chunks.join("");
}

Deno.test("the door lets an agent with nothing coming sleep at idle_after, and only then (PRC-10, PRC-12)", async () => {
  await using t = await miniDoor();
  await t.clock.advance(IDLE_AFTER_MS - 1);
  assert.deepEqual({ state: t.door.state, checks: t.checks.seen }, { state: "awake", checks: [] });
  await t.clock.advance(1);
  assert.equal(await t.checks.next(), "sleep");
  await untilState(t.door, "asleep");
  assert.deepEqual(
    { starts: t.agent.starts, stops: t.agent.stops, running: t.agent.running },
    { starts: 1, stops: 1, running: false },
  );
});

Deno.test("a message at the door wakes a sleeping agent and is answered; concurrent first connections share one wake", async () => {
  await using t = await miniDoor();
  await t.clock.advance(IDLE_AFTER_MS);
  await untilState(t.door, "asleep");
  const answers = await Promise.all(["one", "two", "three"].map((text) => ask(t.door.port, t.caller, text)));
  assert.deepEqual(answers, ["mini: one", "mini: two", "mini: three"]);
  assert.deepEqual({ state: t.door.state, starts: t.agent.starts }, { state: "awake", starts: 2 });
});

Deno.test("traffic within idle_after keeps the agent awake; idle_after counts from the last of it (PRC-10)", async () => {
  await using t = await miniDoor();
  await t.clock.advance(4 * MINUTE);
  assert.equal(await ask(t.door.port, t.caller, "hello"), "mini: hello");
  await t.clock.advance(1 * MINUTE);
  assert.equal(await t.checks.next(), "traffic");
  assert.equal(t.door.state, "awake");
  await t.clock.advance(4 * MINUTE - 1);
  assert.deepEqual(t.checks.seen, ["traffic"]);
  await t.clock.advance(1);
  assert.equal(await t.checks.next(), "sleep");
  await untilState(t.door, "asleep");
});

Deno.test("an answer still coming keeps the agent awake however long it pauses, and is never cut (PRC-10, PRC-11)", async () => {
  await using t = await miniDoor();
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: t.door.port });
  try {
    await writeText(conn, "GET /stall HTTP/1.1\r\nHost: agent\r\n\r\n");
    assert.match(await readUntil(conn, "partial"), /^HTTP\/1\.1 200 OK\r\n[\s\S]*partial/);
    await t.clock.advance(IDLE_AFTER_MS);
    assert.equal(await t.checks.next(), "answer");
    await t.clock.advance(10 * MINUTE);
    assert.deepEqual({ state: t.door.state, checks: t.checks.seen }, { state: "awake", checks: ["answer"] });
    t.stalled.finish();
    assert.match(await readUntil(conn, "0\r\n\r\n"), /rest\r\n0\r\n\r\n$/);
    await t.clock.waitForSleepers(1);
    await t.clock.advance(IDLE_AFTER_MS);
    assert.equal(await t.checks.next(), "sleep");
    await untilState(t.door, "asleep");
  } finally {
    conn.close();
  }
});

Deno.test("an idle keep-alive connection between answers does not keep the agent awake, and is hung up at sleep (PRC-11)", async () => {
  await using t = await miniDoor();
  await using endpoint = await openEndpoint({ port: t.door.port }, t.caller);
  const session = await endpoint.call("session/new", {
    cwd: "/",
    mcpServers: [],
    _meta: { "link.local/thread": "link:main" },
  });
  assert.deepEqual(session.result, { sessionId: "link:main" });
  assert.deepEqual(t.door.activity.connections, 1);
  await t.clock.advance(IDLE_AFTER_MS);
  assert.equal(await t.checks.next(), "sleep");
  await untilState(t.door, "asleep");
  await assert.rejects(endpoint.call("session/new", { cwd: "/", mcpServers: [] }));
});

Deno.test("an agent woken long after its door's last traffic is given its whole idle_after from the wake", async () => {
  await using t = await miniDoor({ awake: false });
  await t.clock.advance(10 * MINUTE);
  await t.door.wake();
  await t.clock.waitForSleepers(1);
  await t.clock.advance(IDLE_AFTER_MS - 1);
  assert.deepEqual({ state: t.door.state, checks: t.checks.seen }, { state: "awake", checks: [] });
  await t.clock.advance(1);
  assert.equal(await t.checks.next(), "sleep");
});
