import assert from "node:assert/strict";
import { advanceUntil, carrier, inboxEmpty, userTexts } from "./_support.ts";

Deno.test("carryDiscord() after a dropped socket resumes, and a DM sent meanwhile is replayed and answered once", async () => {
  await using t = await carrier({ fake: { echoBotMessages: false } });
  const reply = t.model.reply("Answered after the resume");
  assert.equal(t.fake.dropSockets(), 1);
  t.fake.userSays(t.dm, t.owner, "are you there?");
  await t.fake.when(() => t.fake.resumes.length === 1 && t.fake.resumes[0]!.resumed);
  await reply.done;
  await advanceUntil(
    t.clock,
    () => t.answers().at(-1) === "Answered after the resume" && inboxEmpty(t.stateDir),
  );
  assert.deepEqual(t.answers(), ["Answered after the resume"]);
  assert.equal(t.model.requests.length, 1);
  assert.deepEqual(userTexts(t.model, 0), ["are you there?"]);
  assert.equal(t.fake.identifies.length, 1);
  assert.equal(t.fake.sockets.open, 1);
  assert.deepEqual(t.states.map((s) => s.state), ["connected", "reconnecting", "connected"]);
});

Deno.test("carryDiscord() after an INVALID_SESSION identifies afresh and answers what comes next", async () => {
  await using t = await carrier({ fake: { echoBotMessages: false } });
  assert.equal(t.fake.invalidateSession(false), 1);
  await advanceUntil(t.clock, () => t.fake.identifies.length === 2 && t.fake.sockets.open === 1);
  await t.stateWhen((s) => s.state === "reconnecting");
  const reply = t.model.reply("A new session");
  t.fake.userSays(t.dm, t.owner, "hello again");
  await reply.done;
  await advanceUntil(t.clock, () => t.answers().at(-1) === "A new session" && inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), ["A new session"]);
  assert.equal(t.fake.resumes.filter((r) => r.resumed).length, 0);
});

Deno.test("carryDiscord() notices a zombie socket (heartbeats never ACKed), resumes and answers", async () => {
  await using t = await carrier({ fake: { echoBotMessages: false, heartbeatIntervalMs: 100 } });
  assert.equal(t.fake.stopAcking(), 1);
  const zombie = await t.stateWhen((s) => s.state === "reconnecting");
  assert.match(zombie.why ?? "", /Zombie connection/);
  await t.fake.when(() => t.fake.resumes.some((r) => r.resumed));
  const reply = t.model.reply("Still here");
  t.fake.userSays(t.dm, t.owner, "ping");
  await reply.done;
  await advanceUntil(t.clock, () => t.answers().at(-1) === "Still here" && inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), ["Still here"]);
});

Deno.test("carryDiscord() waits out a 429 on an edit and the final text arrives", async () => {
  await using t = await carrier({ fake: { echoBotMessages: false } });
  t.fake.failNext("PATCH /channels/:id/messages/:mid", { rateLimited: 1 });
  const reply = t.model.reply("Slow and steady wins", { chunks: ["Slow ", "and steady ", "wins"] });
  t.fake.userSays(t.dm, t.owner, "go");
  await reply.done;
  const edits = () => t.fake.calls.filter((c) => c.route === "PATCH /channels/:id/messages/:mid");
  await advanceUntil(t.clock, () => edits().some((c) => c.answer?.status === 429));
  await t.fake.when(() => t.answers().at(-1) === "Slow and steady wins");
  await advanceUntil(t.clock, () => inboxEmpty(t.stateDir));
  assert.deepEqual(t.answers(), ["Slow and steady wins"]);
  assert.equal(edits()[0]!.answer?.status, 429);
  assert.deepEqual(edits().slice(1).map((c) => c.answer?.status), edits().slice(1).map(() => 200));
  assert.deepEqual(edits().at(-1)?.body, { content: "Slow and steady wins" });
  assert.deepEqual(t.fake.rateLimitViolations, []);
});

Deno.test("carryDiscord() says failed, with why, when Discord revokes the token (close 4004), and stops", async () => {
  await using t = await carrier({ fake: { echoBotMessages: false } });
  t.fake.revoke(t.fake.token);
  await t.stateWhen((s) => s.state === "failed");
  assert.deepEqual(t.states.map(({ state, why }) => ({ state, why })), [
    { state: "connected", why: undefined },
    { state: "failed", why: "Discord refused the token: it may have been revoked or reset" },
  ]);
  await t.fake.when(() => t.fake.sockets.open === 0);
  assert.equal(t.fake.sockets.ever, 1);
  assert.deepEqual(t.fake.identifies.length, 1);
});
