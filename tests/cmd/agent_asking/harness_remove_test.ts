import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { demoAdapter, NEEDS } from "./_demo_adapter_support.ts";

const layer = (home: { path: string }) => join(home.path, ".lnk", "harnesses", "demo.toml");
const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

Deno.test("lnk agent harness remove ends a harness for one agent, its home of it, keeping the answers; delete takes the harness's file with the last agent on it (CLI-6, GRT-12)", async () => {
  await using home = await tempHome();
  await demoAdapter(home, NEEDS);
  const main = await runJson<{ id: string }>(["agent", "create", "--harness", "demo"], home);
  const other = await runJson<{ id: string }>(["agent", "create", "other", "--harness", "demo"], home);
  await runCli(["agent", "harness", "allow", "--agent", "main", "--port", "9000"], home);
  const homeOf = (id: string) => join(home.path, ".lnk", "agents", id, "harnesses", "demo");
  for (const id of [main.id, other.id]) {
    await Deno.mkdir(join(homeOf(id), ".lnk"), { recursive: true });
    await Deno.writeTextFile(join(homeOf(id), ".lnk", "configured"), "x");
  }
  const removed = await runCli(["agent", "harness", "remove", "demo", "--agent", "main"], home);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /Removed agent "main"'s home of harness "demo"/);
  assert.equal(await exists(homeOf(main.id)), false);
  assert.equal(await exists(homeOf(other.id)), true, "another agent's home of it stays");
  assert.equal(await exists(layer(home)), true, "remove keeps the answers");
  // delete while another agent runs it: its home goes, the harness's file stays.
  const kept = await runJson<{ others: string[] }>(
    ["agent", "harness", "delete", "--harness", "demo", "--agent", "main", "--json"],
    home,
  );
  assert.deepEqual(kept.others, ["other"]);
  assert.equal(await exists(layer(home)), true);
  // With the last agent on it, delete takes the file.
  assert.equal((await runCli(["agent", "use", "link", "--agent", "main"], home)).code, 0);
  const last = await runCli(["agent", "harness", "delete", "--harness", "demo", "--agent", "other"], home);
  assert.equal(last.code, 0, last.stderr);
  assert.equal(await exists(homeOf(other.id)), false);
  assert.equal(await exists(layer(home)), false, "the last agent on it takes the harness's file");
  assert.match(last.stdout, /no other agent here runs "demo"/);
});

Deno.test("lnk agent harness remove without a harness, or with a name that is not one, is refused and removes nothing", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  const none = await runCli(["agent", "harness", "remove"], home);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no harness was named/);
  const bad = await runCli(["agent", "harness", "remove", "../x"], home);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /not a harness's name/);
});

Deno.test("lnk agent harness remove refuses the harness the agent runs now while it runs, with a hint, and removes it once stopped (CLI-6)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  const harnessHome = join(home.path, ".lnk", "agents", id, "harnesses", "mini");
  await Deno.mkdir(harnessHome, { recursive: true });
  await runJson(["agent", "start"], home);
  try {
    const refused = await runCli(["agent", "harness", "remove", "mini"], home);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Cannot remove harness "mini" of agent "work": it runs on it now/);
    assert.match(refused.stderr, /lnk agent stop --agent work/);
    assert.equal(await exists(harnessHome), true, "a refused remove removes nothing");
  } finally {
    await runJson(["agent", "stop"], home);
  }
  const removed = await runCli(["agent", "harness", "remove", "mini"], home);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(await exists(harnessHome), false);
});
