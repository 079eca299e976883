/**
 * The attack suite, planted links (issue 9, item 4; SBX-21, LAY-9): the agent plants a symbolic
 * link from inside a real sandbox where a grant will lead, and Link starts again. Every start
 * resolves every grant without following a link an agent could have made, and mounts what it
 * checked by descriptor.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { TextLineReader } from "../../core/base/mod.ts";
import { type AgentFixture, agentFixture, PRELUDE, runPlan, sandboxTest } from "../support/sandbox.ts";

const WRITE_PROJ = '[paths]\nwrite = ["~/proj"]\n';

/** The refusal of a link, as a person reads it. */
function refusal(link: string, what: string) {
  return {
    name: "LinkError",
    code: "SYMLINK_REFUSED",
    message:
      `Cannot start the sandbox: "${link}" is a symbolic link in a place an agent can write, on the way to ${what}`,
    hint:
      `Link never follows a link an agent could have made: remove "${link}" (or put the real folder there), ` +
      "or grant the place it leads to by its own path, then start again",
  };
}

/** The line of the grant file a refusal names. */
function specLine(fx: AgentFixture, line: number): string {
  return `"${join(fx.root, "Config", "sandbox.toml")}" line ${line}`;
}

async function makeProj(fx: AgentFixture, parts: string[]): Promise<void> {
  await Deno.mkdir(join(fx.home, "proj", ...parts), { recursive: true });
  await Deno.writeTextFile(join(fx.home, "proj", ...parts, "marker"), "real\n");
}

sandboxTest(
  "attack: replace a read grant inside a write grant with a link to ~/.ssh, then start again (refused at plan and at start)",
  async () => {
    await using fx = await agentFixture();
    await makeProj(fx, ["docs"]);
    const both = `${WRITE_PROJ}read = ["~/proj/docs"]\n`;
    // Planned while docs is a folder, as a bridge plans a start ahead of the next wake.
    const early = await fx.plan(["/bin/sh", "-c", `cat ${fx.home}/proj/docs/id_ed25519`], { spec: both });
    const planted = await fx.sh(
      `cd ${fx.home}/proj && mv docs docs.old && ln -s ${fx.home}/.ssh docs && echo planted`,
      { spec: WRITE_PROJ },
    );
    assert.equal(planted.stdout, "planted\n", planted.stderr);
    const link = join(fx.home, "proj", "docs");
    await assert.rejects(runPlan(early), refusal(link, `"${link}"`));
    await assert.rejects(
      fx.sh(`cat ${fx.home}/proj/docs/id_ed25519`, { spec: both }),
      refusal(link, `the grant "~/proj/docs" (${specLine(fx, 3)})`),
    );
  },
);

for (
  const [depth, at] of [["its leaf", 3], ["a middle part", 2], [
    "its first part in the write grant",
    1,
  ]] as const
) {
  sandboxTest(`attack: plant a link at ${depth} of a read grant inside a write grant`, async () => {
    await using fx = await agentFixture();
    const parts = ["docs", "api", "v1"];
    await makeProj(fx, parts);
    const swapped = parts.slice(0, at).join("/");
    const r = await fx.sh(
      `cd ${fx.home}/proj && mv ${swapped} ${swapped}.old && ln -s ${fx.home}/.ssh ${swapped} && echo planted`,
      { spec: WRITE_PROJ },
    );
    assert.equal(r.stdout, "planted\n", r.stderr);
    await assert.rejects(
      fx.sh(`cat ${fx.home}/proj/docs/api/v1/marker`, {
        spec: `${WRITE_PROJ}read = ["~/proj/docs/api/v1"]\n`,
      }),
      refusal(join(fx.home, "proj", swapped), `the grant "~/proj/docs/api/v1" (${specLine(fx, 3)})`),
    );
  });
}

sandboxTest(
  "attack: plant a link where another agent's write grant holds a grant of this one (any agent's write grant counts)",
  async () => {
    await using fx = await agentFixture();
    await Deno.mkdir(join(fx.home, "shared", "mine"), { recursive: true });
    const r = await fx.sh(
      `cd ${fx.home}/shared && rmdir mine && ln -s ${fx.home}/.ssh mine && echo planted`,
      { spec: '[paths]\nwrite = ["~/shared"]\n' },
    );
    assert.equal(r.stdout, "planted\n", r.stderr);
    // Now only the other agent may write ~/shared; this one's grant is inside it.
    await Deno.writeTextFile(
      join(fx.home, "Link", "Agents", "other", "Config", "sandbox.toml"),
      '[paths]\nwrite = ["~/shared"]\n',
    );
    const link = join(fx.home, "shared", "mine");
    await assert.rejects(
      fx.sh(`ls ${link}`, { spec: '[paths]\nread = ["~/shared/mine"]\n' }),
      refusal(link, `the grant "~/shared/mine" (${specLine(fx, 2)})`),
    );
  },
);

sandboxTest(
  "attack: plant a Home folder as a link up to the host's /tmp, then grant it with [files]",
  async () => {
    await using fx = await agentFixture();
    const marker = await Deno.makeTempFile({ dir: "/tmp", prefix: "lnk-host-tmp-" });
    try {
      const up = "../".repeat(fx.agentHome.split("/").length + 2);
      const r = await fx.sh(`cd ${fx.agentHome} && ln -s ${up}tmp tmpdir && echo planted`);
      assert.equal(r.stdout, "planted\n", r.stderr);
      const link = join(fx.agentHome, "tmpdir");
      await assert.rejects(
        fx.sh(`ls ${link}/`, { spec: '[files]\n"." = "read"\ntmpdir = "write"\n' }),
        refusal(link, `the folder "tmpdir" of [files] (${specLine(fx, 3)})`),
      );
      // Nor is the host's /tmp reached through it from a sandbox that writes Home.
      const again = await fx.sh(`ls ${link}/ | grep -c lnk-host-tmp- || echo unseen`);
      assert.equal(again.stdout, "0\nunseen\n", again.stderr);
    } finally {
      await Deno.remove(marker);
    }
  },
);

sandboxTest(
  "attack: swap a granted folder and a link to ~/.ssh in a loop while sandboxes start over and over",
  async () => {
    await using fx = await agentFixture();
    await makeProj(fx, ["docs"]);
    await Deno.symlink(join(fx.home, ".ssh"), join(fx.home, "proj", "link"));
    const swapper = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./_swap_child.ts", import.meta.url).pathname,
        join(fx.home, "proj"),
        "docs",
        "link",
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    try {
      assert.equal(await new TextLineReader(swapper.stdout).next(), "swapping");
      const spec = `${WRITE_PROJ}read = ["~/proj/docs"]\n`;
      // Inside, ~/proj is the real folder, where the swapping goes on: docs is the mounted folder
      // or, swapped since, the link, leading nowhere inside.
      const script =
        `cat ${fx.home}/proj/docs/marker 2>/dev/null || echo no-marker; r ${fx.home}/proj/docs/id_ed25519`;
      // Planned once ahead, as a bridge plans the next wake, and planned afresh: each start checks again.
      const ahead = await fx.plan(["/bin/sh", "-c", PRELUDE + script], { spec }).catch(() => undefined);
      const seen: Record<string, number> = {};
      for (let i = 0; i < 40; i++) {
        const start = i % 2 && ahead ? runPlan(ahead) : fx.sh(script, { spec });
        const outcome = await start
          .then((r) =>
            // bubblewrap checks the descriptor it mounted against what it was given, and stops.
            r.stdout === "" && r.code !== 0 && r.stderr.startsWith("bwrap: ")
              ? "bubblewrap refused"
              : r.stdout
          )
          .catch((err) =>
            `${err.code} naming the link: ${err.message.includes(`"${join(fx.home, "proj", "docs")}"`)}`
          );
        seen[outcome] = (seen[outcome] ?? 0) + 1;
      }
      const allowed = [
        `real\ndenied ${fx.home}/proj/docs/id_ed25519\n`,
        `no-marker\ndenied ${fx.home}/proj/docs/id_ed25519\n`,
        "SYMLINK_REFUSED naming the link: true",
        "bubblewrap refused",
      ];
      assert.deepEqual(Object.keys(seen).filter((o) => !allowed.includes(o)), [], JSON.stringify(seen));
    } finally {
      swapper.kill("SIGKILL");
      await swapper.status;
      await swapper.stdout.cancel().catch(() => {});
    }
  },
);

sandboxTest(
  "attack: hard-link a hidden file into Home: the agent cannot make one; one the person made is that file (LAY-9)",
  async () => {
    await using fx = await agentFixture();
    const key = join(fx.home, ".ssh", "id_ed25519");
    const r = await fx.sh(
      `ln ${key} ${fx.agentHome}/k 2>/dev/null || echo no-link; ` +
        `ln ${fx.agentDir}/instructions/agent.md ${fx.agentHome}/i 2>&1 | sed 's/.*=> //'`,
    );
    // It cannot name what it cannot see, and a read-only mount is another device to link(2).
    assert.equal(
      r.stdout,
      `no-link\n'${fx.agentDir}/instructions/agent.md': Invalid cross-device link\n`,
      r.stderr,
    );
    // Links are by path: a hard link the person made in Home is a file of Home, shown as one.
    await Deno.link(key, join(fx.agentHome, "copy"));
    const shown = await fx.sh(`cat ${fx.agentHome}/copy`);
    assert.equal(shown.stdout, "PRIVATE KEY\n", shown.stderr);
  },
);

sandboxTest(
  "attack: follow a link the person left inside a granted folder out of it: it may be there, and leads nowhere",
  async () => {
    await using fx = await agentFixture();
    await Deno.mkdir(join(fx.home, "data"));
    await Deno.symlink(join(fx.home, ".ssh"), join(fx.home, "data", "out"));
    await Deno.symlink("../.lnk/agents/.keys", join(fx.home, "data", "keys"));
    const r = await fx.sh(
      `ls -A ${fx.home}/data; r ${fx.home}/data/out/id_ed25519; ls ${fx.home}/data/keys/ 2>/dev/null || echo no-keys`,
      { spec: '[paths]\nread = ["~/data"]\n' },
    );
    assert.equal(r.stdout, `keys\nout\ndenied ${fx.home}/data/out/id_ed25519\nno-keys\n`, r.stderr);
  },
);

sandboxTest(
  "attack: plant a link in the team folder it writes, where a read grant of the team leads",
  async () => {
    await using fx = await agentFixture();
    const alpha = join(fx.home, "Link", "Teams", "alpha");
    const teams = { alpha };
    const planted = await fx.sh(`cd ${alpha}/src && ln -s ${fx.home}/.ssh api && echo planted`, {
      spec: '[teams.alpha]\nwrite = ["src"]\n',
      teams,
    });
    assert.equal(planted.stdout, "planted\n", planted.stderr);
    const link = join(alpha, "src", "api");
    await assert.rejects(
      fx.sh(`ls ${link}/`, { spec: '[teams.alpha]\nread = ["src/api"]\n', teams }),
      refusal(link, `the folder "src/api" of team "alpha"`),
    );
  },
);

sandboxTest(
  "attack: a collection of Agent/ swapped for a link (by anything that writes ~/Link/Agents)",
  async () => {
    await using fx = await agentFixture();
    const skills = join(fx.agentDir, "skills");
    await Deno.rename(skills, `${skills}.old`);
    await Deno.symlink(join(fx.home, ".ssh"), skills);
    const plan = await fx.plan(["/bin/sh", "-c", `ls ${skills}/`]);
    await assert.rejects(runPlan(plan), refusal(skills, `"${skills}"`));
  },
);

sandboxTest(
  "the person's own link above every writable place is followed, to a place that must still not be hidden",
  async () => {
    await using fx = await agentFixture();
    await Deno.mkdir(join(fx.home, "data", "code"), { recursive: true });
    await Deno.writeTextFile(join(fx.home, "data", "code", "main.c"), "int main;\n");
    await Deno.symlink(join(fx.home, "data", "code"), join(fx.home, "code"));
    const r = await fx.sh(
      `cat ${fx.home}/data/code/main.c; ls ${fx.home}/code 2>/dev/null || echo not-by-the-link`,
      {
        spec: '[paths]\nwrite = ["~/code"]\n',
      },
    );
    // Mounted at its real place, which the program reaches (the link itself is not in the view).
    assert.equal(r.stdout, "int main;\nnot-by-the-link\n", r.stderr);
    await Deno.symlink(join(fx.home, ".lnk", "agents"), join(fx.home, "sneaky"));
    await assert.rejects(fx.sh("true", { spec: '[paths]\nread = ["~/sneaky"]\n' }), {
      name: "LinkError",
      code: "SANDBOX_REFUSED",
      message:
        `Cannot start the sandbox: "${
          join(fx.root, "Config", "sandbox.toml")
        }" line 2: "~/sneaky" is inside ` +
        `"${join(fx.home, ".lnk")}", which Link hides from every sandbox`,
    });
  },
);
