import assert from "node:assert/strict";
import { join } from "node:path";
import { cloneRepository } from "../../../core/skills/clone_repository.ts";
import { holdAddLock } from "../../../core/skills/add_lock.ts";
import { git, gitRepo, skillMd } from "../../support/git_repo.ts";
import { tempHome } from "../../support/mod.ts";

async function commitMore(dir: string, file: string): Promise<string> {
  await Deno.writeTextFile(join(dir, file), "later\n");
  await git(dir, ["add", "-A"]);
  await git(dir, ["-c", "user.name=Test", "-c", "user.email=test@localhost", "commit", "-q", "-m", file]);
  return (await git(dir, ["rev-parse", "HEAD"])).trim();
}

async function filesOf(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) => n !== ".git").sort();
}

Deno.test("cloneRepository() clones a branch, a tag or a commit by its id (a GitHub permalink's), and the default branch's head", async () => {
  await using home = await tempHome();
  await using repo = await gitRepo({ "SKILL.md": skillMd("First") });
  const first = (await git(repo.path, ["rev-parse", "HEAD"])).trim();
  await git(repo.path, ["tag", "v1"]);
  await git(repo.path, ["branch", "old"]);
  await commitMore(repo.path, "second.md");
  using _lock = await holdAddLock(home.paths);
  const cases: [string | undefined, string[]][] = [
    [undefined, ["SKILL.md", "second.md"]],
    ["old", ["SKILL.md"]],
    ["v1", ["SKILL.md"]],
    [first, ["SKILL.md"]],
  ];
  for (const [ref, want] of cases) {
    await using clone = await cloneRepository(home.paths, { clone: repo.url, ref, name: "x" }, {
      env: home.env,
    });
    assert.deepEqual(await filesOf(clone.dir), want, ref);
  }
  // A plain path too goes through git's transport, so --depth 1 holds: one commit, no hard links to its .git.
  {
    await using clone = await cloneRepository(home.paths, { clone: repo.path, name: "x" }, { env: home.env });
    assert.equal((await git(clone.dir, ["rev-list", "--count", "HEAD"])).trim(), "1");
  }
  await assert.rejects(
    cloneRepository(home.paths, { clone: repo.url, ref: "nope", name: "x" }, { env: home.env }),
    { name: "LinkError", code: "CLONE_FAILED" },
  );
  await assert.rejects(
    cloneRepository(home.paths, { clone: repo.url, ref: "0".repeat(40), name: "x" }, { env: home.env }),
    { name: "LinkError", code: "CLONE_FAILED" },
  );
  assert.deepEqual([...Deno.readDirSync(home.paths.skillClones)], [], "a failed clone leaves nothing");
});

Deno.test("cloneRepository() runs no hook of the person's git config or template, and ignores GIT_DIR pointing elsewhere", async () => {
  await using home = await tempHome();
  await using repo = await gitRepo({ "SKILL.md": skillMd("Hooked") });
  const hooks = join(home.path, "hooks");
  const marker = join(home.path, "hook-ran");
  await Deno.mkdir(join(hooks, "hooks"), { recursive: true });
  for (const hook of ["post-checkout", "post-merge", "reference-transaction"]) {
    await Deno.writeTextFile(join(hooks, "hooks", hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
  }
  await Deno.writeTextFile(
    join(home.path, ".gitconfig"),
    `[core]\n\thooksPath = ${hooks}/hooks\n[init]\n\ttemplateDir = ${hooks}\n`,
  );
  // Without Link's own settings the hook runs: the person's config is what is tested.
  await new Deno.Command("git", {
    args: ["clone", "-q", repo.url, join(home.path, "plain")],
    env: { HOME: home.path },
    clearEnv: true,
    stderr: "null",
  }).output();
  assert.ok(
    await Deno.lstat(marker).then(() => true, () => false),
    "the person's hook runs in a plain clone",
  );
  await Deno.remove(marker);
  home.env.set("GIT_DIR", join(home.path, "elsewhere"));
  using _lock = await holdAddLock(home.paths);
  for (const ref of [undefined, (await git(repo.path, ["rev-parse", "HEAD"])).trim()]) {
    await using clone = await cloneRepository(home.paths, { clone: repo.url, ref, name: "x" }, {
      env: home.env,
    });
    assert.deepEqual(await filesOf(clone.dir), ["SKILL.md"]);
  }
  assert.equal(await Deno.lstat(marker).then(() => true, () => false), false, "no hook ran");
  assert.equal(await Deno.lstat(join(home.path, "elsewhere")).then(() => true, () => false), false);
});
