import assert from "node:assert/strict";
import { addSkill, type AddSkillOptions } from "../../../core/skills/mod.ts";
import { buildSystemPrompt, listSkills } from "../../../core/harness/prompt/mod.ts";
import { layoutOf } from "../../../core/agent/mod.ts";
import { gitRepo, skillMd } from "../../support/git_repo.ts";
import { namesIn, type SkillsHome, skillsHome } from "./_support.ts";

function add(at: SkillsHome, options: Omit<AddSkillOptions, "env">) {
  return addSkill(at.home.paths, at.agent, { env: at.home.env, ...options });
}

/** Nothing of a failed add is left: no skill, no copy, no clone, and the secret folder as it was. */
async function nothingLeft(at: SkillsHome, skills = at.skills): Promise<void> {
  assert.deepEqual(await namesIn(skills), []);
  assert.deepEqual(await namesIn(at.home.paths.skillClones), []);
  assert.deepEqual(await namesIn(at.secret), ["id_ed25519"]);
}

Deno.test("addSkill() installs a repository's sub-folder skill from a file:// URL, as Link Harness lists it, and removes the clone (SKL-1, SKL-2, SKL-5)", async () => {
  await using at = await skillsHome();
  await using repo = await gitRepo({
    "README.md": "# Skills\n",
    "skills/pdf/SKILL.md": skillMd("Reads and fills PDF forms"),
    "skills/pdf/reference/forms.md": "How forms work.\n",
    "skills/pdf/passwd": { link: "/etc/passwd" },
    "skills/other/SKILL.md": skillMd("Not this one"),
  });
  const added = await add(at, { url: `${repo.url}/skills/pdf` });
  assert.deepEqual(added, {
    agent: "main",
    name: "pdf",
    description: "Reads and fills PDF forms",
    source: { clone: repo.url, path: "skills/pdf", name: "pdf" },
    files: 2,
    folders: 1,
    bytes: skillMd("Reads and fills PDF forms").length + "How forms work.\n".length,
    leftOut: [{ path: "passwd", kind: "link" }],
    harness: "link",
    harnessReadsSkills: true,
    memory: false,
  });
  assert.deepEqual(await namesIn(at.skills), ["pdf"]);
  assert.deepEqual(await namesIn(`${at.skills}/pdf`), ["SKILL.md", "reference"]);
  assert.equal(await Deno.readTextFile(`${at.skills}/pdf/reference/forms.md`), "How forms work.\n");
  assert.equal((await Deno.stat(`${at.skills}/pdf`)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(`${at.skills}/pdf/SKILL.md`)).mode! & 0o777, 0o600);
  assert.deepEqual(await listSkills(at.skills), [{ name: "pdf", description: "Reads and fills PDF forms" }]);
  // The prompt every conversation of the start gets, memory off, a narrowed subagent's too (SKL-5).
  const layout = layoutOf(at.home.paths, at.agent);
  const folders = {
    home: layout.home,
    instructions: layout.collection("instructions"),
    skills: layout.collection("skills"),
    memory: layout.collection("memory"),
    chats: layout.collection("chats"),
  };
  assert.match(
    await buildSystemPrompt({ folders, agentName: "main" }),
    /\n- pdf: Reads and fills PDF forms\n/,
  );
  assert.deepEqual(await namesIn(at.home.paths.skillClones), [], "the clone is removed once copied");
  assert.equal((await Deno.stat(at.home.paths.skillClones)).mode! & 0o777, 0o700);
});

Deno.test("addSkill() refuses a skill folder that is a committed link, or reached through one: it cannot lead out of the clone (SKL-3)", async () => {
  await using at = await skillsHome();
  await using repo = await gitRepo({
    "skills/pdf/SKILL.md": skillMd("PDFs"),
    "skills/ssh": { link: at.secret },
    "lib": { link: "skills" },
  });
  await assert.rejects(add(at, { url: `${repo.path}/skills/ssh` }), {
    name: "LinkError",
    code: "SYMLINK_REFUSED",
  });
  await assert.rejects(add(at, { url: `${repo.path}/lib/pdf` }), {
    name: "LinkError",
    code: "SYMLINK_REFUSED",
  });
  await nothingLeft(at);
});

Deno.test("addSkill() refuses a skill past a limit, leaving nothing behind (SKL-2)", async () => {
  await using at = await skillsHome();
  const files: Record<string, string> = { "SKILL.md": skillMd("Too big") };
  for (let i = 1; i <= 1_000; i++) files[`notes/${i}.md`] = `${i}\n`;
  await using repo = await gitRepo(files);
  await assert.rejects(add(at, { url: repo.path, name: "big" }), { name: "LinkError", code: "REFUSED" });
  await nothingLeft(at);
});

/** A repository whose skill has two folders, so a race can strike between them. */
function twoFolders() {
  return gitRepo({
    "skills/s/SKILL.md": skillMd("Two folders"),
    "skills/s/a/one.md": "one\n",
    "skills/s/b/two.md": "two\n",
  });
}

Deno.test("addSkill() refuses a link swapped into the clone mid-copy, and writes nothing through it (SKL-3)", async () => {
  await using at = await skillsHome();
  await using repo = await twoFolders();
  await assert.rejects(
    add(at, {
      url: `${repo.path}/skills/s`,
      onFolder: (path) => {
        if (path !== "a") return;
        const [clone] = [...Deno.readDirSync(at.home.paths.skillClones)];
        const b = `${at.home.paths.skillClones}/${clone!.name}/repo/skills/s/b`;
        Deno.removeSync(b, { recursive: true });
        Deno.symlinkSync(at.secret, b);
      },
    }),
    { name: "LinkError", code: "SYMLINK_REFUSED" },
  );
  await nothingLeft(at);
});

Deno.test("addSkill() refuses Agent/skills swapped for a link to a secret folder mid-copy: nothing is written outside skills/ (SKL-3)", async () => {
  await using at = await skillsHome();
  await using repo = await twoFolders();
  await assert.rejects(
    add(at, {
      url: `${repo.path}/skills/s`,
      onFolder: (path) => {
        if (path !== "") return;
        Deno.renameSync(at.skills, `${at.skills}.moved`);
        Deno.symlinkSync(at.secret, at.skills);
      },
    }),
    { name: "LinkError", code: "SYMLINK_REFUSED" },
  );
  await nothingLeft(at, `${at.skills}.moved`);
  await assert.rejects(add(at, { url: `${repo.path}/skills/s` }), {
    name: "LinkError",
    code: "SYMLINK_REFUSED",
  });
  assert.deepEqual(await namesIn(at.secret), ["id_ed25519"]);
});

Deno.test("addSkill() refuses a link planted in its copy where a file is about to go, and never writes through it (SKL-3)", async () => {
  await using at = await skillsHome();
  await using repo = await twoFolders();
  await assert.rejects(
    add(at, {
      url: `${repo.path}/skills/s`,
      onFolder: (path) => {
        if (path !== "a") return;
        const [copy] = [...Deno.readDirSync(at.skills)];
        assert.match(copy!.name, /^\.lnk-add-/);
        Deno.symlinkSync(`${at.secret}/stolen`, `${at.skills}/${copy!.name}/a/one.md`);
      },
    }),
    { name: "LinkError", code: "SYMLINK_REFUSED" },
  );
  await nothingLeft(at);
});

Deno.test("addSkill() run twice at once for one name installs one skill and refuses the other, never mixing them (SKL-2)", async () => {
  await using at = await skillsHome();
  await using one = await gitRepo({ "SKILL.md": skillMd("The first") });
  await using two = await gitRepo({ "SKILL.md": skillMd("The second") });
  const results = await Promise.allSettled([
    add(at, { url: one.path, name: "pdf" }),
    add(at, { url: two.path, name: "pdf" }),
  ]);
  const refused = results.filter((r) => r.status === "rejected").map((r) =>
    (r as PromiseRejectedResult).reason
  );
  assert.equal(refused.length, 1);
  assert.equal(refused[0].code, "CONFLICT");
  const won = results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<
    { description: string }
  >;
  assert.deepEqual(await listSkills(at.skills), [{ name: "pdf", description: won.value.description }]);
  assert.deepEqual(await namesIn(at.home.paths.skillClones), []);
});

Deno.test("addSkill() stopped by its signal (Ctrl-C) while git clones leaves no clone and no skill", async () => {
  await using at = await skillsHome();
  await using repo = await gitRepo({ "SKILL.md": skillMd("Stopped") });
  const stop = new AbortController();
  stop.abort(new Error("stopped"));
  await assert.rejects(add(at, { url: repo.path, signal: stop.signal }));
  await nothingLeft(at);
});

Deno.test("addSkill() removes what an add killed mid-way left: its clone and its unfinished copy", async () => {
  await using at = await skillsHome();
  await using repo = await gitRepo({ "SKILL.md": skillMd("After a crash") });
  await Deno.mkdir(`${at.home.paths.skillClones}/0123456789abcdef-dead/repo`, { recursive: true });
  await Deno.mkdir(`${at.skills}/.lnk-add-deadbeef/half`, { recursive: true });
  await add(at, { url: repo.path, name: "pdf" });
  assert.deepEqual(await namesIn(at.skills), ["pdf"]);
  assert.deepEqual(await namesIn(at.home.paths.skillClones), []);
});

Deno.test("addSkill() refuses Agent/skills/<name> made a link to ~/.ssh during the add: it never renames over it or writes through it (SKL-3)", async () => {
  await using at = await skillsHome();
  await using repo = await twoFolders();
  await assert.rejects(
    add(at, {
      url: `${repo.path}/skills/s`,
      onFolder: (path) => {
        if (path === "b") Deno.symlinkSync(at.secret, `${at.skills}/s`);
      },
    }),
    { name: "LinkError", code: "CONFLICT" },
  );
  assert.deepEqual(await namesIn(at.skills), ["s"]);
  assert.equal(Deno.readLinkSync(`${at.skills}/s`), at.secret);
  assert.deepEqual(await namesIn(at.secret), ["id_ed25519"]);
  assert.deepEqual(await namesIn(at.home.paths.skillClones), []);
});
