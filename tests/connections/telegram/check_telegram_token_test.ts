import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import { checkTelegramToken } from "../../../connections/telegram/mod.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";

Deno.test("checkTelegramToken() says which bot the token is", async () => {
  await using fake = await serveFakeTelegram();
  const me = await checkTelegramToken({ apiRoot: fake.apiRoot, token: new Secret(fake.token) });
  assert.deepEqual(me, { id: fake.bot.id, username: fake.bot.username });
});

Deno.test("checkTelegramToken() refuses a token Telegram refuses, naming no token", async () => {
  await using fake = await serveFakeTelegram();
  fake.revoke(fake.token);
  const err = await checkTelegramToken({ apiRoot: fake.apiRoot, token: new Secret(fake.token) }).catch((e) =>
    e
  );
  assert.equal(err.code, "REFUSED");
  assert.equal(err.message, "Cannot use the Telegram token: Telegram refused it");
  assert.equal(
    err.hint,
    "Copy the bot's token again from @BotFather (/token), then connect Telegram to the agent again",
  );
  assert.ok(!JSON.stringify([err.message, err.hint, err.cause?.message]).includes(fake.token));
});

Deno.test("checkTelegramToken() names an API root that answers garbage, without the token", async () => {
  await using fake = await serveFakeTelegram();
  fake.failNext("getMe", { garbage: "<html>Bad gateway</html>", status: 502 });
  const err = await checkTelegramToken({ apiRoot: fake.apiRoot, token: new Secret(fake.token) }).catch((e) =>
    e
  );
  assert.equal(err.code, "SERVICE_FAILED");
  assert.equal(
    err.message,
    `Cannot use the Telegram API at "${fake.apiRoot}": it answers, but not as the Bot API`,
  );
  assert.ok(!String(err.cause?.message).includes(fake.token), err.cause?.message);
});

Deno.test("checkTelegramToken() names an API root where nothing answers, without the token", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const apiRoot = `http://127.0.0.1:${listener.addr.port}`;
  listener.close();
  const token = "123456:SECRET-never-shown";
  const err = await checkTelegramToken({ apiRoot, token: new Secret(token) }).catch((e) => e);
  assert.equal(err.code, "SERVICE_FAILED");
  assert.equal(
    err.message,
    `Cannot use the Telegram token: nothing answers as the Telegram API at "${apiRoot}"`,
  );
  assert.ok(!String(err.cause?.message).includes(token), err.cause?.message);
  assert.ok(String(err.cause?.message).includes("[redacted]"), err.cause?.message);
});
