import assert from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../core/agent/mod.ts";
import { runCli, runJson, type TempHome, tempHome } from "../support/mod.ts";

interface Added {
  agent: string;
  name: string;
  sift: string;
  url: string;
  created: string;
  secret: string;
}

/** The last JSON line of a failed `--json` run: its error. */
async function refused(
  home: TempHome,
  args: string[],
): Promise<{ code: string; message: string; hint?: string }> {
  const result = await runCli([...args, "--json"], home);
  assert.notEqual(result.code, 0, args.join(" "));
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!).error;
}

Deno.test("WHK-1, WHK-7: lnk agent webhook add prints the URL on 127.0.0.1 and the secret once; list never shows it; roll and remove", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const added = await runJson<Added>(["agent", "webhook", "add", "gh", "--sift", "github"], home);
  const port = (await loadSettings(home.paths, id)).webhooks?.port;
  assert.ok(port !== undefined);
  assert.deepEqual({ ...added, created: "", secret: "" }, {
    agent: "work",
    name: "gh",
    sift: "github",
    url: `http://127.0.0.1:${port}/gh`,
    created: "",
    secret: "",
  });
  assert.match(added.secret, /^[0-9a-f]{64}$/);
  const dir = join(home.paths.agentState(id), "webhooks", "gh");
  assert.equal((await Deno.stat(join(dir, "secret"))).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
  assert.equal(await Deno.readTextFile(join(dir, "secret")), `${added.secret}\n`);

  const text = await runCli(["agent", "webhook", "add", "ci", "--sift", "secret"], home);
  assert.equal(text.code, 0, text.stderr);
  const secret = /secret: ([0-9a-f]{64})/.exec(text.stdout)?.[1];
  assert.equal(
    text.stdout,
    `Added webhook "ci" to agent "work" (sift secret)\n  url:    http://127.0.0.1:${port}/ci\n  secret: ${secret}\n` +
      "The secret is shown this once. The URL answers on this machine only: `lnk tunnel open --public` makes it public.\n",
  );
  const list = await runCli(["agent", "webhook", "list"], home);
  assert.ok(!list.stdout.includes(added.secret) && !list.stdout.includes(secret!), list.stdout);
  const listed = await runJson<{ webhooks: { name: string; url: string }[] }>(
    ["agent", "webhook", "list"],
    home,
  );
  assert.deepEqual(listed.webhooks.map((w) => [w.name, w.url]), [
    ["ci", `http://127.0.0.1:${port}/ci`],
    ["gh", `http://127.0.0.1:${port}/gh`],
  ]);
  assert.ok(!JSON.stringify(listed).includes(added.secret));

  const rolled = await runJson<{ secret: string; previous_until: string }>(
    ["agent", "webhook", "roll", "gh"],
    home,
  );
  assert.notEqual(rolled.secret, added.secret);
  const previous = JSON.parse(await Deno.readTextFile(join(dir, "previous.json")));
  assert.deepEqual(previous, { secret: added.secret, expires: rolled.previous_until });
  assert.equal((await Deno.stat(join(dir, "previous.json"))).mode! & 0o777, 0o600);
  assert.ok(Math.abs(Date.parse(rolled.previous_until) - Date.now() - 24 * 3600_000) < 60_000);
  assert.deepEqual(await runJson(["agent", "webhook", "roll", "gh", "--done"], home), {
    agent: "work",
    name: "gh",
    previous: "refused",
  });
  assert.deepEqual(await runCli(["agent", "webhook", "roll", "gh", "--done"], home), {
    code: 0,
    stdout: 'Webhook "gh" has no previous secret: nothing to end\n',
    stderr: "",
  });

  assert.deepEqual(await runCli(["agent", "webhook", "remove", "gh"], home), {
    code: 0,
    stdout: 'Removed webhook "gh" of agent "work": its posts are refused from now\n',
    stderr: "",
  });
  await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
  const after = await loadSettings(home.paths, id);
  assert.deepEqual([after.webhooks?.port, Object.keys(after.webhooks?.hooks ?? {})], [port, ["ci"]]);
});

Deno.test("lnk agent webhook refuses what it cannot do, saying why, and writes nothing", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  await runJson(["agent", "webhook", "add", "gh", "--sift", "github"], home);
  const cases: [string[], string, RegExp][] = [
    [["add", "gh"], "USAGE", /it needs a name and --sift/],
    [["add", "Bad_Name", "--sift", "github"], "USAGE", /a name is a lowercase word/],
    [["add", "x", "--sift", "gitlab"], "USAGE", /Link has no sift "gitlab"/],
    [["add", "gh", "--sift", "github"], "CONFLICT", /has one by that name/],
    [["remove", "nope"], "REFUSED", /Cannot find webhook "nope"/],
    [["roll", "nope"], "REFUSED", /Cannot find webhook "nope"/],
    [["roll", "nope", "--done"], "REFUSED", /Cannot find webhook "nope"/],
  ];
  for (const [args, code, message] of cases) {
    const error = await refused(home, ["agent", "webhook", ...args]);
    assert.equal(error.code, code, args.join(" "));
    assert.match(error.message, message, args.join(" "));
    assert.ok(error.hint, args.join(" "));
  }
});

Deno.test("WHK-5: a harness that cannot keep who a message is from and a conversation's tools gets no webhook", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  const error = await refused(home, ["agent", "webhook", "add", "gh", "--sift", "github"]);
  assert.deepEqual(error, {
    code: "UNSUPPORTED",
    message:
      'Cannot add webhook "gh" to agent "work": its harness, mini, cannot keep a post apart from its owner\'s messages',
    hint:
      "Webhooks need a harness that keeps who wrote each message and a conversation's tools, such as Link Harness",
  });
  assert.equal((await loadSettings(home.paths, id)).webhooks, undefined);
  await assert.rejects(Deno.stat(join(home.paths.agentState(id), "webhooks")), Deno.errors.NotFound);
});
