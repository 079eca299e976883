import assert from "node:assert/strict";
import { join } from "node:path";
import { linkRuntime } from "../../sandbox/mod.ts";
import { agentFixture, LINK_HARNESS, sandboxTest } from "../support/sandbox.ts";
import { runSandboxed } from "../../sandbox/mod.ts";

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

sandboxTest(
  "sandbox: the default grants write Home, and show instructions, skills and chats read-only at their own paths (LAY-3, LAY-5, LAY-7)",
  async () => {
    await using fx = await agentFixture();
    const r = await fx.sh(
      `cd "${fx.agentHome}"; cat notes.txt; ls -A; cd "${fx.agentDir}"; ls -A; cat instructions/agent.md skills/s.md;
     ls chats; w ../Home/work/new.md; w instructions/x; w chats/x; w instructions/agent.md; (echo x > x) 2>/dev/null || true`,
    );
    assert.deepEqual(r, {
      code: 0,
      stdout: "my notes\nnotes.txt\nwork\nchats\ninstructions\nskills\n# main\nskill\ntelegram:1\n" +
        "wrote ../Home/work/new.md\ndenied instructions/x\ndenied chats/x\ndenied instructions/agent.md\n",
      stderr: "",
    });
    assert.equal(await Deno.readTextFile(join(fx.agentHome, "work", "new.md")), "x\n");
    // Agent/ itself is made by bubblewrap inside, never bound: what is put in it stays inside.
    assert.deepEqual(await entries(fx.agentDir), ["chats", "instructions", "memory", "schedule", "skills"]);
  },
);

sandboxTest(
  "sandbox: nothing is made in Home for Agent/'s folders, whoever runs (LAY-2, LAY-3)",
  async () => {
    await using fx = await agentFixture();
    const before = await entries(fx.agentHome);
    for (const options of [{}, LINK_HARNESS, { folders: "home" as const }]) {
      const plan = await fx.plan(["true"], options);
      assert.deepEqual(plan.ensureDirs.filter((d) => d.startsWith(`${fx.agentHome}/`)), []);
      assert.deepEqual(await fx.sh("true", options), { code: 0, stdout: "", stderr: "" });
    }
    assert.deepEqual(await entries(fx.agentHome), before);
  },
);

sandboxTest(
  "sandbox: [files] '.' read with work write keeps Home read-only and work writable (LAY-5, LAY-6)",
  async () => {
    await using fx = await agentFixture();
    const r = await fx.sh(
      `cd "${fx.agentHome}"; cat notes.txt; w x; w work/y`,
      { spec: '[files]\n"." = "read"\nwork = "write"\ninstructions = "read"\n' },
    );
    assert.deepEqual(r, { code: 0, stdout: "my notes\ndenied x\nwrote work/y\n", stderr: "" });
  },
);

sandboxTest("sandbox: [files] '.' none hides Home but for the folders named", async () => {
  await using fx = await agentFixture();
  const r = await fx.sh(
    `cd "${fx.agentHome}"; ls -A; cat notes.txt 2>/dev/null || echo no-notes; cat work/draft.md`,
    {
      spec: '[files]\n"." = "none"\nwork = "read"\n',
    },
  );
  assert.deepEqual(r, { code: 0, stdout: "work\nno-notes\ndraft\n", stderr: "" });
});

sandboxTest("sandbox: [files] instructions none shows no instructions, skills none no skills", async () => {
  await using fx = await agentFixture();
  const r = await fx.sh(
    `cd "${fx.agentHome}"; ls -A; ls -A ..; cd "${fx.agentDir}"; ls -A; r instructions/agent.md; r skills/s.md`,
    { spec: '[files]\n"." = "write"\ninstructions = "none"\nskills = "none"\nchats = "read"\n' },
  );
  // A collection the file leaves out is not shown: what [files] says is all that holds.
  assert.deepEqual(
    r.stdout,
    "notes.txt\nwork\nAgent\nHome\nchats\ndenied instructions/agent.md\ndenied skills/s.md\n",
  );
});

sandboxTest(
  "sandbox: Link Harness writes Agent/chats and its notes in Agent/memory; schedule/ and Config/ stay hidden (LAY-7, LAY-8)",
  async () => {
    await using fx = await agentFixture();
    const r = await fx.sh(
      `cd "${fx.agentDir}"; ls -A; cat memory/m.md; echo t > chats/turn.json && echo wrote-chats;
     echo n > memory/n.md && echo wrote-note; ls -A .. ; r schedule/jobs.json; r ../Config/spec.toml;
     (echo x > x) 2>/dev/null || true`,
      LINK_HARNESS,
    );
    assert.deepEqual(r, {
      code: 0,
      stdout: "chats\ninstructions\nmemory\nskills\nmemory\nwrote-chats\nwrote-note\nAgent\nHome\n" +
        "denied schedule/jobs.json\ndenied ../Config/spec.toml\n",
      stderr: "",
    });
    assert.deepEqual(await entries(fx.agentDir), ["chats", "instructions", "memory", "schedule", "skills"]);
    assert.equal(await Deno.readTextFile(join(fx.agentDir, "chats", "turn.json")), "t\n");
    assert.equal(await Deno.readTextFile(join(fx.agentDir, "memory", "n.md")), "n\n");
  },
);

sandboxTest("sandbox: an outside harness gets all of Home writable and never Agent/ (LAY-8)", async () => {
  await using fx = await agentFixture();
  const plan = await fx.plan(["true"], { folders: "home", spec: '[files]\n"." = "read"\n' });
  assert.deepEqual(plan.notices, ["[files] holds only for Link's tools: this harness gets all of Home"]);
  const r = await fx.sh(
    `cd "${fx.agentHome}"; echo x > x && echo wrote; ls instructions 2>/dev/null || echo no-instructions;
     ls "${fx.agentDir}" 2>/dev/null || echo no-agent; r "${fx.agentDir}/memory/m.md"`,
    { folders: "home", spec: '[files]\n"." = "read"\n' },
  );
  assert.deepEqual(r, {
    code: 0,
    stdout: `wrote\nno-instructions\nno-agent\ndenied ${fx.agentDir}/memory/m.md\n`,
    stderr: "",
  });
});

sandboxTest("sandbox: [paths] read shows a folder read-only and write makes one writable", async () => {
  await using fx = await agentFixture();
  await Deno.mkdir(join(fx.home, "data"));
  await Deno.writeTextFile(join(fx.home, "data", "d.txt"), "data\n");
  await Deno.mkdir(join(fx.home, "out"));
  const r = await fx.sh(
    `cd "${fx.home}"; cat data/d.txt; w data/x; w out/o; r .ssh/id_ed25519`,
    { spec: '[paths]\nread = ["~/data"]\nwrite = ["~/out"]\n' },
  );
  assert.deepEqual(r, {
    code: 0,
    stdout: "data\ndenied data/x\nwrote out/o\ndenied .ssh/id_ed25519\n",
    stderr: "",
  });
});

sandboxTest(
  "sandbox: --read '~' still hides ~/.lnk, ~/.config, Config/, other agents and teams (SBX-21, TEAM-12)",
  async () => {
    await using fx = await agentFixture();
    const r = await fx.sh(
      `cd "${fx.home}"; cat .ssh/id_ed25519; ls -A .config; ls -A Link/Teams; ls -A Link/Agents; ls -A Link/Agents/main;
     ls -A Link/Agents/main/Agent; ls -A .lnk; ls -A .lnk/agents; r .lnk/machine.toml`,
      { spec: '[paths]\nread = ["~"]\n' },
    );
    assert.deepEqual(r, {
      code: 0,
      stdout:
        `PRIVATE KEY\nmain\nAgent\nHome\nchats\ninstructions\nskills\nagents\n.net\nabc123def\ndenied .lnk/machine.toml\n`,
      stderr: "",
    });
  },
);

sandboxTest(
  "sandbox: [teams.alpha] writes src, only reads docs, and other teams stay hidden (TEAM-11, TEAM-12)",
  async () => {
    await using fx = await agentFixture();
    const alpha = join(fx.home, "Link", "Teams", "alpha");
    const r = await fx.sh(
      `cd "${alpha}"; w src/s; cat docs/d.txt; w docs/x; ls -A "${fx.home}/Link/Teams"`,
      { spec: '[paths]\nread = ["~"]\n[teams.alpha]\nwrite = ["src"]\nread = ["docs"]\n', teams: { alpha } },
    );
    assert.deepEqual(r, { code: 0, stdout: "wrote src/s\ndocs\ndenied docs/x\nalpha\n", stderr: "" });
  },
);

sandboxTest("sandbox: the program and /proc/1/environ hold only the variables Link chose", async () => {
  await using fx = await agentFixture();
  const plan = await fx.plan(["/bin/sh", "-c", "env | sort; echo ---; read -r _ || true"], {
    env: { CHOSEN: "yes" },
  });
  await using sandbox = await runSandboxed(plan, { stdin: "piped", stdout: "piped" });
  const out = sandbox.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let inside = "";
  while (!inside.endsWith("---\n")) inside += (await out.read()).value ?? "";
  // pid 1 is out of the program's reach (its own Landlock domain): read from outside, as root or its user.
  const pid1 = Number((await Deno.readTextFile(`/proc/${sandbox.pid}/task/${sandbox.pid}/children`)).trim());
  const environ = (await Deno.readTextFile(`/proc/${pid1}/environ`)).split("\0").sort().join("\n");
  await sandbox.child.stdin.close();
  await sandbox.status;
  const expected = [
    "CHOSEN=yes",
    `DENO_DIR=${Deno.env.get("DENO_DIR") ?? ""}`,
    "DENO_NO_UPDATE_CHECK=1",
    `HOME=${fx.harnessHome}`,
    "LANG=C.UTF-8",
    "PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
    "TMPDIR=/tmp",
  ];
  const clean = (text: string) =>
    text.replace(/---\n$/, "").trim().split("\n").filter((l) => !/^(PWD|SHLVL|_|OLDPWD)=/.test(l)).map((l) =>
      l.startsWith("DENO_DIR=") ? expected[1]! : l
    );
  assert.deepEqual(clean(inside), expected);
  assert.deepEqual(clean(environ), expected);
});

sandboxTest("sandbox: every capability is dropped and no user namespace can be made inside", async () => {
  await using fx = await agentFixture();
  const r = await fx.sh(
    `grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status; unshare -U true 2>/dev/null || echo no-userns`,
  );
  assert.deepEqual(
    r.stdout,
    [
      "CapInh:\t0000000000000000",
      "CapPrm:\t0000000000000000",
      "CapEff:\t0000000000000000",
      "CapBnd:\t0000000000000000",
      "CapAmb:\t0000000000000000",
      "no-userns",
      "",
    ].join("\n"),
  );
});

sandboxTest("sandbox: /tmp is its own and sized (SBX-5)", async () => {
  await using fx = await agentFixture();
  const marker = await Deno.makeTempFile({ prefix: "lnk-outside-" });
  try {
    const r = await fx.sh(
      `ls -A /tmp; test -e "${marker}" || echo not-seen; (head -c 2000000 /dev/zero > /tmp/big) 2>/dev/null || echo full`,
      { tmpSize: 1024 * 1024 },
    );
    // What is mounted from under /tmp outside shows as its top folder: the fixture's own home, and
    // Deno, the checkout and Deno's cache (Link's roles run from source) when they are there too.
    const { deno, checkout, denoDir } = await linkRuntime();
    const mounted = [fx.home, deno, checkout, denoDir].filter((p) => p?.startsWith("/tmp/")) as string[];
    const tops = [...new Set(mounted.map((p) => p.split("/")[2]))].sort();
    assert.deepEqual(r.stdout, `${tops.join("\n")}\nnot-seen\nfull\n`);
  } finally {
    await Deno.remove(marker);
  }
});

sandboxTest("sandbox: Link's own roles run inside from source, Deno's cache read-only (SBX-5)", async () => {
  await using fx = await agentFixture();
  const denoDir = Deno.env.get("DENO_DIR");
  const r = await fx.sh(
    `deno eval 'console.log(1 + 1)' && touch "$DENO_DIR/x" 2>/dev/null || echo cache-read-only`,
  );
  assert.deepEqual(r.stdout, "2\ncache-read-only\n", r.stderr);
  if (denoDir) await Deno.stat(join(denoDir, "x")).then(() => assert.fail("wrote the cache"), () => {});
});
