// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import {
  carryTelegram,
  inboxDir,
  ONLY_TEXT_REPLY,
  type TelegramState,
} from "../../../connections/telegram/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { FakeClock } from "../../support/mod.ts";

/**
 * Moves the clock on a second at a time until `done` holds: edits wait their turn by the clock,
 * and the answers come over real sockets, however long the machine takes.
 */
async function advanceUntil(clock: FakeClock, done: () => boolean): Promise<void> {
  while (!done()) await clock.advance(1000);
}

Deno.test("carryTelegram() answers an edit with nothing, a photo with the only-text reply and an oversized message with the harness's refusal, each once, and goes on", async () => {
  const clock = new FakeClock();
  await using fake = await serveFakeTelegram({ clock });
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model, { agents: [{ tools: "none", contextTokens: 2000 }] });
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  const states: TelegramState[] = [];
  const stop = new AbortController();
  model.reply("First answer");
  const said = fake.userSays(chat, owner, "first words");
  // Edited before the carrier reads it: the message is answered as it was sent, the edit not at all.
  fake.userEdits(said, "first words, edited");
  fake.userSendsPhoto(chat, owner);
  fake.userSays(chat, owner, "many words ".repeat(2000));
  const last = model.reply("Last answer");
  fake.userSays(chat, owner, "still there?");
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
    await advanceUntil(clock, () => fake.sent(chat.id).at(-1)?.text === "Last answer");
    await last.done;
    await advanceUntil(clock, () => [...Deno.readDirSync(inboxDir(stateDir))].length === 0);
    assert.deepEqual(fake.sent(chat.id).map((m) => m.text), [
      "First answer",
      ONLY_TEXT_REPLY,
      fake.sent(chat.id)[2]!.text,
      "Last answer",
    ]);
    assert.match(
      fake.sent(chat.id)[2]!.text!,
      /^Your agent could not answer: the message is longer than the model's context \(.*\)$/,
    );
    const asked = model.requests.map((r) =>
      (r.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user")
        .at(-1)?.content
    );
    assert.deepEqual(asked, ["first words", "still there?"]);
    assert.equal(fake.calls.filter((c) => c.method === "sendMessage" && c.answer !== undefined).length, 4);
    assert.deepEqual(states.map((s) => s.state), ["polling"]);
  } finally {
    stop.abort();
    await carrying;
    await Deno.remove(stateDir, { recursive: true });
  }
});
