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
    const reply = model.reply("Hello there, Ada. How are you?", { chunks: ["Hello there, ", "Ada. ", "How are you?"] });
    fake.userSays(ownChat, owner, "hi");
    const request = await reply.taken;
    await reply.done;
    await advanceUntil(clock, () => fake.sent(ownChat.id).at(-1)?.text === "Hello there, Ada. How are you?");
    assert.deepEqual(fake.sent(ownChat.id).map((m) => m.text), [ONLY_TEXT_REPLY, "Hello there, Ada. How are you?"]);
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
