import assert from "node:assert/strict";
import { LinkPaths } from "../../../core/base/mod.ts";
import { changeTeam, createTeam, readTeam } from "../../../core/teams/mod.ts";

Deno.test("team store: a team is made 0700 with its file 0600, members changed keep [spec] as written, nonsense refused by line", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = new LinkPaths(home);
    const made = await createTeam(paths, "lab", { owner: "o1" });
    assert.equal(made.folder, `${home}/Link/Teams/lab`);
    assert.equal((await Deno.stat(made.folder)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(made.path)).mode! & 0o777, 0o600);
    await assert.rejects(() => createTeam(paths, "lab", { owner: "o1" }), { code: "CONFLICT" });
    await assert.rejects(() => createTeam(paths, "Lab!", { owner: "o1" }), { code: "USAGE" });
    await Deno.writeTextFile(
      made.path,
      `${await Deno.readTextFile(made.path)}\n# the team's own\n[spec.tool.scheduler]\nhops = 3 # fewer\n`,
    );
    await changeTeam(paths, "lab", () => ({ member: [{ id: "a1", name: "ann", purpose: "writes" }] }));
    const text = await Deno.readTextFile(made.path);
    assert.match(text, /\[spec\.tool\.scheduler\]\nhops = 3 # fewer\n$/);
    const read = await readTeam(paths, "lab");
    assert.deepEqual(
      {
        owner: read?.owner,
        folder: read?.folder,
        member: read?.member,
        spec: JSON.parse(JSON.stringify(read?.spec)),
      },
      {
        owner: "o1",
        folder: made.folder,
        member: [{ id: "a1", name: "ann", purpose: "writes" }],
        spec: { tool: { scheduler: { hops: 3 } } },
      },
    );
    await Deno.writeTextFile(made.path, `owner = "o1"\nfolder = "/x"\n[[member]]\nid = "a1"\nname = "ann"\n`);
    await assert.rejects(
      () => changeTeam(paths, "lab", (t) => ({ member: t.member })),
      (err: Error & { code?: string }) => err.code === "CONFIG_INVALID" && /line 3/.test(err.message),
    );
    await assert.rejects(() => changeTeam(paths, "none", (t) => ({ member: t.member })), {
      code: "CONFIG_INVALID",
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("team store: a team's folder is refused where a grant of it would widen the sandbox", async () => {
  const home = await Deno.makeTempDir();
  try {
    const paths = new LinkPaths(home);
    await createTeam(paths, "lab", { owner: "o1", folder: `${home}/shared/lab` });
    for (
      const folder of [
        home,
        "/",
        `${home}/.lnk/x`,
        `${home}/.config`,
        `${home}/Link/Agents/main/Home`,
        `${home}/Link/Teams`,
        `${home}/Link/Teams/lab`,
        `${home}/shared`,
        `${home}/shared/lab/inner`,
      ]
    ) {
      await assert.rejects(
        () => createTeam(paths, "two", { owner: "o1", folder }),
        { code: "REFUSED" },
        folder,
      );
    }
    assert.equal(
      (await createTeam(paths, "two", { owner: "o1", folder: `${home}/Link/Teams/two` })).name,
      "two",
    );
    // A folder there already is the person's: its mode is left as it is.
    await Deno.mkdir(`${home}/mine`, { mode: 0o755 });
    await Deno.chmod(`${home}/mine`, 0o755);
    await createTeam(paths, "three", { owner: "o1", folder: `${home}/mine` });
    assert.equal((await Deno.stat(`${home}/mine`)).mode! & 0o777, 0o755);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
