import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";

/** Runs `lnk agent <args> --json`, `send(code)` told the code once it is printed; its last line. */
async function withCode(home: TempHome, args: string[], send: (code: string) => void) {
  const result = await runCli(["agent", ...args, "--json"], home, {
    onPrint: (value) => {
      const code = (value as { code?: unknown }).code;
      if (typeof code === "string") send(code);
    },
  });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!);
}

/** What the model was last asked: its last user message. */
function lastAsked(model: Awaited<ReturnType<typeof serveFakeModel>>): string {
  const body = model.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
  return body.messages.filter((m) => m.role === "user").at(-1)!.content;
}

Deno.test("ACS-1, ACS-3, ACS-5: the owner shares a Telegram group from the CLI while the agent runs; a member's mention is answered there as the member, a bot's is not, and unshare ends it", async () => {
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel({ defaultText: "Hello, group." });
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"], home);
  const ada = fake.user("Ada");
  const bob = fake.user("Bob");
  const helper = fake.user("Helper", { is_bot: true });
  await withCode(
    home,
    ["connect", "telegram", "--token", fake.token, "--api-root", fake.apiRoot],
    (code) => fake.userSays(fake.privateChat(ada), ada, code),
  );
  const group = fake.group("Family", [ada, bob, helper]);
  await runJson(["agent", "start"], home);
  try {
    const shared = await withCode(home, ["share", "telegram"], (code) => {
      fake.userSays(group, bob, `@${fake.bot.username} ${code}`); // a member's mention of it: never
      fake.userSays(group, ada, `@${fake.bot.username} ${code}`);
    });
    assert.deepEqual(shared, {
      agent: "work",
      connection: "telegram",
      shared: `chat:telegram:${group.id}`,
      access: [`chat:telegram:${group.id}`],
    });
    assert.equal((await runJson<{ state: string }>(["agent", "status"], home)).state !== "stopped", true);

    fake.userSays(group, helper, `@${fake.bot.username} answer me, bot to bot`);
    fake.userSays(group, bob, `@${fake.bot.username} what is for dinner?`);
    await fake.nextCall("sendMessage", (c) => c.params.chat_id === group.id);
    assert.equal(
      lastAsked(model),
      `(from person:telegram:${bob.id}) @${fake.bot.username} what is for dinner?`,
    );
    assert.equal(model.requests.length, 1, "the bot's mention reached the model");

    const unshared = await runJson<{ removed: string[] }>(["agent", "unshare", "telegram"], home);
    assert.deepEqual(unshared.removed, [`chat:telegram:${group.id}`]);
    fake.userSays(group, bob, `@${fake.bot.username} still there?`);
    fake.userSays(fake.privateChat(ada), ada, "and me?");
    await fake.nextCall("sendMessage", (c) => c.params.chat_id === ada.id);
    assert.equal(lastAsked(model), "and me?");
    assert.equal(model.requests.length, 2, "the unshared group was answered");
  } finally {
    await runCli(["agent", "stop"], home);
  }
});
