/**
 * The attack suite, links and renames (REFER): the sandbox's scope-only Landlock domains (the
 * launcher's exec, `lnk sandbox run`, and the confined spawner beside relays, the hub's) grant
 * Landlock's REFER beneath the writable mounts, so a program links and renames between its own
 * folders (OpenClaw's atomic writes need it). From inside a real sandbox, each way a hard link or a
 * rename could move a file out of or into a place the grants forbid is tried: a read-only grant,
 * a hidden place, a protected file and a pinned folder; each is refused and nothing outside changed.
 * as_user_test.ts runs this file again as an ordinary user.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type AgentFixture, agentFixture, type RunOptions, sandboxTest } from "../support/sandbox.ts";

/** `lk <from> <to>` hard-links and `rn <from> <to>` renames, with the system calls alone (no copy fallback). */
const HELPERS = `lk() { ln "$1" "$2" 2>/dev/null && echo "linked $3" || echo "refused $3"; }
rn() { perl -e 'print rename($ARGV[0], $ARGV[1]) ? "renamed" : "refused", " $ARGV[2]\\n"' "$1" "$2" "$3"; }
`;

/** A relay rule that keeps Link's launcher running beside the program: it starts it with the confined spawner. */
const SPAWNER = (fx: AgentFixture): RunOptions => ({
  relays: [{ kind: "tcp-to-unix" as const, port: 3128, socket: join(fx.netDir, "proxy.sock") }],
});

/** A read-only folder outside Home, and a repository in Home with its protected places. */
async function places(fx: AgentFixture): Promise<{ ro: string; repo: string }> {
  const ro = join(fx.home, "shared");
  await Deno.mkdir(ro, { mode: 0o755 });
  await Deno.writeTextFile(join(ro, "doc.txt"), "shared doc\n", { mode: 0o644 });
  const repo = join(fx.agentHome, "app");
  await Deno.mkdir(join(repo, ".git", "hooks"), { recursive: true, mode: 0o777 });
  await Deno.writeTextFile(join(repo, ".git", "config"), "[core]\n", { mode: 0o666 });
  await Deno.writeTextFile(join(repo, ".npmrc"), "registry-of-the-person\n", { mode: 0o666 });
  for (const dir of [fx.agentHome, repo, join(repo, ".git")]) await Deno.chmod(dir, 0o777);
  return { ro, repo };
}

for (
  const [how, options] of [["the launcher's exec", () => ({})], ["the confined spawner", SPAWNER]] as const
) {
  sandboxTest(
    `attack: link or rename a file out of or into what the grants forbid, under ${how} (REFER beneath writable mounts alone)`,
    async () => {
      await using fx = await agentFixture();
      const { ro, repo } = await places(fx);
      const h = fx.agentHome;
      const script = HELPERS + [
        // Its own folders: allowed, the reason REFER is granted.
        `mkdir -p ${h}/a ${h}/b && echo x > ${h}/a/f && echo y > ${h}/a/g`,
        `lk ${h}/a/f ${h}/b/f own-link`,
        `rn ${h}/a/g ${h}/b/g own-rename`,
        // A read-only grant, out and in.
        `lk ${ro}/doc.txt ${h}/stolen ro-out-link`,
        `rn ${ro}/doc.txt ${h}/stolen ro-out-rename`,
        `lk ${h}/b/f ${ro}/planted ro-in-link`,
        `rn ${h}/b/f ${ro}/planted ro-in-rename`,
        // Hidden places: Link's state and the person's keys, out and in.
        `lk ${fx.home}/.ssh/id_ed25519 ${h}/key hidden-out-link`,
        `rn ${fx.home}/.ssh/id_ed25519 ${h}/key hidden-out-rename`,
        `lk ${h}/b/f ${fx.home}/.lnk/agents/planted hidden-in-link`,
        `rn ${h}/b/f ${fx.home}/.lnk/agents/planted hidden-in-rename`,
        // Protected files and the pinned .git: moved away, replaced, or linked into.
        `rn ${repo}/.git/config ${h}/config protected-out-rename`,
        `lk ${repo}/.git/config ${h}/config protected-out-link`,
        `rn ${h}/b/f ${repo}/.git/config protected-replace-rename`,
        `rn ${h}/b/f ${repo}/.npmrc npmrc-replace-rename`,
        `lk ${h}/b/f ${repo}/.git/hooks/pre-commit hooks-in-link`,
        `rn ${repo}/.git ${h}/git pinned-rename`,
      ].join("\n");
      const r = await fx.sh(script, { spec: `[paths]\nread = ["${ro}"]\n`, ...options(fx) });
      assert.equal(
        r.stdout,
        [
          "linked own-link",
          "renamed own-rename",
          "refused ro-out-link",
          "refused ro-out-rename",
          "refused ro-in-link",
          "refused ro-in-rename",
          "refused hidden-out-link",
          "refused hidden-out-rename",
          "refused hidden-in-link",
          "refused hidden-in-rename",
          "refused protected-out-rename",
          "refused protected-out-link",
          "refused protected-replace-rename",
          "refused npmrc-replace-rename",
          "refused hooks-in-link",
          "refused pinned-rename",
          "",
        ].join("\n"),
        r.stderr,
      );
      // Nothing outside moved: each place is as it was.
      assert.equal(await Deno.readTextFile(join(ro, "doc.txt")), "shared doc\n");
      assert.deepEqual([...Deno.readDirSync(ro)].map((e) => e.name), ["doc.txt"]);
      assert.equal(await Deno.readTextFile(join(fx.home, ".ssh", "id_ed25519")), "PRIVATE KEY\n");
      await assert.rejects(Deno.lstat(join(fx.home, ".lnk", "agents", "planted")), Deno.errors.NotFound);
      assert.equal(await Deno.readTextFile(join(repo, ".git", "config")), "[core]\n");
      assert.equal(await Deno.readTextFile(join(repo, ".npmrc")), "registry-of-the-person\n");
      await assert.rejects(Deno.lstat(join(repo, ".git", "hooks", "pre-commit")), Deno.errors.NotFound);
    },
  );
}
