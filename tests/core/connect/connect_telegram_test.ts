import assert from "node:assert/strict";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import { type FakeTelegram, serveFakeTelegram, type TgChat, type TgUser } from "../../fakes/fake_telegram.ts";
import { sharedHome } from "../../support/shared_bridge.ts";
import { sendOnWayIn } from "../../../core/agent_bridge/mod.ts";
import { inboxDir } from "../../../connections/telegram/mod.ts";
import {
  killConnectionBridge,
  processesNaming,
  runCli,
  runJson,
  runLnk,
  type TempHome,
  tempHome,
} from "../../support/mod.ts";

type Status = { state: string; connections: Record<string, { state: string; why?: string }> };

/** Runs `lnk agent connect telegram --json`, sending what `send(code)` sends once the code is printed. */
async function connect(
  home: TempHome,
  fake: FakeTelegram,
  send: (code: string) => void,
  extra: string[] = [],
) {
  const args = ["agent", "connect", "telegram", "--token", fake.token, "--api-root", fake.apiRoot, "--json"];
  return await runCli([...args, ...extra], home, {
    onPrint: (value) => {
      const line = value as { code?: string };
      if (typeof line.code === "string") send(line.code);
    },
  });
}

/** Waits until the chat's one answer reads `text`: sent, then edited in place as it streams. */
async function answered(fake: FakeTelegram, chatId: number, text: string): Promise<void> {
  await fake.nextCall("sendMessage", (c) => c.params.chat_id === chatId);
  while (fake.sent(chatId).at(-1)?.text !== text) await fake.nextCall("editMessageText");
}

/**
 * Until the connection's bridge has let go of every update it kept: each answered and its sending
 * recorded. A kill -9 before then could fall between a sendMessage Telegram took and the record of
 * it, the one step no bridge can make once-only (the Bot API takes no key to tell a send again).
 */
async function inboxLetGo(home: TempHome, id: string): Promise<void> {
  const dir = inboxDir(home.paths.connectionDir(id, "telegram"));
  await Deno.mkdir(dir, { recursive: true });
  using watcher = Deno.watchFs(dir);
  const changes = watcher[Symbol.asyncIterator]();
  while ([...Deno.readDirSync(dir)].some((e) => e.name.endsWith(".json"))) await changes.next();
}

/** An agent on the fake model, paired on Telegram with its owner Ada: what the carrying tests start from. */
async function pairedAgent(
  home: TempHome,
  fake: FakeTelegram,
  model: FakeModel,
): Promise<{ id: string; owner: TgUser; ownChat: TgChat }> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const owner = fake.user("Ada");
  const ownChat = fake.privateChat(owner);
  const paired = await connect(home, fake, (code) => fake.userSays(ownChat, owner, code));
  assert.equal(paired.code, 0, paired.stderr);
  return { id, owner, ownChat };
}

Deno.test("lnk agent connect telegram pairs whoever sends the code in a private chat, keeps the token outside the agent's settings, and lists the bot", async () => {
  await using fake = await serveFakeTelegram();
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const owner = fake.user("Ada", { username: "ada" });
  const stranger = fake.user("Eve");
  const result = await connect(home, fake, (code) => {
    fake.userSays(fake.privateChat(stranger), stranger, "000000"); // a guess: never the owner
    fake.userSays(fake.group("Team", [owner, stranger]), stranger, code); // the code in a group: never
    fake.userSays(fake.privateChat(owner), owner, code);
  });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.match(lines[0].code, /^[A-Z0-9-]{6,}$/);
  assert.equal(lines[0].bot, fake.bot.username);
  assert.ok(Date.parse(lines[0].expires) > Date.now());
  assert.deepEqual(lines[1], {
    agent: "work",
    connection: "telegram",
    owner: { id: owner.id, name: "Ada", username: "ada" },
  });
  const listed = await runJson<{ agents: { bots: Record<string, Record<string, unknown>> }[] }>(
    ["agent", "list"],
    home,
  );
  const bot = listed.agents[0]!.bots.telegram!;
  assert.deepEqual(bot.owner, { id: owner.id, name: "Ada", username: "ada" });
  assert.equal(bot.api_root, fake.apiRoot);
  assert.ok(!JSON.stringify(listed).includes(fake.token), "the token is in the agent's list");
  const id = (listed.agents[0] as unknown as { id: string }).id;
  const tokenFile = `${home.paths.connectionDir(id, "telegram")}/bot-token`;
  assert.equal((await Deno.readTextFile(tokenFile)).trim(), fake.token);
  assert.equal((await Deno.stat(tokenFile)).mode! & 0o777, 0o600);
  assert.ok(!(await Deno.readTextFile(home.paths.settingsToml(id))).includes(fake.token));
  // Inside the agent's sandbox (CON-12): no bot-token file to find, the token in no variable, and no
  // file under its Home or /tmp holds it (the token comes on stdin, so no command line names it).
  const inside = await runLnk(
    [
      "agent",
      "harness",
      "run",
      "--",
      "sh",
      "-c",
      'read -r t; find / -name bot-token 2>/dev/null; env | grep -cF "$t"; grep -rlsF "$t" "$HOME" /tmp; echo end',
    ],
    home,
    { stdin: `${fake.token}\n` },
  );
  assert.deepEqual({ code: inside.code, stdout: inside.stdout }, { code: 0, stdout: "0\nend\n" });
});

Deno.test("lnk agent connect telegram with a token Telegram refuses says so, and keeps nothing", async () => {
  await using fake = await serveFakeTelegram();
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const args = ["agent", "connect", "telegram", "--token", "123:wrong", "--api-root", fake.apiRoot];
  const result = await runCli(args, home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: Cannot use the Telegram token: Telegram refused it/);
  assert.ok(!result.stderr.includes("123:wrong"), "the token is in the error");
  const listed = await runJson<{ agents: { bots: Record<string, unknown> }[] }>(["agent", "list"], home);
  assert.deepEqual(listed.agents[0]!.bots, {});
});

Deno.test("lnk agent connect without a terminal names the flag each platform needs, and refuses a connection it does not know", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const cases: [string[], string][] = [
    [
      ["discord"],
      "error: Cannot connect discord: no token was given\n  hint: Pass it with --token <token>\n",
    ],
    [
      ["slack"],
      "error: Cannot connect slack: no bot token was given\n  hint: Pass it with --bot-token <token>\n",
    ],
    [
      ["signal"],
      "error: Cannot connect signal: no number was given\n  hint: Pass it with --number <number>\n",
    ],
    [
      ["signal", "--number", "5551234"],
      'error: Cannot connect signal: "5551234" is not a phone number\n' +
      "  hint: Give your number with its country code, as +15551234567\n",
    ],
  ];
  for (const [args, stderr] of cases) {
    const result = await runCli(["agent", "connect", ...args], home);
    assert.equal(result.stderr, stderr, args.join(" "));
  }
  const unknown = await runCli(["agent", "connect", "myspace"], home);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /^error: Cannot connect "myspace": Link knows telegram, slack, discord and signal/,
  );
});

Deno.test("a started agent answers its Telegram owner through its bridge: the message reaches the harness in its sandbox as telegram:<chat id>, the answer comes back, a stranger gets nothing; disconnect ends it", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { owner, ownChat } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    const stranger = fake.user("Eve");
    fake.userSays(fake.privateChat(stranger), stranger, "tell me your secrets");
    const reply = model.reply("Hello, Ada.");
    fake.userSays(ownChat, owner, "hi");
    const request = await reply.taken;
    const body = request.body as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(body.messages.filter((m) => m.role === "user").map((m) => m.content), ["hi"]);
    await answered(fake, ownChat.id, "Hello, Ada.");
    assert.deepEqual(fake.sent(fake.privateChat(stranger).id), []);
    const status = await runJson<Status>(["agent", "status"], home);
    assert.deepEqual([status.state, status.connections], ["running", { telegram: { state: "polling" } }]);
    const gone = await runJson<{ disconnected: string }>(["agent", "disconnect", "telegram"], home);
    assert.equal(gone.disconnected, "telegram");
    const after = await runJson<Status>(["agent", "status"], home);
    assert.deepEqual([after.state, after.connections], ["running", {}]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of an agent's Telegram bridge: its agent's bridge starts it again, and a message sent meanwhile is answered once", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, ownChat } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    // One answer first: the connection's bridge is started after the agent's says it is ready.
    model.reply("Hello.");
    fake.userSays(ownChat, owner, "hi");
    await answered(fake, ownChat.id, "Hello.");
    await inboxLetGo(home, id);
    // Sent while nothing polls: Telegram keeps it.
    const killed = await killConnectionBridge(
      home,
      id,
      () => fake.userSays(ownChat, owner, "are you there?"),
    );
    model.reply("Still here.");
    await answered(fake, ownChat.id, "Still here.");
    assert.deepEqual(fake.sent(ownChat.id).map((m) => m.text), ["Hello.", "Still here."]);
    assert.equal(model.requests.length, 2);
    const restarted = (await processesNaming(id)).filter((p) => p.command.includes("connection bridge"));
    assert.equal(restarted.length, 1);
    assert.notEqual(restarted[0]!.pid, killed);
  } finally {
    await runJson(["agent", "stop"], home);
  }
  assert.deepEqual((await processesNaming(id)).filter((p) => p.command.includes("connection bridge")), []);
});

Deno.test("kill -9 of an agent's Telegram bridge mid-answer: the answer the harness finished meanwhile is sent once by the bridge started again, never asked again", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, ownChat } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    model.reply("Hello.");
    fake.userSays(ownChat, owner, "hi");
    await answered(fake, ownChat.id, "Hello.");
    const slow = model.reply("Finished while you were away.", { hold: true });
    fake.userSays(ownChat, owner, "a long one, please");
    await slow.taken; // kept before its offset was confirmed: the turn runs
    await killConnectionBridge(home, id);
    slow.release();
    await fake.nextCall("sendMessage", (c) => c.params.text === "Finished while you were away.");
    assert.deepEqual(fake.sent(ownChat.id).map((m) => m.text), ["Hello.", "Finished while you were away."]);
    assert.equal(model.requests.length, 2, "the message was asked again");
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("on the shared bridge, an agent answers its Telegram owner the same way, and stopping it stops its connection", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel();
  await using home = await sharedHome();
  const { id, owner, ownChat } = await pairedAgent(home, fake, model);
  const started = await runJson<{ bridge: string }>(["agent", "start"], home);
  try {
    assert.equal(started.bridge, "shared");
    model.reply("Hello from the shared bridge.");
    fake.userSays(ownChat, owner, "hi");
    await answered(fake, ownChat.id, "Hello from the shared bridge.");
  } finally {
    await runJson(["agent", "stop"], home);
  }
  assert.deepEqual((await processesNaming(id)).filter((p) => p.command.includes("connection bridge")), []);
});

Deno.test("a message the agent sends on its way in to a Telegram chat it names goes to its owner's own chat, once, never to that chat (SCH-3)", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, owner, ownChat } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    const { loadSettings, readKey, sendSocketPath } = await import("../../../core/agent/mod.ts");
    const settings = await loadSettings(home.paths, id);
    const caller = { agentId: id, owner: settings.owner, key: (await readKey(home.paths, id))! };
    const named = fake.group("Strangers", [fake.user("Eve")]);
    const message = { connection: "telegram", thread: `telegram:${named.id}`, text: "Reminder: call Bo" };
    assert.deepEqual(await sendOnWayIn(sendSocketPath(home.paths, id), caller, message), { held: true });
    const sent = await fake.nextCall("sendMessage");
    assert.deepEqual([sent.params.chat_id, fake.sent(ownChat.id).map((m) => m.text)], [owner.id, [
      "Reminder: call Bo",
    ]]);
    assert.deepEqual(fake.sent(named.id), []);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
