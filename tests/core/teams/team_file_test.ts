import assert from "node:assert/strict";
import { LinkPaths } from "../../../core/base/mod.ts";
import { readTeams, shareTeam, teammatesOf } from "../../../core/teams/mod.ts";

Deno.test("team files: a role is refused naming purpose, a broken file stops no other team, teammates read afresh", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = new LinkPaths(home);
    await Deno.mkdir(paths.teams, { recursive: true });
    const team = (members: string) => `owner = "o"\nfolder = "${home}/Link/Teams/t"\n${members}`;
    await Deno.writeTextFile(
      `${paths.teams}/t.toml`,
      team(
        `[[member]]\nid = "a1"\nname = "ann"\npurpose = "writes"\n[[member]]\nid = "b2"\nname = "bo"\npurpose = "checks"\n`,
      ),
    );
    await Deno.writeTextFile(
      `${paths.teams}/bad.toml`,
      team(`[[member]]\nid = "a1"\nname = "ann"\nrole = "x"\n`),
    );
    assert.deepEqual((await readTeams(paths)).map((t) => t.name), ["t"]);
    assert.deepEqual((await teammatesOf(paths, "a1")).map((m) => [m.team, m.id, m.name]), [[
      "t",
      "b2",
      "bo",
    ]]);
    assert.equal(await shareTeam(paths, "b2", "a1"), true);
    await Deno.writeTextFile(
      `${paths.teams}/t.toml`,
      team(`[[member]]\nid = "b2"\nname = "bo"\npurpose = "checks"\n`),
    );
    assert.equal(await shareTeam(paths, "b2", "a1"), false);
    const { parseTeam } = await import("../../../core/teams/mod.ts");
    assert.throws(
      () => parseTeam("bad", "bad.toml", team(`[[member]]\nid = "a1"\nname = "ann"\nrole = "x"\n`)),
      /purpose/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
