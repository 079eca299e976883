import assert from "node:assert/strict";
import { MAX_RETRY_MS } from "../../../connections/signal/mod.ts";
import { inboxEmpty, signalCarrier } from "./_support.ts";

const WHY = (number: string) =>
  `Signal no longer knows the account ${number}: it was registered elsewhere or deleted. ` +
  "Register or link it again with signal-cli, then run `lnk agent connect signal`";

Deno.test("carrySignal() says failed with what to do when the daemon drops its deregistered account, and never tries again", async () => {
  await using t = await signalCarrier({ daemon: { multiAccount: true } });
  await t.stateCount(1);
  t.fake.deregister();
  await t.stateCount(3);
  assert.deepEqual(t.states.map((s) => [s.state, s.why]), [
    ["connected", undefined],
    ["reconnecting", "the daemon closed the event stream"],
    ["failed", WHY(t.fake.account)],
  ]);
  const calls = t.fake.calls.length;
  for (let i = 0; i < 10; i++) await t.clock.advance(MAX_RETRY_MS);
  assert.deepEqual(t.fake.streams, { open: 0, ever: 1, silenced: 0 });
  assert.equal(t.fake.calls.length, calls);
  assert.equal(t.states.length, 3);
});

Deno.test("carrySignal() says failed when a send is refused for a deregistered account, the message kept and asked of the model once", async () => {
  await using t = await signalCarrier();
  await t.stateCount(1);
  t.fake.deregister();
  const reply = t.model.reply("Hello, Ada");
  const refused = t.fake.nextCall("send");
  t.fake.personSays(t.owner, "hi");
  await reply.done;
  assert.deepEqual(((await refused).answer as { error: unknown }).error, {
    code: -32603,
    message: "Failed to send message: [401] Authorization failed! (AuthorizationFailedException) " +
      "(UnexpectedErrorException)",
    data: null,
  });
  await t.stateCount(2);
  assert.deepEqual(t.states.at(-1)?.why, WHY(t.fake.account));
  assert.equal(t.states.at(-1)?.state, "failed");
  for (let i = 0; i < 10; i++) await t.clock.advance(MAX_RETRY_MS);
  assert.equal(t.fake.calls.filter((c) => c.method === "send").length, 1);
  assert.equal(t.model.requests.length, 1);
  assert.equal(t.states.length, 2);
  assert.equal(inboxEmpty(t.stateDir), false, "the message was let go unanswered");
});
