/**
 * Agent/skills/ is the harness's to write, so `lnk agent skill list` and `remove` read it as an
 * attacker's: what the agent could plant there is planted here, and each is listed without
 * following a link, printed so it cannot drive the terminal, and read no further than its head.
 */
import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { skillMd } from "../../support/git_repo.ts";

async function plantedHome() {
  const home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  const skills = layoutOf(home.paths, await loadSettings(home.paths, id)).collection("skills");
  const secret = `${home.path}/.ssh`;
  await Deno.mkdir(secret);
  await Deno.writeTextFile(`${secret}/SKILL.md`, skillMd("the secret folder's own text"));
  return { home, skills, secret };
}

Deno.test("lnk agent skill list: a planted link, a name and a description with control characters, a huge SKILL.md, a fifo", async () => {
  const { home, skills, secret } = await plantedHome();
  await using _home = home;
  await Deno.symlink(secret, `${skills}/evil`);
  const bad = "red\u001b[31mname\nsecond\u202eline";
  await Deno.mkdir(`${skills}/${bad}`);
  await Deno.writeTextFile(`${skills}/${bad}/SKILL.md`, skillMd("clears\u001b[2J the screen\u0007"));
  await Deno.mkdir(`${skills}/huge`);
  const huge = await Deno.open(`${skills}/huge/SKILL.md`, { write: true, create: true });
  await huge.write(new TextEncoder().encode(skillMd("Huge")));
  await huge.truncate(1024 * 1024 * 1024);
  huge.close();
  await Deno.mkdir(`${skills}/linked`);
  await Deno.symlink(`${secret}/SKILL.md`, `${skills}/linked/SKILL.md`);
  await Deno.writeTextFile(`${skills}/notes.txt`, "not a skill");
  const fifo = await new Deno.Command("mkfifo", { args: [`${skills}/pipe`] }).output();
  assert.ok(fifo.success);
  await Deno.mkdir(`${skills}/.lnk-add-12345678`);

  assert.deepEqual(await runCli(["agent", "skill", "list"], home), {
    code: 0,
    stdout: "huge  Huge\n" +
      "linked  \n" +
      "red\\u{1b}[31mname\\u{a}second\\u{202e}line  clears\\u{1b}[2J the screen\\u{7}\n",
    stderr: 'Not a skill: "evil" (a link)\n' +
      'Not a skill: "notes.txt" (a file)\n' +
      'Not a skill: "pipe" (neither file nor folder)\n',
  });
  const listed = await runJson<{ skills: { name: string }[]; others: unknown[] }>(
    ["agent", "skill", "list", "--json"],
    home,
  );
  assert.deepEqual(listed.skills.map((s) => s.name), ["huge", "linked", bad]);
  assert.deepEqual(listed.others, [
    { name: "evil", kind: "link" },
    { name: "notes.txt", kind: "file" },
    { name: "pipe", kind: "other" },
  ]);
});

Deno.test("lnk agent skill remove removes a planted link itself, never what it points at, and refuses a path for a name", async () => {
  const { home, skills, secret } = await plantedHome();
  await using _home = home;
  await Deno.symlink(secret, `${skills}/evil`);
  await Deno.mkdir(`${skills}/inside`);
  await Deno.symlink(secret, `${skills}/inside/ssh`);
  assert.equal((await runCli(["agent", "skill", "remove", "evil"], home)).code, 0);
  assert.equal((await runCli(["agent", "skill", "remove", "inside"], home)).code, 0);
  assert.deepEqual([...Deno.readDirSync(skills)], []);
  assert.deepEqual([...Deno.readDirSync(secret)].map((e) => e.name), ["SKILL.md"]);
  for (const name of ["../.ssh", ".", "..", "a/b", ".lnk-add-x"]) {
    const out = await runCli(["agent", "skill", "remove", name, "--json"], home);
    assert.equal(JSON.parse(out.stdout).error.code, "USAGE", name);
  }
  assert.deepEqual([...Deno.readDirSync(secret)].map((e) => e.name), ["SKILL.md"]);
});

Deno.test("lnk agent skill list and add refuse Agent/skills made a link to a secret folder, listing nothing of it", async () => {
  const { home, skills, secret } = await plantedHome();
  await using _home = home;
  await Deno.remove(skills);
  await Deno.symlink(secret, skills);
  for (const args of [["list"], ["add", "/nowhere"], ["remove", "x"]]) {
    const out = await runCli(["agent", "skill", ...args, "--json"], home);
    assert.equal(JSON.parse(out.stdout).error.code, "SYMLINK_REFUSED", args.join(" "));
  }
  assert.deepEqual([...Deno.readDirSync(secret)].map((e) => e.name), ["SKILL.md"]);
});
