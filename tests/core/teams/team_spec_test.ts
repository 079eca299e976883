import assert from "node:assert/strict";
import { layoutOf, loadAgentConfig, loadSettings } from "../../../core/agent/mod.ts";
import { runJson, tempHome } from "../../support/mod.ts";

Deno.test("a team's [spec] lies beneath each member's own: [tool.scheduler] hops from the team, per_day the member's (TEAM-1, TEAM-8)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "main"], home);
  const other = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const agent = await loadSettings(home.paths, id);
  const spec = layoutOf(home.paths, agent).specToml;
  // Its own file sets per_day, and leaves hops to its teams.
  await Deno.writeTextFile(
    spec,
    (await Deno.readTextFile(spec)).replace("hops = 8\n", "").replace("per_day = 100", "per_day = 40"),
  );
  await runJson(["agent", "team", "create", "lab"], home);
  await runJson(["agent", "team", "add", "lab", "main", "--purpose", "Plans"], home);
  const file = `${home.path}/.lnk/teams/lab.toml`;
  const team = await Deno.readTextFile(file);
  await Deno.writeTextFile(
    file,
    `${team}\n[spec.tool.scheduler]\nhops = 3\nper_day = 7\n\n[spec.run]\nidle_after = "9m"\n`,
  );
  const config = await loadAgentConfig(home.paths, agent);
  assert.deepEqual(
    { scheduler: config.spec.tool.scheduler, run: config.spec.run },
    { scheduler: { hops: 3, per_day: 40, wake: "runner" }, run: { idle_after: "5m" } },
  );
  const outsider = await loadAgentConfig(home.paths, await loadSettings(home.paths, other.id));
  assert.equal(outsider.spec.tool.scheduler.hops, 8, "not on the team: Link's");

  // A member taken off keeps only its own.
  await runJson(["agent", "team", "remove", "lab", "main"], home);
  assert.equal((await loadAgentConfig(home.paths, agent)).spec.tool.scheduler.hops, 8);
  await runJson(["agent", "team", "add", "lab", "main", "--purpose", "Plans"], home);
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace("hops = 3", 'hops = "many"'));
  await assert.rejects(() => loadAgentConfig(home.paths, agent), (err: Error & { code?: string }) => {
    assert.equal(err.code, "CONFIG_INVALID");
    assert.equal(err.message, `Cannot load the [spec] of team "lab" in "${file}"`);
    return true;
  });
});
