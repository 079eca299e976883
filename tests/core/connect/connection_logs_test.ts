/**
 * Every connection's bridge says what it does in the agent's log, in Link's one log shape, each line
 * naming its agent and connection: connected (platform, bot), each message received (its id, never its
 * text), each answer sent (ids, parts, the time from receipt), each reconnect, and why it stopped.
 */
import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeDiscord } from "../../fakes/fake_discord.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";
import { answered, carried, pairedAgent, type Status, untilConnectionState } from "./_discord_support.ts";

type Entry =
  & { level: string; scope: string; msg: string; agent?: string; connection?: string }
  & Record<
    string,
    unknown
  >;

async function connectionLines(home: TempHome, connection: string): Promise<Entry[]> {
  const { lines } = await runJson<{ lines: { service: string; entry?: Entry; text?: string }[] }>(
    ["agent", "logs", "--connection", connection],
    home,
  );
  for (const line of lines) assert.ok(line.entry, `a line that is not Link's: ${line.text}`);
  return lines.map((l) => l.entry!);
}

/** The lines' messages and the fields a test names, in order. */
function said(entries: Entry[], fields: string[]): Record<string, unknown>[] {
  return entries.map((e) =>
    Object.fromEntries([["msg", e.msg], ...fields.filter((f) => f in e).map((f) => [f, e[f]])])
  );
}

Deno.test("A Discord connection's bridge logs connected, each message received and answered, the reconnect, and why it stopped; --connection shows those alone", async () => {
  await using fake = await serveFakeDiscord({ heartbeatIntervalMs: 5_000 });
  await using model = await serveFakeModel({ defaultText: "The answer." });
  await using home = await tempHome();
  const { id, owner, ownDm } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    const asked = fake.userSays(ownDm, owner, "the secret words");
    await answered(fake, ownDm.id, "The answer.");
    const resumes = fake.resumes.length;
    fake.closeSockets(4000);
    await fake.when(() => fake.resumes.length > resumes);
    await untilConnectionState(home, id, "connected");
    fake.revoke(fake.token);
    await untilConnectionState(home, id, "failed");
    const entries = await connectionLines(home, "discord");
    for (const e of entries) assert.deepEqual([e.agent, e.connection], [id, "discord"], e.msg);
    assert.ok(!JSON.stringify(entries).includes("the secret words"), "a message's text is in the log");
    assert.ok(!JSON.stringify(entries).includes(fake.token), "the token is in the log");
    const lines = entries.filter((e) => e.level !== "debug");
    const connected = lines.findIndex((e) => e.msg === "Connected");
    assert.deepEqual(said([lines[connected]!], ["platform", "bot"]), [
      { msg: "Connected", platform: "discord", bot: fake.bot.username },
    ]);
    const received = lines.find((e) => e.msg === "Message received" && e.message === asked.id);
    assert.ok(received, "no line of the message received");
    const sent = lines.find((e) => e.msg === "Answer sent" && e.message === asked.id)!;
    const posted = fake.messages(ownDm).filter((m) => m.author.id === fake.bot.id).map((m) => m.id);
    assert.deepEqual([sent.parts, sent.sent], [1, posted]);
    assert.equal(typeof sent.ms, "number");
    const after = lines.slice(lines.indexOf(sent)).map((e) => e.msg);
    const reconnecting = after.indexOf("Reconnecting");
    assert.ok(reconnecting > 0, `no reconnect line after the answer: ${after}`);
    assert.ok(
      after.indexOf("Connected", reconnecting) > reconnecting,
      "no connected line after the reconnect",
    );
    const stopped = lines.find((e) => e.msg === "Stopped")!;
    assert.deepEqual([stopped.level, stopped.why], [
      "error",
      "Discord refused the token: it may have been revoked or reset",
    ]);
    // Every other service's lines are left out.
    const all = await runJson<{ lines: { entry?: Entry }[] }>(["agent", "logs"], home);
    assert.ok(all.lines.some((l) => l.entry && l.entry.connection === undefined));
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("A Discord answer Discord refuses for a while is logged at each retry with Discord's status and error body", async () => {
  await using fake = await serveFakeDiscord();
  await using model = await serveFakeModel({ defaultText: "Got there." });
  await using home = await tempHome();
  const { owner, ownDm } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    fake.failNext("POST /channels/:id/messages", { status: 503, code: 0, message: "Service Unavailable" }, {
      times: 4,
    });
    fake.userSays(ownDm, owner, "hello");
    const bot = () => fake.messages(ownDm).filter((m) => m.author.id === fake.bot.id).map((m) => m.content);
    await fake.when(() => bot().at(-1) === "Got there.");
    assert.deepEqual(bot(), ["Got there."]);
    const retries = (await connectionLines(home, "discord")).filter((e) =>
      /^Cannot (send|show) the answer/.test(e.msg)
    );
    assert.ok(retries.length >= 1, "no line of a retry");
    for (const retry of retries) {
      assert.equal(retry.level, "warn");
      assert.equal(retry.status, 503);
      assert.match(String(retry.err), /Service Unavailable/);
    }
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("A Telegram connection's bridge logs each update received and its answer sent, with the message ids", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel({ defaultText: "Hi, Ada." });
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"], home);
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  const paired = await runCli(
    ["agent", "connect", "telegram", "--token", fake.token, "--api-root", fake.apiRoot, "--json"],
    home,
    {
      onPrint: (value) => {
        const code = (value as { code?: unknown }).code;
        if (typeof code === "string") fake.userSays(chat, owner, code);
      },
    },
  );
  assert.equal(paired.code, 0, paired.stderr);
  await runJson(["agent", "start"], home);
  try {
    fake.userSays(chat, owner, "private words");
    await fake.nextCall("sendMessage", (c) => c.params.chat_id === chat.id);
    while (fake.sent(chat.id).at(-1)?.text !== "Hi, Ada.") await fake.nextCall("editMessageText");
    let entries = await connectionLines(home, "telegram");
    while (!entries.some((e) => e.msg === "Answer sent")) {
      await fake.nextCall("getUpdates"); // the bridge reads again once it let the update go
      entries = await connectionLines(home, "telegram");
    }
    assert.ok(!JSON.stringify(entries).includes("private words"));
    assert.deepEqual(said(entries.filter((e) => e.msg === "Connected"), ["platform", "bot"]).slice(0, 1), [
      { msg: "Connected", platform: "telegram", bot: fake.bot.username },
    ]);
    const sent = entries.find((e) => e.msg === "Answer sent")!;
    const received = entries.find((e) => e.msg === "Message received" && e.message === sent.message);
    assert.ok(received, "no line of the update received");
    assert.deepEqual(sent.sent, fake.sent(chat.id).map((m) => String(m.message_id)));
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("lnk agent logs --connection of a connection the agent lacks names those it has", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const none = await runCli(["agent", "logs", "--connection", "discord"], home);
  assert.equal(none.code, 2);
  assert.equal(
    none.stderr,
    'error: Cannot show the logs of connection "discord": agent "work" has no such connection\n' +
      "  hint: It has no connection yet: connect one with `lnk agent connect telegram` (or slack, discord, signal)\n",
  );
});

Deno.test("lnk agent status says since when a connection is reconnecting", async () => {
  await using fake = await serveFakeDiscord({ heartbeatIntervalMs: 5_000 });
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id } = await pairedAgent(home, fake, model);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    await fake.close(); // Discord is gone: the bridge tries again and again
    await untilConnectionState(home, id, "reconnecting");
    let status = await runJson<Status & { connections: { discord: { since?: string } } }>(
      ["agent", "status"],
      home,
    );
    while (status.connections.discord.since === undefined) {
      await untilConnectionState(home, id, "reconnecting"); // the next try writes it again
      status = await runJson(["agent", "status"], home);
    }
    const text = await runCli(["agent", "status"], home);
    assert.match(
      text.stdout,
      new RegExp(
        `\\n  discord: reconnecting since ${status.connections.discord.since!.replaceAll(".", "\\.")} \\(`,
      ),
    );
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
