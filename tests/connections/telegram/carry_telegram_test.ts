import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import {
  carryTelegram,
  inboxDir,
  ONLY_TEXT_REPLY,
  type TelegramState,
} from "../../../connections/telegram/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";

/** Moves the clock on a second at a time until `done` holds: edits wait their turn by the clock. */
async function advanceUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !done(); i++) await clock.advance(1000);
  assert.ok(done(), "the awaited state never came");
}

Deno.test("carryTelegram() sends the owner's private text to session telegram:<chat id> and streams the answer back", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const clock = new FakeClock();
  const owner = fake.user("Ada");
  const stranger = fake.user("Eve");
  const ownChat = fake.privateChat(owner);
  const states: TelegramState[] = [];
  const stop = new AbortController();
  const carrying = carryTelegram({
    account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
    stateDir,
    ownerId: owner.id,
    endpoint: { path: harness.socket },
    caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
    clock,
    signal: stop.signal,
    onState: (s) => states.push(s),
  });
  try {
    fake.userSays(fake.privateChat(stranger), stranger, "let me in");
    fake.userSendsSticker(ownChat, owner);
    const reply = model.reply("Hello there, Ada. How are you?", {
      chunks: ["Hello there, ", "Ada. ", "How are you?"],
    });
    fake.userSays(ownChat, owner, "hi");
    const request = await reply.taken;
    await reply.done;
    await advanceUntil(clock, () => fake.sent(ownChat.id).at(-1)?.text === "Hello there, Ada. How are you?");
    assert.deepEqual(fake.sent(ownChat.id).map((m) => m.text), [
      ONLY_TEXT_REPLY,
      "Hello there, Ada. How are you?",
    ]);
    assert.deepEqual(fake.sent(fake.privateChat(stranger).id), []);
    const body = request.body as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(body.messages.filter((m) => m.role === "user").map((m) => m.content), ["hi"]);
    const events = await harness.events(`telegram:${ownChat.id}`);
    assert.ok(events.length > 0, "the harness kept no conversation telegram:<chat id>");
    assert.ok(fake.calls.some((c) => c.method === "sendChatAction" && c.params.action === "typing"));
    await advanceUntil(clock, () => [...Deno.readDirSync(inboxDir(stateDir))].length === 0);
    assert.deepEqual(states.map((s) => s.state), ["polling"]);
  } finally {
    stop.abort();
    await carrying;
    await Deno.remove(stateDir, { recursive: true });
  }
});

/** A carrier over a stateDir left as a crash left it: an update kept in the inbox, its offset saved. */
async function restartWith(entry: (chat: number, owner: number) => Record<string, unknown>) {
  const fake = await serveFakeTelegram();
  const model = await serveFakeModel();
  const harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  const update = {
    update_id: 41,
    message: { message_id: 7, chat: { id: chat.id, type: "private" }, from: owner, date: 1, text: "hi" },
  };
  await Deno.mkdir(inboxDir(stateDir), { recursive: true });
  await Deno.writeTextFile(
    `${inboxDir(stateDir)}/41.json`,
    JSON.stringify({ update, ...entry(chat.id, owner.id) }),
  );
  await Deno.writeTextFile(`${stateDir}/offset`, "42\n");
  const clock = new FakeClock();
  const stop = new AbortController();
  const carrying = carryTelegram({
    account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
    stateDir,
    ownerId: owner.id,
    endpoint: { path: harness.socket },
    caller: { agentId: harness.agents[0]!.id, agentName: harness.agents[0]!.name, key: harness.keys[0]! },
    clock,
    signal: stop.signal,
  });
  return {
    fake,
    model,
    chat,
    clock,
    stateDir,
    async [Symbol.asyncDispose]() {
      stop.abort();
      await carrying;
      await harness[Symbol.asyncDispose]();
      await model[Symbol.asyncDispose]();
      await fake.close();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}

Deno.test("carryTelegram() restarted between making an answer and sending it sends exactly one message, asking nothing again", async () => {
  await using t = await restartWith(() => ({ answer: "The answer made before the crash", sent: [] }));
  await advanceUntil(t.clock, () => [...Deno.readDirSync(inboxDir(t.stateDir))].length === 0);
  assert.deepEqual(t.fake.sent(t.chat.id).map((m) => m.text), ["The answer made before the crash"]);
  assert.equal(t.model.requests.length, 0);
  // It polls from the kept offset only: however many polls ran, none asked for the kept update again.
  const offsets = new Set(t.fake.calls.filter((c) => c.method === "getUpdates").map((c) => c.params.offset));
  assert.deepEqual([...offsets], [42]);
});

Deno.test("carryTelegram() restarted after fetching an update and before answering it answers it once", async () => {
  await using t = await restartWith(() => ({ sent: [] }));
  const reply = t.model.reply("Answered after the restart");
  await reply.done;
  await advanceUntil(t.clock, () => [...Deno.readDirSync(inboxDir(t.stateDir))].length === 0);
  assert.deepEqual(t.fake.sent(t.chat.id).map((m) => m.text), ["Answered after the restart"]);
  assert.equal(t.model.requests.length, 1);
});
