import assert from "node:assert/strict";
import { serveFakeTelegram } from "../../fakes/fake_telegram.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";

/** Connects the agent "work" to the fake Telegram, its owner Ada. */
async function connected(home: TempHome, fake: Awaited<ReturnType<typeof serveFakeTelegram>>) {
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const owner = fake.user("Ada");
  const args = ["agent", "connect", "telegram", "--token", fake.token, "--api-root", fake.apiRoot, "--json"];
  const paired = await runCli(args, home, {
    onPrint: (value) => {
      const code = (value as { code?: string }).code;
      if (code) fake.userSays(fake.privateChat(owner), owner, code);
    },
  });
  assert.equal(paired.code, 0, paired.stderr);
  return { id, sandboxToml: `${home.paths.agentFolder("work")}/Config/sandbox.toml` };
}

const MINE = `# My own notes on what this agent may reach.
[files]
"." = "read"   # read-only, on purpose

# people my agent answers
[access]
message = [
  "person:telegram:1", # Bob
]

[commands]
allow = ["git"]
`;

Deno.test("ACS-5: lnk agent share --person edits only [access] message, every other byte kept; unshare takes it back", async () => {
  await using fake = await serveFakeTelegram();
  await using home = await tempHome();
  const { sandboxToml } = await connected(home, fake);
  await Deno.writeTextFile(sandboxToml, MINE);
  const shared = await runJson<{ shared: string; access: string[] }>(
    ["agent", "share", "telegram", "--person", "4242"],
    home,
  );
  assert.deepEqual(shared, {
    agent: "work",
    connection: "telegram",
    shared: "person:telegram:4242",
    access: ["person:telegram:1", "person:telegram:4242"],
  });
  const after = await Deno.readTextFile(sandboxToml);
  const [head, tail] = [
    MINE.slice(0, MINE.indexOf("message = [")),
    MINE.slice(MINE.indexOf("\n\n[commands]")),
  ];
  assert.ok(after.startsWith(head), after);
  assert.ok(after.endsWith(tail), after);
  assert.match(after, /message = \[\s*"person:telegram:1",\s*"person:telegram:4242",?\s*\]/);
  assert.equal((await Deno.stat(sandboxToml)).mode! & 0o777, 0o600);
  // Sharing the same person again changes nothing.
  await runJson(["agent", "share", "telegram", "--person", "4242"], home);
  assert.equal(await Deno.readTextFile(sandboxToml), after);

  const one = await runJson<{ removed: string[]; access: string[] }>(
    ["agent", "unshare", "telegram", "4242"],
    home,
  );
  assert.deepEqual([one.removed, one.access], [["person:telegram:4242"], ["person:telegram:1"]]);
  const all = await runJson<{ removed: string[]; access: string[] }>(["agent", "unshare", "telegram"], home);
  assert.deepEqual([all.removed, all.access], [["person:telegram:1"], []]);
  const gone = await Deno.readTextFile(sandboxToml);
  assert.ok(gone.startsWith(head) && gone.endsWith(tail), gone);
});

Deno.test("lnk agent share refuses what cannot be shared, saying why, and writes nothing", async () => {
  await using fake = await serveFakeTelegram();
  await using home = await tempHome();
  const { sandboxToml } = await connected(home, fake);
  await Deno.writeTextFile(sandboxToml, MINE);
  const cases: [string[], string, RegExp][] = [
    [["share"], "USAGE", /name the connection/],
    [["share", "irc"], "USAGE", /Link knows telegram, slack, discord and signal/],
    [["share", "signal"], "UNSUPPORTED", /signal: its chats cannot be shared/],
    [["share", "discord"], "REFUSED", /not connected to it/],
    [["share", "telegram", "--person", "not an id"], "USAGE", /not an ID telegram gives people/],
    [["unshare", "telegram", "chat:telegram:-5"], "REFUSED", /it is not shared on telegram/],
  ];
  for (const [args, code, message] of cases) {
    const result = await runCli(["agent", ...args, "--json"], home);
    assert.equal(result.code, code === "USAGE" ? 2 : 1, args.join(" "));
    const error = JSON.parse(result.stdout.trim().split("\n").at(-1)!).error;
    assert.equal(error.code, code, args.join(" "));
    assert.match(error.message, message, args.join(" "));
    assert.ok(error.hint, args.join(" "));
  }
  assert.equal(await Deno.readTextFile(sandboxToml), MINE);
});

Deno.test("ACS-2: a word in [access] message that is not a principal stops the start, naming its line", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  await Deno.writeTextFile(
    `${home.paths.agentFolder("work")}/Config/sandbox.toml`,
    '[access]\nmessage = ["everyone"]\n',
  );
  const result = await runCli(["agent", "start", "--json"], home);
  assert.equal(result.code, 1);
  const error = JSON.parse(result.stdout.trim().split("\n").at(-1)!).error;
  assert.equal(error.code, "CONFIG_INVALID");
  assert.match(error.message, /access\.message.*must be a principal/s);
});
