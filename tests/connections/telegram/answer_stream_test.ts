// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { type FakeTelegram, serveFakeTelegram, type TgChat } from "../../fakes/fake_telegram.ts";
import assert from "node:assert/strict";
import { Api } from "grammy";
import { Secret } from "../../../core/base/mod.ts";
import {
  AnswerStream,
  EDIT_EVERY_MS,
  splitAnswer,
  TELEGRAM_LIMIT,
} from "../../../connections/telegram/mod.ts";
import { FakeClock, settle } from "../../support/fake_clock.ts";

/**
 * A stream to the owner's chat over grammY's real client, and a way to wait until the client has
 * no call in flight and what follows each answer has run: only then does the test move the clock,
 * so when each call goes is decided by the clock alone, however loaded the machine is.
 */
async function setup() {
  const clock = new FakeClock();
  const fake = await serveFakeTelegram({ clock });
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  const api = new Api(fake.token, { apiRoot: fake.apiRoot });
  let inFlight = 0;
  let idle = Promise.withResolvers<void>();
  idle.resolve();
  api.config.use(async (prev, method, payload, signal) => {
    if (inFlight++ === 0) idle = Promise.withResolvers();
    try {
      return await prev(method, payload, signal);
    } finally {
      if (--inFlight === 0) idle.resolve();
    }
  });
  const stop = new AbortController();
  const kept: (readonly number[])[] = [];
  const stream = (sent: readonly number[] = []) =>
    new AnswerStream({
      api,
      account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
      chatId: chat.id,
      clock,
      signal: stop.signal,
      sent,
      onSent: (s) => {
        kept.push([...s]);
        return Promise.resolve();
      },
    });
  const quiet = async () => {
    for (;;) {
      await idle.promise;
      await settle();
      if (inFlight === 0) return;
    }
  };
  return {
    clock,
    fake,
    chat,
    stream,
    kept,
    quiet,
    /** Moves the clock in steps of `step` until `done` holds, quiet before each step. */
    async until(done: () => boolean, step = 1000) {
      for (let i = 0; i < 600 && !done(); i++) {
        await quiet();
        if (done()) break;
        await clock.advance(step);
      }
      await quiet();
      assert.ok(done(), "the awaited state never came");
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await fake.close();
    },
  };
}

/** The calls that changed the chat, as [method, ms since `start`]. */
function changes(fake: FakeTelegram, start: number): [string, number][] {
  return fake.calls
    .filter((c) => c.method === "sendMessage" || c.method === "editMessageText")
    .map((c) => [c.method, c.at - start]);
}

function textOf(fake: FakeTelegram, chat: TgChat): string[] {
  return fake.sent(chat.id).map((m) => m.text ?? "");
}

Deno.test("AnswerStream edits a flood of pieces in place about once a second, and the final text arrives", async () => {
  await using t = await setup();
  const start = t.clock.now();
  const s = t.stream();
  const pieces = Array.from({ length: 100 }, (_, i) => `piece${i} `);
  // A piece every 100 ms for ten seconds: ten pieces for each edit the chat may see.
  for (const piece of pieces) {
    s.push(piece);
    await t.quiet();
    await t.clock.advance(100);
  }
  const finishing = s.finish();
  await t.until(() => textOf(t.fake, t.chat).join("") === pieces.join(""));
  await finishing;
  const made = changes(t.fake, start);
  assert.deepEqual(made, [
    ["sendMessage", 0],
    ...Array.from(
      { length: made.length - 1 },
      (_, i): [string, number] => ["editMessageText", (i + 1) * 1000],
    ),
  ]);
  // Ten seconds of pieces, then the final text in its turn: 1 message and 10 edits, never more.
  assert.equal(made.length, 11);
  assert.deepEqual(textOf(t.fake, t.chat), [pieces.join("")]);
  assert.deepEqual(t.kept, [[1]]);
});

Deno.test("AnswerStream waits out a 429's retry_after on an edit and still shows the final text", async () => {
  await using t = await setup();
  const start = t.clock.now();
  const s = t.stream();
  s.push("The first words");
  await t.quiet();
  t.fake.failNext("editMessageText", {
    error_code: 429,
    description: "Too Many Requests: retry after 7",
    parameters: { retry_after: 7 },
  }, { times: 2 });
  s.push(", then more");
  await t.until(() => t.fake.calls.some((c) => c.method === "editMessageText"));
  const finishing = s.finish("The first words, then more, and the end.");
  await t.until(() => textOf(t.fake, t.chat)[0] === "The first words, then more, and the end.");
  await finishing;
  // The edit at 1 s is refused for 7 s; the final text is refused at 8 s for 7 more, and goes at 15 s.
  assert.deepEqual(changes(t.fake, start), [
    ["sendMessage", 0],
    ["editMessageText", 1000],
    ["editMessageText", 8000],
    ["editMessageText", 15000],
  ]);
  assert.deepEqual(t.fake.calls.filter((c) => c.method === "editMessageText").map((c) => c.params.text), [
    "The first words, then more",
    "The first words, then more, and the end.",
    "The first words, then more, and the end.",
  ]);
  assert.equal(t.fake.calls.filter((c) => c.method === "editMessageText").at(-1)!.answer !== undefined, true);
});

Deno.test("AnswerStream waits out a 429 on its first message too, rather than asking again at once", async () => {
  await using t = await setup();
  const start = t.clock.now();
  t.fake.failNext("sendMessage", {
    error_code: 429,
    description: "Too Many Requests: retry after 3",
    parameters: { retry_after: 3 },
  });
  const finishing = t.stream().finish("Hello");
  await t.until(() => textOf(t.fake, t.chat).length === 1);
  await finishing;
  assert.deepEqual(changes(t.fake, start), [["sendMessage", 0], ["sendMessage", 3000]]);
  assert.deepEqual(textOf(t.fake, t.chat), ["Hello"]);
});

Deno.test('AnswerStream takes Telegram\'s "message is not modified" as done: a restart finishing a message that already reads so', async () => {
  await using t = await setup();
  const first = await t.stream().finish("Already whole");
  assert.equal(first, undefined);
  await t.quiet();
  const again = t.stream([1]);
  const finishing = again.finish("Already whole");
  await t.until(() => t.fake.calls.filter((c) => c.method === "editMessageText").length === 1);
  await finishing;
  const edit = t.fake.calls.find((c) => c.method === "editMessageText")!;
  assert.equal(
    (edit.answer as { description?: string }).description?.includes("message is not modified"),
    true,
  );
  assert.deepEqual(textOf(t.fake, t.chat), ["Already whole"]);
  assert.deepEqual(again.sent, [1]);
});

Deno.test("AnswerStream splits a streamed 9,000-character answer into three messages, each final once the next starts", async () => {
  await using t = await setup();
  const words = Array.from({ length: 1800 }, (_, i) => `w${String(i % 1000).padStart(3, "0")}`).join(" ");
  const s = t.stream();
  for (let at = 0; at < words.length; at += 250) {
    s.push(words.slice(at, at + 250));
    await t.quiet();
    await t.clock.advance(250);
  }
  const finishing = s.finish();
  await t.until(() => textOf(t.fake, t.chat).join(" ") === words);
  await finishing;
  const sent = textOf(t.fake, t.chat);
  assert.deepEqual(sent, splitAnswer(words));
  assert.equal(sent.length, 3);
  for (const text of sent) assert.ok(text.length <= TELEGRAM_LIMIT, `${text.length}`);
  // Once message n+1 is sent, message n is never edited again.
  const calls = t.fake.calls.filter((c) => c.method === "sendMessage" || c.method === "editMessageText");
  const idOf = (c: (typeof calls)[number], i: number) =>
    c.method === "sendMessage"
      ? calls.slice(0, i + 1).filter((x) => x.method === "sendMessage").length
      : Number(c.params.message_id);
  const order = calls.map(idOf);
  for (let i = 1; i < order.length; i++) {
    assert.ok(order[i]! >= order[i - 1]!, `calls went back to an earlier message: ${order}`);
  }
  const gaps = calls.slice(1).map((c, i) => c.at - calls[i]!.at);
  assert.ok(gaps.every((g) => g >= EDIT_EVERY_MS), `${gaps}`);
  assert.deepEqual(t.kept, [[1], [1, 2], [1, 2, 3]]);
});

Deno.test("AnswerStream keeps a code block whole in the next message when it would straddle the limit", async () => {
  await using t = await setup();
  const prose = "p".repeat(60) + "\n";
  const code = "```ts\n" + Array.from({ length: 20 }, (_, i) => `const v${i} = ${i};`).join("\n") + "\n```";
  const answer = prose.repeat(64) + "\n" + code + "\n\nThat is all.";
  assert.ok(answer.indexOf("```") < TELEGRAM_LIMIT && answer.lastIndexOf("```") > TELEGRAM_LIMIT);
  const s = t.stream();
  for (let at = 0; at < answer.length; at += 300) {
    s.push(answer.slice(at, at + 300));
    await t.quiet();
    await t.clock.advance(300);
  }
  const finishing = s.finish();
  await t.until(() => textOf(t.fake, t.chat).at(-1)?.endsWith("That is all.") === true);
  await finishing;
  const sent = textOf(t.fake, t.chat);
  assert.equal(sent.length, 2);
  assert.equal(sent[0], prose.repeat(64).trimEnd());
  assert.equal(sent[1], code + "\n\nThat is all.");
});
