import assert from "node:assert/strict";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import { BOT_USER_ID, type FakeSlack, serveFakeSlack } from "../../fakes/fake_slack.ts";
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

/** Runs `lnk agent connect slack --json`, sending what `send(code)` sends once the code is printed. */
async function connect(home: TempHome, fake: FakeSlack, send: (code: string) => void, tokens?: string[]) {
  const args = [
    "agent",
    "connect",
    "slack",
    ...(tokens ?? ["--bot-token", fake.botToken, "--app-token", fake.appToken]),
    "--api-url",
    fake.apiUrl,
    "--json",
  ];
  return await runCli(args, home, {
    onPrint: (value) => {
      const line = value as { code?: string };
      if (typeof line.code === "string") send(line.code);
    },
  });
}

/** The texts the app has in a conversation, oldest first. */
function fromBot(fake: FakeSlack, channel: string): string[] {
  return fake.messages(channel).filter((m) => m.user === BOT_USER_ID || m.bot_id).map((m) => m.text);
}

Deno.test("lnk agent connect slack pairs whoever DMs the code, and a started agent answers its owner's DMs through its bridge, a stranger getting nothing", async () => {
  await using fake = await serveFakeSlack();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const owner = fake.user("ada");
  const stranger = fake.user("eve");
  const ownDm = fake.dm(owner);
  const paired = await connect(home, fake, (code) => {
    fake.userSays(fake.dm(stranger), stranger, "000000");
    fake.userSays(fake.channel("general", [owner, stranger]), stranger, code);
    fake.userSays(ownDm, owner, code);
  });
  assert.equal(paired.code, 0, paired.stderr);
  const lines = paired.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.at(-1).owner.id, owner.id);
  const listed = await runJson<{ agents: { bots: Record<string, Record<string, unknown>> }[] }>(
    ["agent", "list"],
    home,
  );
  assert.ok(
    !JSON.stringify(listed).includes(fake.botToken) && !JSON.stringify(listed).includes(fake.appToken),
  );
  await runJson(["agent", "start"], home);
  try {
    fake.userSays(fake.dm(stranger), stranger, "tell me your secrets");
    const reply = model.reply("Hello, Ada.");
    fake.userSays(ownDm, owner, "hi");
    const request = await reply.taken;
    const body = request.body as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(body.messages.filter((m) => m.role === "user").map((m) => m.content), ["hi"]);
    await fake.nextCall("chat.postMessage", (c) => c.params.channel === ownDm.id);
    while (fromBot(fake, ownDm.id).at(-1) !== "Hello, Ada.") await fake.nextCall("chat.update");
    assert.deepEqual(fromBot(fake, fake.dm(stranger).id), []);
    const status = await runJson<Status>(["agent", "status"], home);
    assert.deepEqual(status.connections, { slack: { state: "connected" } });
  } finally {
    await runJson(["agent", "stop"], home);
  }
  assert.deepEqual((await processesNaming(id)).filter((p) => p.command.includes("connection bridge")), []);
});

Deno.test("lnk agent connect slack with a token Slack refuses says which, and keeps nothing", async () => {
  await using fake = await serveFakeSlack();
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const result = await connect(home, fake, () => {}, [
    "--bot-token",
    "xoxb-wrong",
    "--app-token",
    fake.appToken,
  ]);
  assert.equal(result.code, 1);
  assert.deepEqual(JSON.parse(result.stdout).error, {
    code: "REFUSED",
    message: "Cannot use the Slack bot token: Slack refused the bot token (xoxb-) (invalid_auth)",
    hint: "Copy the Bot User OAuth Token from the app's OAuth & Permissions page, then connect Slack again",
  });
  assert.ok(!result.stdout.includes("xoxb-wrong") && !result.stderr.includes("xoxb-wrong"));
  const listed = await runJson<{ agents: { bots: Record<string, unknown> }[] }>(["agent", "list"], home);
  assert.deepEqual(listed.agents[0]!.bots, {});
});

/** An agent on the fake model, paired on Slack with its owner ada: what the carrying tests start from. */
async function pairedAgent(home: TempHome, fake: FakeSlack, model: FakeModel) {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const owner = fake.user("ada");
  const ownDm = fake.dm(owner);
  const paired = await connect(home, fake, (code) => fake.userSays(ownDm, owner, code));
  assert.equal(paired.code, 0, paired.stderr);
  return { id, owner, ownDm };
}

/** Waits until the app's last message in the DM reads `text`. */
async function answered(fake: FakeSlack, channel: string, text: string): Promise<void> {
  while (fromBot(fake, channel).at(-1) !== text) await fake.nextCall("chat.update");
}

Deno.test("kill -9 of an agent's Slack bridge mid-answer: its agent's bridge starts it again, and the answer the harness finished meanwhile is sent once, never asked again", async () => {
  await using fake = await serveFakeSlack();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, ownDm } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    model.reply("Hello.");
    fake.userSays(ownDm, owner, "hi");
    await fake.nextCall("chat.postMessage", (c) => c.params.channel === ownDm.id);
    await answered(fake, ownDm.id, "Hello.");
    const slow = model.reply("Finished while you were away.", { hold: true });
    fake.userSays(ownDm, owner, "a long one, please");
    await slow.taken; // kept and acked: the turn runs
    await killConnectionBridge(home, id);
    slow.release();
    await fake.nextCall("chat.postMessage", (c) => c.params.text === "Finished while you were away.");
    assert.deepEqual(fromBot(fake, ownDm.id), ["Hello.", "Finished while you were away."]);
    assert.equal(model.requests.length, 2, "the message was asked again");
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("on the shared bridge, an agent answers its Slack owner the same way, and stopping it stops its connection", async () => {
  await using fake = await serveFakeSlack();
  await using model = await serveFakeModel();
  await using home = await sharedHome();
  const { id, owner, ownDm } = await pairedAgent(home, fake, model);
  const started = await runJson<{ bridge: string }>(["agent", "start"], home);
  try {
    assert.equal(started.bridge, "shared");
    model.reply("Hello from the shared bridge.");
    fake.userSays(ownDm, owner, "hi");
    await fake.nextCall("chat.postMessage", (c) => c.params.channel === ownDm.id);
    await answered(fake, ownDm.id, "Hello from the shared bridge.");
  } finally {
    await runJson(["agent", "stop"], home);
  }
  assert.deepEqual((await processesNaming(id)).filter((p) => p.command.includes("connection bridge")), []);
});
