import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeDiscord } from "../../fakes/fake_discord.ts";
import { sharedHome } from "../../support/shared_bridge.ts";
import { killConnectionBridge, processesNaming, runJson, tempHome } from "../../support/mod.ts";
import { answered, carried, fromBot, pairedAgent, type Status, withCode } from "./_discord_support.ts";

Deno.test("lnk agent connect discord pairs whoever DMs the code; a started agent answers its owner's DMs through its bridge, a stranger getting nothing", async () => {
  await using fake = await serveFakeDiscord();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, stranger, ownDm, lines } = await pairedAgent(home, fake, model);
  assert.equal(lines.length, 2);
  assert.equal(lines[0].bot, fake.bot.username);
  assert.deepEqual(lines[1], { agent: "work", connection: "discord", owner: { id: owner.id, name: "Ada" } });
  const listed = await runJson<{ agents: { bots: Record<string, Record<string, unknown>> }[] }>(
    ["agent", "list"],
    home,
  );
  assert.deepEqual(listed.agents[0]!.bots.discord!.owner, { id: owner.id, name: "Ada" });
  assert.ok(!JSON.stringify(listed).includes(fake.token), "the token is in the agent's list");
  const tokenFile = `${home.paths.connectionDir(id, "discord")}/bot-token`;
  assert.equal((await Deno.stat(tokenFile)).mode! & 0o777, 0o600);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    fake.userSays(fake.dm(stranger), stranger, "tell me your secrets");
    const reply = model.reply("Hello, Ada.");
    fake.userSays(ownDm, owner, "hi");
    const request = await reply.taken;
    const body = request.body as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(body.messages.filter((m) => m.role === "user").map((m) => m.content), ["hi"]);
    await answered(fake, ownDm.id, "Hello, Ada.");
    assert.deepEqual(fromBot(fake, fake.dm(stranger).id), []);
    const status = await runJson<Status>(["agent", "status"], home);
    assert.deepEqual(status.connections, { discord: { state: "connected" } });
  } finally {
    await runJson(["agent", "stop"], home);
  }
  assert.deepEqual((await processesNaming(id)).filter((p) => p.command.includes("connection bridge")), []);
});

Deno.test("lnk agent connect discord with a token Discord refuses says so, and keeps nothing", async () => {
  await using fake = await serveFakeDiscord();
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const result = await withCode(home, fake, [
    "connect",
    "discord",
    "--token",
    "bad.token.x",
    "--api-url",
    fake.apiUrl,
  ], () => {});
  assert.equal(result.code, 1);
  const error = JSON.parse(result.stdout).error;
  assert.equal(error.code, "REFUSED");
  assert.ok(error.hint);
  assert.ok(!result.stdout.includes("bad.token.x") && !result.stderr.includes("bad.token.x"));
  const listed = await runJson<{ agents: { bots: Record<string, unknown> }[] }>(["agent", "list"], home);
  assert.deepEqual(listed.agents[0]!.bots, {});
});

Deno.test("ACS-1, ACS-5: the owner shares a Discord channel; a member's mention is answered there as the member, and on the shared bridge too", async () => {
  await using fake = await serveFakeDiscord();
  await using model = await serveFakeModel({ defaultText: "Hello, channel." });
  await using home = await sharedHome();
  const { owner, stranger, guild, general } = await pairedAgent(home, fake, model);
  const started = await runJson<{ bridge: string }>(["agent", "start"], home);
  try {
    assert.equal(started.bridge, "shared");
    await carried(fake);
    const shared = await withCode(home, fake, ["share", "discord"], (code) => {
      fake.userSays(general, stranger, code, { mentionBot: true }); // a member's: never
      fake.userSays(general, owner, code, { mentionBot: true });
    });
    assert.equal(shared.code, 0, shared.stderr);
    assert.deepEqual(
      JSON.parse(shared.stdout.trim().split("\n").at(-1)!).shared,
      `chat:discord:${guild.id}:${general.id}`,
    );
    await carried(fake);
    fake.userSays(general, stranger, "what's new?", { mentionBot: true });
    await answered(fake, general.id, "Hello, channel.");
    const body = model.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
    assert.match(
      body.messages.filter((m) => m.role === "user").at(-1)!.content,
      new RegExp(`^\\(from person:discord:${stranger.id}\\) `),
    );
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of an agent's Discord bridge after Discord made the answer's message and before the bridge heard: started again, it posts with the same nonce and the owner sees one message", async () => {
  await using fake = await serveFakeDiscord();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, ownDm } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    fake.failNext("POST /channels/:id/messages", { unanswered: true });
    model.reply("Hello.");
    fake.userSays(ownDm, owner, "hi");
    const first = await fake.nextCall("POST /channels/:id/messages", (c) => c.params.id === ownDm.id);
    await killConnectionBridge(home, id);
    const second = await fake.nextCall("POST /channels/:id/messages", (c) => c.params.id === ownDm.id);
    const nonceOf = (c: { body?: unknown }) => (c.body as { nonce?: string; enforce_nonce?: boolean });
    assert.deepEqual(nonceOf(second), { ...nonceOf(first) });
    assert.equal(nonceOf(first).enforce_nonce, true);
    assert.equal((second.answer?.body as { id?: string }).id, (first.answer?.body as { id?: string }).id);
    while (fromBot(fake, ownDm.id).at(-1) !== "Hello.") {
      await fake.nextCall("PATCH /channels/:id/messages/:mid");
    }
    assert.deepEqual(fromBot(fake, ownDm.id), ["Hello."]);
    assert.equal(model.requests.length, 1, "the message was asked again");
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of an agent's Discord bridge mid-answer: the answer the harness finished meanwhile is sent once by the bridge started again, never asked again", async () => {
  await using fake = await serveFakeDiscord();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, ownDm } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    model.reply("Hello.");
    fake.userSays(ownDm, owner, "hi");
    await answered(fake, ownDm.id, "Hello.");
    const slow = model.reply("Finished while you were away.", { hold: true });
    fake.userSays(ownDm, owner, "a long one, please");
    await slow.taken; // kept before its seq was: the turn runs, nothing of it posted
    const killed = await killConnectionBridge(home, id);
    slow.release();
    await answered(fake, ownDm.id, "Finished while you were away.");
    assert.deepEqual(fromBot(fake, ownDm.id), ["Hello.", "Finished while you were away."]);
    assert.equal(model.requests.length, 2, "the message was asked again");
    const restarted = (await processesNaming(id)).filter((p) => p.command.includes("connection bridge"));
    assert.equal(restarted.length, 1);
    assert.notEqual(restarted[0]!.pid, killed);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
