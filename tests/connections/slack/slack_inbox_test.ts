import assert from "node:assert/strict";
import { answeredPath, inboxDir, SlackInbox } from "../../../connections/slack/mod.ts";

async function tempState(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-slack-" });
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("SlackInbox keeps an event before its ack and tells it again after a restart, in arrival order", async () => {
  await using state = await tempState();
  const inbox = await SlackInbox.open(state.dir);
  await inbox.keep("EvB", { text: "first" });
  await inbox.keep("EvA", { text: "second" });
  assert.equal(inbox.has("EvB"), true);
  const again = await SlackInbox.open(state.dir);
  assert.deepEqual(await again.pending(), [
    { eventId: "EvB", entry: { event: { text: "first" }, seq: 0, sent: [] } },
    { eventId: "EvA", entry: { event: { text: "second" }, seq: 1, sent: [] } },
  ]);
  assert.equal(again.has("EvA"), true);
  await again.keep("EvC", { text: "third" });
  assert.deepEqual((await (await SlackInbox.open(state.dir)).pending()).map((p) => p.entry.seq), [0, 1, 2]);
});

Deno.test("SlackInbox.finish() remembers the event across restarts, so a redelivery is known", async () => {
  await using state = await tempState();
  const inbox = await SlackInbox.open(state.dir);
  await inbox.keep("Ev1", { text: "hi" });
  await inbox.finish("Ev1");
  assert.deepEqual([...Deno.readDirSync(inboxDir(state.dir))], []);
  const again = await SlackInbox.open(state.dir);
  assert.equal(again.has("Ev1"), true);
  assert.equal(again.has("Ev2"), false);
  assert.deepEqual(await again.pending(), []);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(answeredPath(state.dir))), ["Ev1"]);
});

Deno.test("SlackInbox.pending() lets go of an entry a crash left after it was answered", async () => {
  await using state = await tempState();
  const inbox = await SlackInbox.open(state.dir);
  await inbox.keep("Ev1", { text: "hi" });
  await Deno.writeTextFile(answeredPath(state.dir), JSON.stringify(["Ev1"]));
  const again = await SlackInbox.open(state.dir);
  assert.deepEqual(await again.pending(), []);
  assert.deepEqual([...Deno.readDirSync(inboxDir(state.dir))], []);
});

Deno.test("SlackInbox keeps the progress of an answer: its text and the messages it is in", async () => {
  await using state = await tempState();
  const inbox = await SlackInbox.open(state.dir);
  const entry = await inbox.keep("Ev1", { text: "hi" });
  await inbox.save("Ev1", { ...entry, answer: "hello", sent: ["1700000000.000100"] });
  assert.deepEqual(await (await SlackInbox.open(state.dir)).pending(), [
    {
      eventId: "Ev1",
      entry: { event: { text: "hi" }, seq: 0, answer: "hello", sent: ["1700000000.000100"] },
    },
  ]);
});

Deno.test("SlackInbox.finish() of many events at once remembers every one of them, whatever order the writes end in", async () => {
  await using state = await tempState();
  const inbox = await SlackInbox.open(state.dir);
  const ids = Array.from({ length: 40 }, (_, i) => `Ev${i}`);
  for (const id of ids) await inbox.keep(id, { text: id });
  await Promise.all(ids.map((id) => inbox.finish(id)));
  const again = await SlackInbox.open(state.dir);
  assert.deepEqual(ids.filter((id) => !again.has(id)), []);
  assert.deepEqual(await again.pending(), []);
});
