import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

Deno.test("remove asks in a terminal, and a no keeps everything", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const result = await runCli(["agent", "remove", "work"], home, { answers: ["n"] });
  assert.equal(result.code, 0);
  assert.equal(
    result.stderr,
    'Remove agent "work" (its files are kept aside for 30d)? [y/N]\nKept the agent: nothing was removed\n',
  );
  assert.equal((await runJson<{ agents: unknown[] }>(["agent", "list"], home)).agents.length, 1);
});

Deno.test("remove without a terminal and without --yes is refused, naming --yes (CLI-7)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const result = await runCli(["agent", "remove", "work"], home);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    'error: Cannot ask whether to remove agent "work": there is no terminal\n  hint: Add --yes to remove it and keep its files\n',
  );
});

Deno.test("remove --yes without a terminal removes the agent, its key and services, and keeps its files aside (CLI-7, BRG-7)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  await Deno.writeTextFile(join(home.path, "Link", "Agents", "work", "Home", "notes.md"), "mine");
  await runJson(["agent", "start"], home);
  const removed = await runJson<{ keptAt: string; keptUntil: string }>(
    ["agent", "remove", "work", "--yes"],
    home,
  );
  await assert.rejects(Deno.stat(home.paths.agentState(id)), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(home.paths.keyFile(id)), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(join(home.path, "Link", "Agents", "work")), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(join(removed.keptAt, "Home", "notes.md")), "mine");
  const days = (Date.parse(removed.keptUntil) - Date.now()) / 86_400_000;
  assert.ok(days > 29.9 && days <= 30);
  assert.deepEqual(
    (await Array.fromAsync(Deno.readDir(home.paths.run))).map((e) => e.name).filter((n) => n.includes(id)),
    [],
  );
});

Deno.test("a Home the person picked stays where it is on remove (CLI-7)", async () => {
  await using home = await tempHome();
  const repo = join(home.path, "repo");
  await runJson(["agent", "create", "code", "--files", repo], home);
  await Deno.writeTextFile(join(repo, "main.c"), "int main;");
  const removed = await runJson<{ homeLeft: string }>(["agent", "remove", "code", "--yes"], home);
  assert.equal(removed.homeLeft, repo);
  assert.equal(await Deno.readTextFile(join(repo, "main.c")), "int main;");
});

Deno.test("restore brings back a removed agent with its ID, settings and files", async () => {
  await using home = await tempHome();
  const created = await runJson<{ id: string; owner: string }>(["agent", "create", "work"], home);
  await Deno.writeTextFile(
    join(home.path, "Link", "Agents", "work", "Agent", "instructions", "agent.md"),
    "be brief",
  );
  await runJson(["agent", "remove", "work", "--yes"], home);
  const restored = await runJson<{ id: string; owner: string }>(["agent", "restore", "work"], home);
  assert.deepEqual([restored.id, restored.owner], [created.id, created.owner]);
  assert.equal(
    await Deno.readTextFile(join(home.path, "Link", "Agents", "work", "Agent", "instructions", "agent.md")),
    "be brief",
  );
  const again = await runCli(["agent", "restore", "work"], home);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /Cannot restore agent "work": no removed agent of that name is kept here/);
});

Deno.test("remove --files delete deletes the agent's own folder after asking", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const result = await runCli(["agent", "remove", "work", "--files", "delete"], home, { answers: ["yes"] });
  assert.equal(result.code, 0);
  await assert.rejects(Deno.stat(join(home.path, "Link", "Agents", "work")), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(home.paths.removed), Deno.errors.NotFound);
});
