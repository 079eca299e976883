import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

Deno.test("lnk agent memory: off for a new agent (MEM-1), on and off again keeping the spec's comments", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  const spec = join(home.path, "Link", "Agents", "main", "Config", "spec.toml");
  const before = await Deno.readTextFile(spec);
  const shown = await runJson<{ spec: { memory: unknown } }>(["agent", "show", "--json"], home);
  assert.deepEqual(shown.spec.memory, { on: false });
  const status = await runJson(["agent", "memory", "status", "--json"], home);
  assert.deepEqual(status, {
    agent: "main",
    on: false,
    embeddings: null,
    index: null,
    service: { running: false, serving: false },
  });
  assert.deepEqual(await runCli(["agent", "memory", "on"], home), {
    code: 0,
    stdout: 'Memory of agent "main" is on from its next start\n',
    stderr: "",
  });
  const after = await Deno.readTextFile(spec);
  assert.equal(after, `${before}\n[memory]\non = true\n`);
  assert.equal((await Deno.stat(spec)).mode! & 0o777, 0o600);
  assert.equal(
    (await runCli(["agent", "memory", "on"], home)).stdout,
    'Memory of agent "main" was already on\n',
  );
  await runJson(["agent", "memory", "off", "--json"], home);
  assert.equal(await Deno.readTextFile(spec), after.replace("[memory]\non = true", "[memory]\non = false"));
});

Deno.test("lnk agent memory search refuses an agent whose memory is off, saying how to turn it on", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  assert.deepEqual(await runCli(["agent", "memory", "search", "Bo"], home), {
    code: 1,
    stdout: "",
    stderr: 'error: Cannot use the memory of agent "main": its memory is off\n' +
      "  hint: Run `lnk agent memory on --agent main`, then start the agent again\n",
  });
  const json = await runCli(["agent", "memory", "search", "Bo", "--json"], home);
  assert.equal(JSON.parse(json.stdout).error.code, "REFUSED");
});

Deno.test("lnk agent memory search finds a note of a sleeping agent by words, saying where and how", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  await runJson(["agent", "memory", "on", "--json"], home);
  const memory = join(home.path, "Link", "Agents", "main", "Agent", "memory");
  await Deno.writeTextFile(join(memory, "people.md"), "# People\n\nBo lives in Lisbon.\n");
  assert.deepEqual(await runCli(["agent", "memory", "search", "Lisbon"], home), {
    code: 0,
    stdout: 'note "people", line 3 (by words)\n  Bo lives in Lisbon.\n',
    stderr: "Searched by words alone: the agent is asleep, and only its memory service embeds for it\n",
  });
  const found = await runJson(["agent", "memory", "search", "Lisbon", "--json"], home) as {
    hits: { origin: unknown }[];
    by: string;
  };
  assert.deepEqual(found.hits.map((h) => h.origin), [{ kind: "note", note: "people", line: 3 }]);
  assert.equal(found.by, "words");
  const status = await runJson(["agent", "memory", "status", "--json"], home) as {
    index: { chunks: number };
  };
  assert.equal(status.index.chunks, 2);
  const index = join(home.path, ".lnk", "agents");
  const ids = [...Deno.readDirSync(index)].filter((e) => !e.name.startsWith("."));
  assert.equal((await Deno.stat(join(index, ids[0]!.name, "memory", "index.sqlite"))).mode! & 0o777, 0o600);
});

Deno.test("lnk agent memory search takes a query and a whole --limit", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  await runJson(["agent", "memory", "on", "--json"], home);
  assert.equal((await runCli(["agent", "memory", "search"], home)).code, 2);
  const limit = await runCli(["agent", "memory", "search", "x", "--limit", "two"], home);
  assert.equal(limit.code, 2);
  assert.match(limit.stderr, /--limit "two" is not a whole number/);
});

Deno.test("lnk agent memory search makes a corrupt index again from the agent's files, losing nothing", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "--json"], home);
  await runJson(["agent", "memory", "on", "--json"], home);
  const memory = join(home.path, "Link", "Agents", "main", "Agent", "memory");
  await Deno.writeTextFile(join(memory, "people.md"), "Bo lives in Lisbon.\n");
  await runJson(["agent", "memory", "search", "Lisbon", "--json"], home);
  const index = join(home.paths.agentState(id), "memory", "index.sqlite");
  await Deno.writeTextFile(index, "garbage, not SQLite ".repeat(500));
  const found = await runJson<{ hits: { origin: unknown }[] }>([
    "agent",
    "memory",
    "search",
    "Lisbon",
    "--json",
  ], home);
  assert.deepEqual(found.hits.map((h) => h.origin), [{ kind: "note", note: "people", line: 1 }]);
  assert.equal(await Deno.readTextFile(join(memory, "people.md")), "Bo lives in Lisbon.\n");
});
