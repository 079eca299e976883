import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import { newPairingCode, offsetPath, pairTelegramOwner } from "../../../connections/telegram/mod.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { FakeClock } from "../../support/mod.ts";

async function setup() {
  const fake = await serveFakeTelegram();
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-tg-" });
  const clock = new FakeClock();
  return {
    fake,
    stateDir,
    clock,
    account: { apiRoot: fake.apiRoot, token: new Secret(fake.token) },
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(stateDir, { recursive: true });
    },
  };
}

Deno.test("newPairingCode() gives eight letters of an unambiguous alphabet, different each time", () => {
  const codes = new Set(Array.from({ length: 1000 }, () => newPairingCode()));
  assert.equal(codes.size, 1000);
  for (const code of codes) assert.match(code, /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
});

Deno.test("pairTelegramOwner() pairs only whoever sends the code in a private chat, after strangers, groups, bots and edits", async () => {
  await using t = await setup();
  const code = newPairingCode();
  const owner = t.fake.user("Ada", { last_name: "L", username: "ada" });
  const stranger = t.fake.user("Eve");
  const bot = t.fake.user("Robo", { is_bot: true });
  const group = t.fake.group("Team", [owner, stranger]);
  t.fake.userSays(t.fake.privateChat(stranger), stranger, "hello");
  t.fake.userSays(t.fake.privateChat(stranger), stranger, "AAAA-BBBB");
  t.fake.userSays(group, stranger, code);
  t.fake.userSays(t.fake.privateChat(bot), bot, code);
  const said = t.fake.userSays(t.fake.privateChat(stranger), stranger, "not it");
  const pairing = pairTelegramOwner(t.account, {
    code,
    expiresAt: t.clock.now() + 600_000,
    stateDir: t.stateDir,
    clock: t.clock,
  });
  // The edit comes once the message it edits was read, as a sender's edit does.
  await t.fake.nextCall("getUpdates", (c) => Number(c.params.offset) > 0);
  t.fake.userEdits(said, code);
  t.fake.userSays(t.fake.privateChat(owner), owner, ` ${code.toLowerCase()} `);
  const last = t.fake.pendingUpdates.at(-1)!.update_id;
  assert.deepEqual(await pairing, { id: owner.id, username: "ada", name: "Ada L" });
  assert.equal(await Deno.readTextFile(offsetPath(t.stateDir)), `${last + 1}\n`);
});

Deno.test("pairTelegramOwner() ignores a sender after five wrong codes, even when the sixth is right", async () => {
  await using t = await setup();
  const code = newPairingCode();
  const guesser = t.fake.user("Mallory");
  const chat = t.fake.privateChat(guesser);
  for (let i = 0; i < 5; i++) t.fake.userSays(chat, guesser, `WRNG-000${i}`);
  t.fake.userSays(chat, guesser, code);
  const owner = t.fake.user("Ada");
  t.fake.userSays(t.fake.privateChat(owner), owner, code);
  const paired = await pairTelegramOwner(t.account, {
    code,
    expiresAt: t.clock.now() + 600_000,
    stateDir: t.stateDir,
    clock: t.clock,
  });
  assert.equal(paired.id, owner.id);
});

Deno.test("pairTelegramOwner() never pairs a code sent after it expired", async () => {
  await using t = await setup();
  const code = newPairingCode();
  const owner = t.fake.user("Ada");
  const expiresAt = t.clock.now() + 600_000;
  await t.clock.advance(600_000);
  t.fake.userSays(t.fake.privateChat(owner), owner, code);
  await assert.rejects(
    pairTelegramOwner(t.account, { code, expiresAt, stateDir: t.stateDir, clock: t.clock }),
    { name: "LinkError", code: "TIMEOUT" },
  );
});
