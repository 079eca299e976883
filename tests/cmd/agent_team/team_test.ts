import assert from "node:assert/strict";
import { layoutOf, loadSettings, updateSettings } from "../../../core/agent/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

type Home = Awaited<ReturnType<typeof tempHome>>;

async function created(home: Home, name: string) {
  const { id } = await runJson<{ id: string }>(["agent", "create", name], home);
  const agent = await loadSettings(home.paths, id);
  return { agent, file: layoutOf(home.paths, agent).sandboxToml };
}

Deno.test("lnk agent team: create, add (whole folder by default, or named folders), show, remove, each member's sandbox file kept byte for byte (TEAM-1, TEAM-2, TEAM-11, TEAM-13)", async () => {
  await using home = await tempHome();
  const main = await created(home, "main");
  const work = await created(home, "work");
  const made = await runJson<{ folder: string; file: string }>(["agent", "team", "create", "lab"], home);
  assert.equal(made.folder, `${home.path}/Link/Teams/lab`);
  assert.equal(made.file, `${home.path}/.lnk/teams/lab.toml`);
  assert.equal((await Deno.stat(made.folder)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(made.file)).mode! & 0o777, 0o600);

  const original = `${await Deno.readTextFile(work.file)}# the owner's own note\n`;
  await Deno.writeTextFile(work.file, original);
  assert.deepEqual(
    await runCli(["agent", "team", "add", "lab", "main", "--purpose", "Plans the work"], home),
    { code: 0, stdout: 'Agent "main" is on team "lab" and has the whole folder\n', stderr: "" },
  );
  assert.deepEqual(
    await runCli([
      "agent",
      "team",
      "add",
      "lab",
      "work",
      "--name",
      "scout",
      "--purpose",
      "Finds sources",
      "--write",
      "src",
      "--read",
      "docs",
    ], home),
    { code: 0, stdout: 'Agent "work" is on team "lab" and writes src and reads docs\n', stderr: "" },
  );
  assert.match(await Deno.readTextFile(main.file), /\n\[teams\.lab\]\nall = true\n$/);
  assert.equal(
    await Deno.readTextFile(work.file),
    `${original}\n[teams.lab]\nread = ["docs"]\nwrite = ["src"]\n`,
  );
  const shown = await runJson<Record<string, unknown>>(["agent", "team", "show", "lab"], home);
  assert.deepEqual(shown, {
    team: "lab",
    file: made.file,
    owner: main.agent.owner,
    folder: made.folder,
    members: [
      { id: main.agent.id, name: "main", purpose: "Plans the work" },
      { id: work.agent.id, name: "scout", purpose: "Finds sources" },
    ],
    spec: null,
  });
  const listed = await runJson<{ teams: { team: string }[] }>(["agent", "team", "list"], home);
  assert.deepEqual(listed.teams.map((t) => t.team), ["lab"]);

  const removed = await runCli(["agent", "team", "remove", "lab", "work"], home);
  assert.deepEqual(removed, { code: 0, stdout: 'Agent "work" is off team "lab"\n', stderr: "" });
  assert.equal(await Deno.readTextFile(work.file), original);
  const again = await runCli(["agent", "team", "remove", "lab", "work", "--json"], home);
  assert.equal(again.code, 1);
  assert.equal(JSON.parse(again.stdout).error.code, "INVALID");
  const same = await runCli(
    ["agent", "team", "add", "lab", "work", "--name", "main", "--purpose", "x"],
    home,
  );
  assert.equal(same.code, 1);
  assert.match(same.stderr, /another member has that name/);
  // A grant of a team it is not on, left by hand, gives nothing and stops no other change (TEAM-13).
  await Deno.writeTextFile(work.file, `${original}\n[teams.lab]\nall = true\n`);
  assert.equal((await runCli(["agent", "allow", "--agent", "work", "--tcp", "github.com:22"], home)).code, 0);
});

Deno.test("lnk agent team add refuses an agent of another owner, naming both (TEAM-3), and a hand-edited team file names its line (TEAM-4)", async () => {
  await using home = await tempHome();
  const mine = await created(home, "main");
  const theirs = await created(home, "other");
  await updateSettings(home.paths, theirs.agent.id, (s) => ({ ...s, owner: "acct-someone-else" }));
  await runJson(["agent", "team", "create", "lab"], home);
  await runJson(["agent", "team", "add", "lab", "main", "--purpose", "Plans"], home);
  const before = await Deno.readTextFile(theirs.file);
  const refused = await runCli(["agent", "team", "add", "lab", "other", "--purpose", "Spies"], home);
  assert.deepEqual(refused, {
    code: 1,
    stdout: "",
    stderr:
      `error: Cannot add agent "other" to team "lab": its owner is "acct-someone-else", and the team's ` +
      `members are "${mine.agent.owner}"'s\n` +
      "  hint: A team is one owner's agents: make a team of that owner's agents instead\n",
  });
  assert.equal(await Deno.readTextFile(theirs.file), before, "nothing granted");

  const file = `${home.path}/.lnk/teams/lab.toml`;
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace("purpose =", "role ="));
  const broken = await runCli(["agent", "team", "show", "lab", "--json"], home);
  assert.equal(broken.code, 1);
  const error = JSON.parse(broken.stdout).error;
  assert.equal(error.code, "CONFIG_INVALID");
  assert.match(error.message, /line 6: member 1 has a "role"; a team member takes "purpose"/);
  const added = await runCli(["agent", "team", "add", "lab", "main", "--purpose", "Plans"], home);
  assert.equal(added.code, 1);
  assert.match(added.stderr, /takes "purpose"/);
});

Deno.test("lnk agent team add and remove restart the running members, and leave stopped ones stopped (TEAM-9)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "main", "--harness", "mini"], home);
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "start", "--agent", "main"], home);
  await runJson(["agent", "team", "create", "lab"], home);
  const state = async (agent: string) =>
    (await runJson<{ state: string }>(["agent", "status", "--agent", agent], home)).state;
  const added = await runJson<{ restarted: string[] }>(
    ["agent", "team", "add", "lab", "main", "--purpose", "Plans"],
    home,
  );
  assert.deepEqual(added.restarted, ["main"]);
  const work = await runJson<{ restarted: string[] }>(
    ["agent", "team", "add", "lab", "work", "--purpose", "Does"],
    home,
  );
  assert.deepEqual(work.restarted, ["main"], "a teammate that runs starts with the new team");
  assert.deepEqual([await state("main"), await state("work")], ["running", "stopped"]);
  const removed = await runJson<{ restarted: string[] }>(["agent", "team", "remove", "lab", "work"], home);
  assert.deepEqual(removed.restarted, ["main"]);
  assert.deepEqual([await state("main"), await state("work")], ["running", "stopped"]);
  await runJson(["agent", "stop", "--agent", "main"], home);
});

Deno.test("lnk agent remove takes the agent off every team it is on and starts its running teammates again; restored, it is on none (TEAM-9)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "main", "--harness", "mini"], home);
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "create", "solo", "--harness", "mini"], home);
  for (const team of ["ops", "lab"]) await runJson(["agent", "team", "create", team], home);
  await runJson(["agent", "team", "add", "lab", "main", "--purpose", "Plans"], home);
  await runJson(["agent", "team", "add", "lab", "work", "--purpose", "Does"], home);
  await runJson(["agent", "team", "add", "ops", "work", "--purpose", "Watches"], home);
  await runJson(["agent", "start", "--agent", "main"], home);
  const members = async (team: string) =>
    (await runJson<{ members: { name: string }[] }>(["agent", "team", "show", team], home)).members.map((m) =>
      m.name
    );

  const removed = await runJson<{ teams: string[]; restarted: string[] }>(
    ["agent", "remove", "work", "--yes"],
    home,
  );
  assert.deepEqual(removed.teams, ["lab", "ops"]);
  assert.deepEqual(removed.restarted, ["main"], "the teammate that runs starts with the team as it is now");
  assert.deepEqual(await members("lab"), ["main"]);
  assert.deepEqual(await members("ops"), []);
  const said = await runCli(["agent", "remove", "solo", "--yes"], home);
  assert.equal(said.code, 0);
  assert.doesNotMatch(said.stdout, /team/, "an agent on no team is said to be taken off none");

  await runJson(["agent", "restore", "work"], home);
  assert.deepEqual(await members("lab"), ["main"], "a restored agent comes back on no team");
  assert.equal(
    (await runJson<{ state: string }>(["agent", "status", "--agent", "main"], home)).state,
    "running",
  );
  await runJson(["agent", "stop", "--agent", "main"], home);
});
