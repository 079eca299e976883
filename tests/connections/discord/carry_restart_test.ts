import assert from "node:assert/strict";
import { inboxDir } from "../../../connections/discord/mod.ts";
import { advanceUntil, carrier, inboxEmpty } from "./_support.ts";

Deno.test("carryDiscord() restarted between making an answer and sending it sends exactly one message, asking nothing again", async () => {
  await using t = await carrier({
    fake: { echoBotMessages: false },
    async before({ owner, dm, stateDir }) {
      // The owner's DM, kept with its whole answer and nothing of it posted yet.
      const message = {
        id: "1300000000000000001",
        channel_id: dm.id,
        author: owner,
        content: "hi",
        mentions: [],
      };
      await Deno.mkdir(inboxDir(stateDir), { recursive: true });
      await Deno.writeTextFile(
        `${inboxDir(stateDir)}/${message.id}.json`,
        JSON.stringify({ message, seq: 0, answer: "The answer made before the crash", sent: [] }),
      );
    },
  });
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), ["The answer made before the crash"]);
  assert.equal(t.fake.calls.filter((c) => c.route === "POST /channels/:id/messages").length, 1);
  assert.equal(t.model.requests.length, 0);
  // The next message is the only one the model is asked.
  const next = t.model.reply("The next one");
  t.fake.userSays(t.dm, t.owner, "and now");
  await next.done;
  await advanceUntil(t.clock, () => t.answers().length === 2 && inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), ["The answer made before the crash", "The next one"]);
  assert.equal(t.model.requests.length, 1);
});
