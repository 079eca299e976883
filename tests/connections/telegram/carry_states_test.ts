import assert from "node:assert/strict";
import { newAgentKey, Secret } from "../../../core/base/mod.ts";
import { carryTelegram, type TelegramState } from "../../../connections/telegram/mod.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { FakeClock } from "../../support/mod.ts";

Deno.test("carryTelegram() says reconnecting on a 409 and polling again after its backoff, then failed once the token is revoked", async () => {
  await using fake = await serveFakeTelegram();
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const clock = new FakeClock();
  const stop = new AbortController();
  const seen: TelegramState[] = [];
  let next = Promise.withResolvers<void>();
  fake.failNext("getUpdates", {
    error_code: 409,
    description: "Conflict: terminated by other getUpdates request",
  });
  const carrying = carryTelegram({
    account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
    stateDir,
    ownerId: 1,
    endpoint: { path: `${stateDir}/none.sock` },
    caller: { agentId: "a1b2c3d4", agentName: "main", key: newAgentKey() },
    clock,
    signal: stop.signal,
    onState(state) {
      seen.push(state);
      next.resolve();
    },
  });
  try {
    await next.promise;
    next = Promise.withResolvers();
    await clock.advance(1000);
    await next.promise;
    next = Promise.withResolvers();
    fake.revoke(fake.token);
    fake.dropConnections();
    for (let i = 0; seen.at(-1)?.state !== "failed" && i < 60; i++) await clock.advance(1000);
    assert.deepEqual(seen.map(({ state, why }) => ({ state, why })), [
      { state: "reconnecting", why: "Another program reads this bot's updates (409)" },
      { state: "polling", why: undefined },
      ...seen.slice(2, -1).map(({ state, why }) => ({ state, why })),
      { state: "failed", why: "Telegram refused the bot's token: it may have been revoked" },
    ]);
    assert.ok(seen.slice(2, -1).every((s) => s.state === "reconnecting"));
  } finally {
    stop.abort();
    await carrying;
    await Deno.remove(stateDir, { recursive: true });
  }
});
