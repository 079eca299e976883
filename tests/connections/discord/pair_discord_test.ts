import assert from "node:assert/strict";
import { isLinkError, Secret } from "../../../core/base/mod.ts";
import { newPairingCode } from "../../../connections/chat/mod.ts";
import { pairDiscordOwner, pairDiscordShare, PAIRING_STRIKES } from "../../../connections/discord/mod.ts";
import { serveFakeDiscord } from "../../fakes/fake_discord.ts";
import { FakeClock } from "../../support/mod.ts";
import { accountOf, WIDE_RATE_LIMIT } from "./_support.ts";

const CODE = newPairingCode();
const WRONG = "ABCD-EFGH";

async function pairing() {
  const fake = await serveFakeDiscord({ rateLimit: WIDE_RATE_LIMIT });
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-discord-pair-" });
  const clock = new FakeClock();
  return {
    fake,
    stateDir,
    clock,
    expiresAt: clock.now() + 600_000,
    /** Resolves once the pairing's socket is READY: messages from now on reach it. */
    identified: () => fake.when(() => fake.identifies.length === 1 && fake.sockets.open === 1),
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}

Deno.test("pairDiscordOwner() pairs whoever DMs the code; never a code in a channel, from a bot, or after five wrong codes", async () => {
  await using t = await pairing();
  const { fake } = t;
  const ada = fake.user("ada", { global_name: "Ada L." });
  const eve = fake.user("eve");
  const robot = fake.user("robot", { bot: true });
  const general = fake.channel(fake.guild("home"), "general");
  const paired = pairDiscordOwner(accountOf(fake), {
    code: CODE,
    expiresAt: t.expiresAt,
    stateDir: t.stateDir,
    clock: t.clock,
  });
  await t.identified();
  fake.userSays(general, eve, CODE);
  fake.userSays(general, eve, CODE, { mentionBot: true });
  fake.userSays(fake.dm(robot), robot, CODE);
  for (let i = 0; i < PAIRING_STRIKES; i++) fake.userSays(fake.dm(eve), eve, WRONG);
  fake.userSays(fake.dm(eve), eve, CODE);
  fake.userSays(fake.dm(ada), ada, CODE);
  assert.deepEqual(await paired, { id: ada.id, name: "Ada L." });
  assert.deepEqual(fake.sockets.open, 0);
});

Deno.test("pairDiscordOwner() is TIMEOUT once the code expired, and a code sent then never pairs", async () => {
  await using t = await pairing();
  const ada = t.fake.user("ada");
  const paired = pairDiscordOwner(accountOf(t.fake), {
    code: CODE,
    expiresAt: t.expiresAt,
    stateDir: t.stateDir,
    clock: t.clock,
  });
  paired.catch(() => {});
  await t.identified();
  await t.clock.advance(600_000);
  t.fake.userSays(t.fake.dm(ada), ada, CODE);
  await assert.rejects(paired, (err) => {
    assert.ok(isLinkError(err, "TIMEOUT"));
    assert.equal(err.message, "Cannot pair the owner on Discord: nobody sent the code before it expired");
    return true;
  });
});

Deno.test("pairDiscordOwner() is REFUSED for a token Discord does not take", async () => {
  await using t = await pairing();
  const token = t.fake.addToken();
  t.fake.revoke(token);
  await assert.rejects(
    pairDiscordOwner({ apiUrl: t.fake.apiUrl, token: new Secret(token) }, {
      code: CODE,
      expiresAt: t.expiresAt,
      stateDir: t.stateDir,
      clock: t.clock,
    }),
    (err) => {
      assert.ok(isLinkError(err, "REFUSED"));
      assert.equal(
        err.message,
        "Cannot pair the owner on Discord: Discord refused the token: it may have been revoked or reset",
      );
      assert.ok(!err.message.includes(token));
      return true;
    },
  );
});

Deno.test("pairDiscordShare() shares <guild>:<channel> where the owner mentions the bot with the code; never another's mention or a DM", async () => {
  await using t = await pairing();
  const { fake } = t;
  const ada = fake.user("ada");
  const eve = fake.user("eve");
  const guild = fake.guild("home");
  const general = fake.channel(guild, "general");
  const shared = pairDiscordShare(accountOf(fake), {
    code: CODE,
    expiresAt: t.expiresAt,
    ownerId: ada.id,
    stateDir: t.stateDir,
    clock: t.clock,
  });
  await t.identified();
  fake.userSays(general, eve, CODE, { mentionBot: true });
  fake.userSays(fake.dm(ada), ada, CODE);
  fake.userSays(general, ada, CODE);
  fake.userSays(general, ada, CODE, { mentionBot: true });
  assert.deepEqual(await shared, { chat: `${guild.id}:${general.id}`, title: "#general" });
});

Deno.test("pairDiscordShare() is TIMEOUT once the code expired", async () => {
  await using t = await pairing();
  const ada = t.fake.user("ada");
  const general = t.fake.channel(t.fake.guild("home"), "general");
  const shared = pairDiscordShare(accountOf(t.fake), {
    code: CODE,
    expiresAt: t.expiresAt,
    ownerId: ada.id,
    stateDir: t.stateDir,
    clock: t.clock,
  });
  shared.catch(() => {});
  await t.identified();
  await t.clock.advance(600_000);
  t.fake.userSays(general, ada, CODE, { mentionBot: true });
  await assert.rejects(shared, (err) => {
    assert.ok(isLinkError(err, "TIMEOUT"));
    assert.equal(
      err.message,
      "Cannot share a Discord channel: the owner did not mention the bot with the code before it expired",
    );
    return true;
  });
});
