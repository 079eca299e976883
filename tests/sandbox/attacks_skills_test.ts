/**
 * The attack `skill add` is built against, from where it comes: a program in the agent's real
 * sandbox, with `[files] skills = "write"`, racing every copy it sees in Agent/skills/ (moving it
 * away for a link to ~/.ssh, or planting links to ~/.ssh where files are about to go) while the
 * owner adds skills over and over outside.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { TextLineReader } from "../../core/base/mod.ts";
import { AgentSettings } from "../../core/agent/mod.ts";
import { addSkill, removeSkill } from "../../core/skills/mod.ts";
import { runSandboxed } from "../../sandbox/mod.ts";
import { testEnv } from "../support/mod.ts";
import { AGENT_ID, agentFixture, sandboxTest } from "../support/sandbox.ts";
import { gitRepo, skillMd } from "../support/git_repo.ts";

const ADDS = 10;
const FILES = 200;

/** Every file below a folder, never through a link. */
function filesIn(dir: string): number {
  let n = 0;
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isDirectory) n += filesIn(join(dir, entry.name));
    else if (entry.isFile) n++;
  }
  return n;
}

sandboxTest(
  "attack: swap each copy skill add makes in Agent/skills for a link to ~/.ssh, and plant links in it, from the agent's sandbox while skills are added over and over (SKL-3)",
  async () => {
    await using fx = await agentFixture();
    const skills = join(fx.agentDir, "skills");
    const secret = join(fx.home, ".ssh");
    const entries: Record<string, string> = { "SKILL.md": skillMd("Raced") };
    for (let i = 0; i < FILES; i++) entries[`part${i % 10}/note${i}.md`] = `note ${i}\n`;
    await using repo = await gitRepo(entries);
    const script = `S=${skills}; T=${secret}; echo racing; n=0
while [ ! -e "$S/.stop" ]; do
  for d in "$S"/.lnk-add-*; do
    [ -d "$d" ] && [ ! -L "$d" ] || continue
    n=$((n+1))
    if [ $((n % 2)) -eq 0 ]; then mv "$d" "$S/moved-$n" 2>/dev/null && ln -s "$T" "$d" 2>/dev/null
    else for f in "$d"/part*; do ln -s "$T/stolen" "$f/note999.md" 2>/dev/null; done; fi
  done
done
echo "raced $n"`;
    const plan = await fx.plan(["/bin/sh", "-c", script], { spec: '[files]\nskills = "write"\n' });
    await using racer = await runSandboxed(plan, { stdin: "null", stdout: "piped", stderr: "piped" });
    const lines = new TextLineReader(racer.child.stdout);
    assert.equal(await lines.next(), "racing");

    const agent = AgentSettings.parse({
      id: AGENT_ID,
      name: "main",
      owner: "local-test",
      ports: { endpoint: 18800, block: 18800 },
    });
    const env = testEnv({ HOME: fx.home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" });
    const seen: Record<string, number> = {};
    for (let i = 0; i < ADDS; i++) {
      const outcome = await addSkill(fx.paths, agent, { url: repo.path, name: "raced", env }).then(
        () => {
          // What was put in place is the whole skill, or it would not have been.
          assert.equal(filesIn(join(skills, "raced")), FILES + 1);
          removeSkill(fx.paths, agent, "raced");
          return "added";
        },
        (err) => err.code as string,
      );
      seen[outcome] = (seen[outcome] ?? 0) + 1;
    }
    await Deno.writeTextFile(join(skills, ".stop"), "");
    const raced = await lines.next();
    await racer.status;
    assert.deepEqual(
      Object.keys(seen).filter((o) => !["added", "SYMLINK_REFUSED", "CONFLICT"].includes(o)),
      [],
      JSON.stringify(seen),
    );
    assert.match(raced ?? "", /^raced [1-9]/, `the sandbox saw a copy to race: ${JSON.stringify(seen)}`);
    // Nothing was written through a link: ~/.ssh is as it was, and nothing left the skills folder.
    assert.deepEqual([...Deno.readDirSync(secret)].map((e) => e.name), ["id_ed25519"]);
    assert.equal(await Deno.readTextFile(join(secret, "id_ed25519")), "PRIVATE KEY\n");
    assert.deepEqual([...Deno.readDirSync(fx.paths.skillClones)], []);
  },
);
