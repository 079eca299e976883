import assert from "node:assert/strict";
import { join } from "node:path";
import { holdAnswer } from "../../../connections/link/mod.ts";
import { MAX_RETRY_MS, SIGNAL_LIMIT } from "../../../connections/signal/mod.ts";
import { advanceUntil, sentCount, signalCarrier, textsTo, untilFiles } from "./_support.ts";

function heldLeft(stateDir: string): string[] {
  return [...Deno.readDirSync(join(stateDir, "held"))].map((e) => e.name);
}

Deno.test("carrySignal() sends the answers held for the connection to the owner's number only, split at 2,000, oldest first", async () => {
  let guest!: ReturnType<typeof t.fake.person>;
  await using t = await signalCarrier({
    access: (fake) => {
      guest = fake.person("Grace");
      return { chats: new Set(), persons: new Set([guest.number]) };
    },
  });
  await t.fake.streamsWhen((s) => s.open === 1);
  const long = "word ".repeat(500).trim();
  const held = join(t.stateDir, "held");
  await holdAnswer(held, { thread: `signal:${t.owner.number}`, text: "A reminder", at: 1 });
  // The harness named the guest's thread: it goes to the owner all the same (SCH-3).
  await holdAnswer(held, { thread: `signal:${guest.number}`, text: long, at: 2 });
  await sentCount(t.fake, t.owner.number, 3);
  await untilFiles(held, () => heldLeft(t.stateDir).length === 0);
  const sent = textsTo(t.fake, t.owner.number);
  assert.equal(sent[0], "A reminder");
  assert.equal(sent.slice(1).join(" "), long);
  assert.ok(sent.every((m) => m.length <= SIGNAL_LIMIT));
  assert.deepEqual(t.fake.sent(guest), []);
  assert.deepEqual(t.fake.typing(t.owner), []);
});

Deno.test("carrySignal() keeps a held answer the daemon refuses to send and sends it once when it can", async () => {
  await using t = await signalCarrier();
  await t.fake.streamsWhen((s) => s.open === 1);
  t.fake.failNext("send", { rateLimited: 60 });
  const refused = t.fake.nextCall("send");
  await holdAnswer(join(t.stateDir, "held"), { thread: `signal:${t.owner.number}`, text: "Later", at: 1 });
  assert.equal(((await refused).answer as { error: { code: number } }).error.code, -5);
  assert.deepEqual(heldLeft(t.stateDir).length, 1);
  await advanceUntil(t.clock, () => t.fake.sent(t.owner).length === 1);
  await untilFiles(join(t.stateDir, "held"), () => heldLeft(t.stateDir).length === 0);
  assert.deepEqual(textsTo(t.fake, t.owner.number), ["Later"]);
});

Deno.test("carrySignal() says failed with why when the daemon will not stream the account, and tries again at the longest wait", async () => {
  // It lists the number, so the account is not gone: the refusal may pass.
  await using t = await signalCarrier({
    daemon: { multiAccount: true, otherAccounts: ["+15559999999"] },
    number: "+15559999999",
  });
  await t.stateCount(1);
  const why = "the daemon will not stream this account's messages: HTTP 400";
  assert.deepEqual(t.states.map((s) => [s.state, s.why]), [["failed", why]]);
  await t.clock.advance(MAX_RETRY_MS - 1);
  assert.equal(t.fake.streams.ever, 0);
  await t.clock.advance(1);
  await t.stateCount(2);
  assert.deepEqual(t.states.map((s) => [s.state, s.why, s.at - t.states[0]!.at]), [
    ["failed", why, 0],
    ["failed", why, MAX_RETRY_MS],
  ]);
  assert.deepEqual(t.fake.streams, { open: 0, ever: 0, silenced: 0 });
});
