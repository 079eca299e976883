import assert from "node:assert/strict";
import { join } from "node:path";
import { COLLECTIONS, loadSettings } from "../../../core/agent/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

type Created = {
  id: string;
  name: string;
  owner: string;
  harness: string;
  ports: { endpoint: number; block: number };
  folders: Record<string, string>;
};

Deno.test("createAgent() makes Home, Agent with its five collections, and Config with commented defaults (LAY-1)", async () => {
  await using home = await tempHome();
  const created = await runJson<Created>(["agent", "create", "work"], home);
  const root = join(home.path, "Link", "Agents", "work");
  assert.deepEqual(created.folders, {
    root,
    home: join(root, "Home"),
    agent: join(root, "Agent"),
    config: join(root, "Config"),
  });
  const agentDirs = (await Array.fromAsync(Deno.readDir(join(root, "Agent")))).map((e) => e.name).sort();
  assert.deepEqual(agentDirs, [...COLLECTIONS].sort());
  const spec = await Deno.readTextFile(join(root, "Config", "spec.toml"));
  const sandbox = await Deno.readTextFile(join(root, "Config", "sandbox.toml"));
  assert.match(spec, /^# How this agent runs/);
  assert.match(spec, /idle_after = "5m"/);
  assert.match(sandbox, /^# What this agent may reach/);
  assert.match(sandbox, /hosts = \["\*"\]/);
  assert.ok((await Deno.stat(join(root, "Agent", "instructions", "agent.md"))).isFile);
});

Deno.test("createAgent() writes settings under ~/.lnk/agents/<id> with one stand-in owner (IDN-8, U-8)", async () => {
  await using home = await tempHome();
  const created = await runJson<Created>(["agent", "create", "work"], home);
  const settings = await loadSettings(home.paths, created.id);
  assert.equal(settings.name, "work");
  assert.equal(settings.harness, "link");
  assert.match(settings.owner, /^local-[0-9a-f]{16}-\d+$/);
  assert.match(created.id, /^[a-z2-7]{26}$/);
  const mode = (await Deno.stat(home.paths.settingsToml(created.id))).mode! & 0o777;
  assert.equal(mode, 0o600);
});

Deno.test("the first agent is main and keeps its harness's default port; others get blocks from 20000 (PRT-1, PRT-3)", async () => {
  await using home = await tempHome();
  const main = await runJson<Created>(["agent", "create"], home);
  const work = await runJson<Created>(["agent", "create", "work"], home);
  const mini = await runJson<Created>(["agent", "create", "tiny", "--harness", "mini"], home);
  assert.equal(main.name, "main");
  assert.equal(main.ports.endpoint, 18800);
  assert.ok(main.ports.block >= 20000 && main.ports.block % 10 === 0);
  assert.equal(work.ports.endpoint, work.ports.block);
  const blocks = [main, work, mini].map((a) => a.ports.block);
  assert.equal(new Set(blocks).size, 3);
  for (const a of blocks) for (const b of blocks) if (a !== b) assert.ok(Math.abs(a - b) >= 10);
});

Deno.test("an agent's ID is never reused, even after its remove", async () => {
  await using home = await tempHome();
  const ids = new Set<string>();
  for (let i = 0; i < 3; i++) {
    ids.add((await runJson<Created>(["agent", "create", "work"], home)).id);
    assert.equal(
      (await runCli(["agent", "remove", "work", "--yes", "--files", "delete"], home, { answers: ["y"] }))
        .code,
      0,
    );
  }
  assert.equal(ids.size, 3);
  const issued = (await Deno.readTextFile(home.paths.issuedIds)).trim().split("\n");
  assert.deepEqual(new Set(issued), ids);
});

Deno.test("createAgent() refuses a taken, empty or path-unsafe name, and changes nothing", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const cases: [string, RegExp][] = [
    ["work", /Cannot create agent "work": the name is taken by agent "work"/],
    ["WORK", /the name is taken by agent "work"/],
    ["", /Cannot use "" as an agent's name: it is empty/],
    ["../etc", /Cannot use "..\/etc" as an agent's name: it has characters/],
    ["a/b", /it has characters a folder name cannot safely hold/],
    [".hidden", /it has characters/],
    ["x".repeat(65), /longer than 64 characters/],
  ];
  for (const [name, message] of cases) {
    const result = await runCli(["agent", "create", name], home);
    assert.notEqual(result.code, 0, name);
    assert.match(result.stderr, message);
  }
  const list = await runJson<{ agents: unknown[] }>(["agent", "list"], home);
  assert.equal(list.agents.length, 1);
  assert.deepEqual((await Array.fromAsync(Deno.readDir(home.paths.agentFolders))).map((e) => e.name), [
    "work",
  ]);
});

Deno.test("createAgent() refuses a harness nobody has, naming the ones Link knows", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "create", "x", "--harness", "nope"], home);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /Cannot create agent "x": there is no harness "nope"\n {2}hint: Harnesses Link knows: link, mini/,
  );
});

Deno.test("--files picks a Home of the person's; Agent/ stays in the agent's own folder (LAY-2)", async () => {
  await using home = await tempHome();
  const repo = join(home.path, "src", "repo");
  const created = await runJson<Created>(["agent", "create", "code", "--files", repo], home);
  assert.equal(created.folders.home, repo);
  assert.equal(created.folders.agent, join(home.path, "Link", "Agents", "code", "Agent"));
  assert.deepEqual(await Array.fromAsync(Deno.readDir(repo)), []);
  assert.equal((await Deno.stat(join(created.folders.agent, "chats"))).isDirectory, true);
});

Deno.test("lnk agent list --json prints every agent with its connections as bots (CON-4)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "b-agent"], home);
  await runJson(["agent", "create", "a-agent", "--model", "deepseek/deepseek-chat"], home);
  const list = await runJson<
    { agents: { name: string; state: string; bots: unknown; model: string | null; sandbox: string }[] }
  >(
    ["agent", "list"],
    home,
  );
  assert.deepEqual(list.agents.map((a) => [a.name, a.state, a.bots, a.model, a.sandbox]), [
    ["a-agent", "stopped", {}, "deepseek/deepseek-chat", "on"],
    ["b-agent", "stopped", {}, null, "on"],
  ]);
  const text = await runCli(["agent", "list"], home);
  assert.match(text.stdout, /^NAME +ID +HARNESS +STATE +PORT +SANDBOX\na-agent /);
});
