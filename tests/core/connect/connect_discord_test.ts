import assert from "node:assert/strict";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import { type FakeDiscord, serveFakeDiscord } from "../../fakes/fake_discord.ts";
import { sharedHome } from "../../support/shared_bridge.ts";
import {
  killConnectionBridge,
  processesNaming,
  runCli,
  runJson,
  type TempHome,
  tempHome,
} from "../../support/mod.ts";

type Status = { state: string; connections: Record<string, { state: string; why?: string }> };

/**
 * Runs `lnk agent <args> --json` against the fake, `send(code)` told the code once it is printed
 * and the pairing's gateway session is ready: Discord delivers nothing sent before a bot connects,
 * and a person reads the code before they type it.
 */
async function withCode(home: TempHome, fake: FakeDiscord, args: string[], send: (code: string) => void) {
  const sessions = fake.sessions.length;
  let sent: Promise<void> = Promise.resolve();
  const result = await runCli(["agent", ...args, "--json"], home, {
    onPrint: (value) => {
      const code = (value as { code?: unknown }).code;
      if (typeof code !== "string") return;
      sent = fake.when(() => fake.sessions.length > sessions).then(() => send(code));
    },
  });
  await sent;
  return result;
}

/**
 * Waits until the bridge's gateway session is live: Discord delivers nothing sent while a bot is not
 * connected (the connection catches up from a channel's history only for channels it knows).
 */
async function carried(fake: FakeDiscord): Promise<void> {
  await fake.when(() => fake.sessions.some((s) => s.live));
}

/** The bot's messages in a channel as they now read, oldest first. */
function fromBot(fake: FakeDiscord, channel: string): string[] {
  return fake.messages(channel).filter((m) => m.author.id === fake.bot.id).map((m) => m.content);
}

/** Waits until the bot's last message in the channel reads `text`: posted, then edited as it streams. */
async function answered(fake: FakeDiscord, channel: string, text: string): Promise<void> {
  await fake.nextCall("POST /channels/:id/messages", (c) => c.params.id === channel);
  while (fromBot(fake, channel).at(-1) !== text) await fake.nextCall("PATCH /channels/:id/messages/:mid");
}

/** An agent on the fake model, paired on Discord with its owner Ada. */
async function pairedAgent(home: TempHome, fake: FakeDiscord, model: FakeModel) {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const owner = fake.user("ada");
  const stranger = fake.user("eve");
  const ownDm = fake.dm(owner);
  const guild = fake.guild("Home");
  const general = fake.channel(guild, "general");
  const paired = await withCode(
    home,
    fake,
    ["connect", "discord", "--token", fake.token, "--api-url", fake.apiUrl],
    (code) => {
      fake.userSays(fake.dm(stranger), stranger, "000000"); // a guess: never the owner
      fake.userSays(general, stranger, code, { mentionBot: true }); // the code in a channel: never
      fake.userSays(ownDm, owner, code);
    },
  );
  assert.equal(paired.code, 0, paired.stderr);
  return {
    id,
    owner,
    stranger,
    ownDm,
    guild,
    general,
    lines: paired.stdout.trim().split("\n").map((l) => JSON.parse(l)),
  };
}

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
