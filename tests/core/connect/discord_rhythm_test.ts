/**
 * Discord under a real gateway's rhythm, end to end: `lnk agent connect discord`, `lnk agent start`, and
 * the connection bridge holding the gateway through @discordjs/ws at a heartbeat interval of 5 s and of
 * Discord's own 41.25 s, through each close Discord sends. Each message is answered exactly once.
 */
import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeDiscord } from "../../fakes/fake_discord.ts";
import { runJson, tempHome } from "../../support/mod.ts";
import {
  answered,
  carried,
  fromBot,
  pairedAgent,
  type Status,
  untilConnectionState,
} from "./_discord_support.ts";

for (const heartbeatIntervalMs of [5_000, 41_250]) {
  Deno.test(`Discord at a heartbeat of ${heartbeatIntervalMs} ms: the owner's DM right after the start is answered once`, async () => {
    await using fake = await serveFakeDiscord({ heartbeatIntervalMs });
    await using model = await serveFakeModel({ defaultText: "Here." });
    await using home = await tempHome();
    const { owner, ownDm } = await pairedAgent(home, fake, model, {
      // In the DM's history from before the pairing: never answered.
      beforePairing: (owner, dm) => void fake.userSays(dm, owner, "something from before Link"),
    });
    await runJson(["agent", "start"], home);
    try {
      // Sent as the person would, the moment start returns: before or after the bridge connects.
      fake.userSays(ownDm, owner, "are you there?");
      await answered(fake, ownDm.id, "Here.");
      assert.deepEqual(fromBot(fake, ownDm.id), ["Here."]);
      assert.equal(model.requests.length, 1);
    } finally {
      await runJson(["agent", "stop"], home);
    }
  });
}

for (const code of [4000, 4008, 1001]) {
  Deno.test(`Discord closes the session with ${code}: the bridge resumes with its last seq, and a DM sent while away is answered once`, async () => {
    await using fake = await serveFakeDiscord({ heartbeatIntervalMs: 5_000 });
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const { owner, ownDm } = await pairedAgent(home, fake, model);
    await runJson(["agent", "start"], home);
    try {
      await carried(fake);
      model.reply("One.");
      fake.userSays(ownDm, owner, "first");
      await answered(fake, ownDm.id, "One.");
      const resumes = fake.resumes.length;
      const seq = fake.sessions.at(-1)!.seq;
      assert.equal(fake.closeSockets(code), 1);
      model.reply("Two.");
      fake.userSays(ownDm, owner, "while you were away");
      await fake.when(() => fake.resumes.length > resumes);
      const resume = fake.resumes.at(-1)!;
      assert.equal(resume.resumed, true);
      assert.ok(resume.seq >= seq - 1, `resumed at ${resume.seq}, the session was at ${seq}`);
      await answered(fake, ownDm.id, "Two.");
      assert.deepEqual(fromBot(fake, ownDm.id), ["One.", "Two."]);
      assert.equal(model.requests.length, 2);
    } finally {
      await runJson(["agent", "stop"], home);
    }
  });
}

Deno.test("Discord closes with 4004: the connection stops and lnk agent status says the token is bad", async () => {
  await using fake = await serveFakeDiscord({ heartbeatIntervalMs: 5_000 });
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    fake.revoke(fake.token);
    const why = await untilConnectionState(home, id, "failed");
    assert.equal(why, "Discord refused the token: it may have been revoked or reset");
    const identifies = fake.identifies.length;
    const status = await runJson<Status>(["agent", "status"], home);
    assert.equal(status.connections.discord!.state, "failed");
    assert.equal(fake.identifies.length, identifies, "it went on identifying with a refused token");
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("Discord's heartbeat ACKs stop (a zombie connection): the bridge reconnects, resumes, and answers", async () => {
  await using fake = await serveFakeDiscord({ heartbeatIntervalMs: 5_000 });
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { owner, ownDm } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    const resumes = fake.resumes.length;
    assert.equal(fake.stopAcking(), 1);
    model.reply("Still here.");
    fake.userSays(ownDm, owner, "hello?");
    await fake.when(() => fake.resumes.length > resumes);
    await answered(fake, ownDm.id, "Still here.");
    assert.deepEqual(fromBot(fake, ownDm.id), ["Still here."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
