import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { listSkills } from "../../../core/harness/prompt/mod.ts";
import { runJson, runLnk, tempHome } from "../../support/mod.ts";
import { gitRepo, skillMd } from "../../support/git_repo.ts";

const FOLDERS = 30;
const PER_FOLDER = 30;

/** Every file below a folder, never through a link. */
async function filesIn(dir: string): Promise<number> {
  let n = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) n += await filesIn(`${dir}/${entry.name}`);
    else if (entry.isFile) n++;
  }
  return n;
}

Deno.test("a lister watching Agent/skills/ while lnk agent skill add copies 901 files in a child process never sees half a skill (SKL-2)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  const skills = layoutOf(home.paths, await loadSettings(home.paths, id)).collection("skills");
  const entries: Record<string, string> = { "SKILL.md": skillMd("Many files") };
  for (let f = 0; f < FOLDERS; f++) {
    for (let i = 0; i < PER_FOLDER; i++) entries[`part${f}/note${i}.md`] = `note ${f}.${i}\n`.repeat(50);
  }
  await using repo = await gitRepo(entries);
  const whole = FOLDERS * PER_FOLDER + 1;

  let done = false;
  const adding = runLnk(["agent", "skill", "add", repo.path, "--name", "many"], home).finally(() =>
    done = true
  );
  const seen: number[] = [];
  while (!done) {
    const listed = await listSkills(skills);
    // What the harness lists is the whole skill or nothing: never its dot-named copy, never part of it.
    assert.deepEqual(listed.map((s) => s.name).filter((n) => n !== "many"), []);
    if (listed.length === 1) {
      assert.equal(listed[0]!.description, "Many files");
      seen.push(await filesIn(`${skills}/many`));
    }
  }
  const out = await adding;
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(
    seen.filter((n) => n !== whole),
    [],
    `every listing that showed the skill showed ${whole} files`,
  );
  assert.deepEqual(await listSkills(skills), [{ name: "many", description: "Many files" }]);
  assert.equal(await filesIn(`${skills}/many`), whole);
});
