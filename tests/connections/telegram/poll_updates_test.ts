// The fake first: importing it quiets node-fetch's punycode warning before grammy loads.
import { type FakeTelegram, serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import assert from "node:assert/strict";
import { newAgentKey, Secret } from "../../../core/base/mod.ts";
import {
  carryTelegram,
  inboxDir,
  offsetPath,
  POLL_GRACE_MS,
  POLL_SECONDS,
  type TelegramState,
} from "../../../connections/telegram/mod.ts";
import { FakeClock } from "../../support/mod.ts";

/**
 * A carrier polling the fake, its states as they come. No agent answers (its endpoint is a socket
 * nobody listens on): these tests read only how the poll goes and what it keeps, an owner's message
 * staying in the inbox until the agent can be reached.
 */
async function carrier(fake: FakeTelegram, clock: FakeClock, ownerId = 1) {
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const stop = new AbortController();
  const states: TelegramState[] = [];
  const waiters: { count: number; resolve(): void }[] = [];
  const carrying = carryTelegram({
    account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
    stateDir,
    ownerId,
    endpoint: { path: `${stateDir}/none.sock` },
    caller: { agentId: "a1b2c3d4", agentName: "main", key: newAgentKey() },
    clock,
    signal: stop.signal,
    onState(state) {
      states.push(state);
      for (const w of waiters.filter((w) => states.length >= w.count)) w.resolve();
    },
  });
  return {
    stateDir,
    states,
    /** The states so far, as [state, why]. */
    said: () => states.map((s) => [s.state, s.why]),
    /** Resolves once `count` states have come. */
    stateCount(count: number): Promise<void> {
      if (states.length >= count) return Promise.resolve();
      const { promise, resolve } = Promise.withResolvers<void>();
      waiters.push({ count, resolve });
      return promise;
    },
    async [Symbol.asyncDispose]() {
      stop.abort();
      await carrying;
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}

/** The carrier's long poll, held open by the fake. */
function heldPoll(fake: FakeTelegram) {
  return fake.nextCall("getUpdates", (c) => Number(c.params.timeout) === POLL_SECONDS);
}

Deno.test("carryTelegram() goes on polling after a 5xx and a body that is no JSON, keeping the message sent between", async () => {
  const clock = new FakeClock();
  await using fake = await serveFakeTelegram({ clock });
  const owner = fake.user("Ada");
  fake.failNext("getUpdates", { error_code: 502, description: "Bad Gateway" });
  await using c = await carrier(fake, clock, owner.id);
  await c.stateCount(1);
  await clock.advance(1000);
  await c.stateCount(2);
  await heldPoll(fake);
  fake.failNext("getUpdates", { garbage: "<html><body>502 Bad Gateway</body></html>", status: 502 });
  const said = fake.userSays(fake.privateChat(owner), owner, "still there?");
  await c.stateCount(3);
  await clock.advance(1000);
  await c.stateCount(4);
  await heldPoll(fake);
  assert.deepEqual(c.said(), [
    ["reconnecting", "Call to 'getUpdates' failed! (502: Bad Gateway)"],
    ["polling", undefined],
    ["reconnecting", c.states[2]!.why],
    ["polling", undefined],
  ]);
  assert.match(c.states[2]!.why!, /^Network request for 'getUpdates' failed!/);
  assert.ok(!c.states[2]!.why!.includes(fake.token));
  const kept = JSON.parse(
    await Deno.readTextFile(`${inboxDir(c.stateDir)}/${await firstKept(c.stateDir)}.json`),
  );
  assert.deepEqual(kept.update.message, said);
  assert.deepEqual(fake.pendingUpdates, []);
});

async function firstKept(stateDir: string): Promise<number> {
  const names = (await Array.fromAsync(Deno.readDir(inboxDir(stateDir)))).map((e) => e.name);
  assert.equal(names.length, 1, `${names}`);
  return Number(names[0]!.replace(".json", ""));
}

Deno.test("carryTelegram() polls again after its connection drops mid-poll: reconnecting, then polling", async () => {
  const clock = new FakeClock();
  await using fake = await serveFakeTelegram({ clock });
  const owner = fake.user("Ada");
  await using c = await carrier(fake, clock, owner.id);
  await c.stateCount(1);
  await heldPoll(fake);
  // A drop on a reused keep-alive connection is sent again by Deno's client: drop that one too.
  let reconnecting = false;
  const dropped = c.stateCount(2).then(() => reconnecting = true);
  while (!reconnecting) {
    assert.ok(fake.dropConnections() <= 1);
    await Promise.race([dropped, fake.nextCall("getUpdates")]);
  }
  await clock.advance(1000);
  await c.stateCount(3);
  assert.deepEqual(c.said(), [
    ["polling", undefined],
    ["reconnecting", c.states[1]!.why],
    ["polling", undefined],
  ]);
  assert.match(c.states[1]!.why!, /^Network request for 'getUpdates' failed!/);
  fake.userSays(fake.privateChat(owner), owner, "after the drop");
  const update = fake.pendingUpdates[0]!;
  await fake.nextCall("getUpdates", (x) => Number(x.params.offset) === update.update_id + 1);
  assert.equal(await firstKept(c.stateDir), update.update_id);
  assert.equal(await Deno.readTextFile(offsetPath(c.stateDir)), `${update.update_id + 1}\n`);
});

Deno.test("carryTelegram() gives up a getUpdates that never answers once its wait and grace pass, and polls again", async () => {
  // The fake holds polls by the system clock, the carrier's watchdog goes by the fake clock: to the
  // carrier, this poll never answers.
  await using fake = await serveFakeTelegram();
  const clock = new FakeClock();
  await using c = await carrier(fake, clock);
  await c.stateCount(1);
  await heldPoll(fake);
  await clock.advance(POLL_SECONDS * 1000 + POLL_GRACE_MS - 1);
  assert.equal(c.states.length, 1);
  await clock.advance(1);
  await c.stateCount(2);
  await clock.advance(1000);
  await c.stateCount(3);
  assert.deepEqual(c.said(), [
    ["polling", undefined],
    ["reconnecting", "The poll for Telegram's updates stopped answering"],
    ["polling", undefined],
  ]);
  await heldPoll(fake);
});
