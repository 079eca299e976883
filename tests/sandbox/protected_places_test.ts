/**
 * The attack suite, protected places (issue 9, item 5; ARCHITECTURE.md section 7): from inside a
 * real sandbox the agent tries to change what the person's own tools later run outside any
 * sandbox, in a repository of its Home, a nested one and the person's home folder. Each place is
 * read-only, `.git` is pinned, a missing one cannot be made, and a lifted one is writable.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type AgentFixture, agentFixture, PRELUDE, runPlan, sandboxTest } from "../support/sandbox.ts";
import { TextLineReader } from "../../core/base/mod.ts";
import { runSandboxed } from "../../sandbox/mod.ts";

const FILES = [
  ".gitattributes",
  ".gitmodules",
  ".pre-commit-config.yaml",
  ".envrc",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
];
const FOLDERS = [".vscode", ".idea", ".husky", ".devcontainer"];

/** A repository with every protected place of protected_list.ts there, and a Makefile. */
async function makeRepo(dir: string, options: { everything?: boolean } = {}): Promise<void> {
  const git = await new Deno.Command("git", { args: ["init", "-q", dir], stderr: "inherit" }).output();
  assert.ok(git.success);
  await Deno.writeTextFile(join(dir, "Makefile"), "all:\n\ttrue\n");
  if (options.everything === false) return;
  for (const file of FILES) await Deno.writeTextFile(join(dir, file), "# the person's\n");
  for (const folder of FOLDERS) {
    await Deno.mkdir(join(dir, folder));
    await Deno.writeTextFile(join(dir, folder, "settings.json"), "{}\n");
  }
  await Deno.writeTextFile(join(dir, ".git", "config.worktree"), "[core]\n");
  await Deno.mkdir(join(dir, ".git", "worktrees", "wt"), { recursive: true });
  await Deno.writeTextFile(join(dir, ".git", "worktrees", "wt", "commondir"), "../..\n");
  // A submodule's own .git folder, as `git submodule update` leaves it.
  await Deno.mkdir(join(dir, ".git", "modules", "sub"), { recursive: true });
  await Deno.writeTextFile(join(dir, ".git", "modules", "sub", "config"), "[core]\n");
}

/** Every file and folder under `dir` with its content, so any change shows. */
async function snapshot(dir: string, root = dir): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    const rel = path.slice(root.length + 1);
    if (entry.isDirectory) Object.assign(found, { [`${rel}/`]: "" }, await snapshot(path, root));
    else found[rel] = entry.isSymlink ? `-> ${await Deno.readLink(path)}` : await Deno.readTextFile(path);
  }
  return found;
}

function repoOf(fx: AgentFixture): string {
  return join(fx.agentHome, "app");
}

sandboxTest(
  "attack: write each protected place of a repository in Home (and its Makefile, which stays its work)",
  async () => {
    await using fx = await agentFixture();
    const repo = repoOf(fx);
    await makeRepo(repo);
    const before = await snapshot(repo);
    const tries = [
      ...FILES.map((f) => `w ${f}`),
      ...FOLDERS.map((f) => `w ${f}/settings.json; w ${f}/new.json`),
      "w .git/config",
      "w .git/config.worktree",
      "w .git/worktrees/wt/commondir",
      "w .git/hooks/pre-commit",
      "w .git/modules/sub/config",
      "w .git/commondir",
      "w Makefile",
    ];
    const r = await fx.sh(`cd ${repo}; ${tries.join("; ")}`);
    const denied = (p: string) => `denied ${p}\n`;
    assert.equal(
      r.stdout,
      [
        ...FILES.map(denied),
        ...FOLDERS.map((f) => denied(`${f}/settings.json`) + denied(`${f}/new.json`)),
        ...[
          ".git/config",
          ".git/config.worktree",
          ".git/worktrees/wt/commondir",
          ".git/hooks/pre-commit",
          ".git/modules/sub/config",
        ].map(
          denied,
        ),
        denied(".git/commondir"),
        "wrote Makefile\n",
      ].join(""),
      r.stderr,
    );
    assert.deepEqual(await snapshot(repo), { ...before, Makefile: "all:\n\ttrue\nx\n" });
  },
);

sandboxTest("attack: set core.fsmonitor and core.hooksPath with git, which still commits", async () => {
  await using fx = await agentFixture();
  const repo = repoOf(fx);
  await makeRepo(repo, { everything: false });
  const config = await Deno.readTextFile(join(repo, ".git", "config"));
  const r = await fx.sh(
    `cd ${repo}; export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b;
     git config core.fsmonitor 'touch /tmp/pwned' 2>/dev/null || echo no-fsmonitor;
     git config core.hooksPath .evil 2>/dev/null || echo no-hookspath;
     git add Makefile && git commit -qm work && git log --format=%s`,
  );
  assert.deepEqual(r, { code: 0, stdout: "no-fsmonitor\nno-hookspath\nwork\n", stderr: "" });
  assert.equal(await Deno.readTextFile(join(repo, ".git", "config")), config);
});

sandboxTest("attack: rename .git, or replace .git/hooks with a folder of its own", async () => {
  await using fx = await agentFixture();
  const repo = repoOf(fx);
  await makeRepo(repo, { everything: false });
  const before = await snapshot(join(repo, ".git", "hooks"));
  const r = await fx.sh(
    `cd ${repo}; mv .git .git.old 2>/dev/null || echo no-rename; mv app ../app2 2>/dev/null; cd ..; mv app app.old 2>/dev/null || echo no-rename-repo;
     cd app; mkdir -p ../evil && echo 'touch /tmp/pwned' > ../evil/pre-commit;
     mv .git/hooks .git/hooks.old 2>/dev/null || echo no-move-hooks; rm -rf .git/hooks 2>/dev/null || echo no-remove-hooks;
     mv ../evil .git/hooks 2>/dev/null || echo no-replace-hooks; rm -rf .git 2>/dev/null || echo no-remove-git`,
  );
  assert.equal(
    r.stdout,
    "no-rename\nno-rename-repo\nno-move-hooks\nno-remove-hooks\nno-replace-hooks\nno-remove-git\n",
    r.stderr,
  );
  assert.deepEqual(await snapshot(join(repo, ".git", "hooks")), before);
});

sandboxTest(
  "attack: hard-link .git/config to elsewhere and write that, or link its own file onto it",
  async () => {
    await using fx = await agentFixture();
    const repo = repoOf(fx);
    await makeRepo(repo, { everything: false });
    const config = await Deno.readTextFile(join(repo, ".git", "config"));
    const r = await fx.sh(
      `cd ${repo}; ln .git/config ../config 2>/dev/null || echo no-link; w ../config;
     echo '[core] fsmonitor = evil' > ../mine; ln -f ../mine .git/config 2>/dev/null || echo no-link-over;
     cp ../mine .git/config.new && mv -f .git/config.new .git/config 2>/dev/null || echo no-rename-over`,
    );
    assert.equal(r.stdout, `no-link\nwrote ../config\nno-link-over\nno-rename-over\n`, r.stderr);
    assert.equal(await Deno.readTextFile(join(repo, ".git", "config")), config);
  },
);

sandboxTest(
  "attack: make a missing .vscode, .idea, .git/hooks or .git/commondir; the stand-ins go at the end",
  async () => {
    await using fx = await agentFixture();
    const repo = repoOf(fx);
    await makeRepo(repo, { everything: false });
    await Deno.remove(join(repo, ".git", "hooks"), { recursive: true });
    const before = await snapshot(repo);
    const r = await fx.sh(
      `cd ${repo}; ls -A; mkdir .vscode/x 2>/dev/null || echo no-vscode; w .vscode/tasks.json; rmdir .idea 2>/dev/null || echo no-rmdir;
     w .idea/workspace.xml; w .git/hooks/post-checkout; cat .git/commondir; w .git/commondir; git -c safe.directory='*' status --short`,
    );
    assert.equal(
      r.stdout,
      ".git\n.idea\n.vscode\nMakefile\nno-vscode\ndenied .vscode/tasks.json\nno-rmdir\ndenied .idea/workspace.xml\n" +
        "denied .git/hooks/post-checkout\n.\ndenied .git/commondir\n?? Makefile\n",
      r.stderr,
    );
    assert.deepEqual(await snapshot(repo), before);
    assert.deepEqual([...Deno.readDirSync(join(fx.paths.run, "placeholders"))].map((e) => e.name), [".lock"]);
  },
);

sandboxTest("attack: the same in a nested repository and one three folders down", async () => {
  await using fx = await agentFixture();
  const outer = repoOf(fx);
  const nested = join(outer, "vendor", "lib");
  const deep = join(fx.agentHome, "a", "b", "c");
  await makeRepo(outer, { everything: false });
  await makeRepo(nested, { everything: false });
  await makeRepo(deep, { everything: false });
  const r = await fx.sh(
    [nested, deep].map((d) =>
      `cd ${d}; w .git/config; w .git/hooks/pre-commit; mkdir .vscode/x 2>/dev/null || echo no-vscode;
       mv .git .git.old 2>/dev/null || echo no-rename; cd ..; mv ${
        d.split("/").pop()
      } moved 2>/dev/null || echo no-move`
    ).join("; "),
  );
  const each = "denied .git/config\ndenied .git/hooks/pre-commit\nno-vscode\nno-rename\nno-move\n";
  assert.equal(r.stdout, each + each, r.stderr);
  // Nor is a folder on the way to one moved away with it.
  const up = await fx.sh(
    `cd ${fx.agentHome}; mv a a2 2>/dev/null || echo no-move; mv app/vendor v 2>/dev/null || echo no-move`,
  );
  assert.equal(up.stdout, "no-move\nno-move\n", up.stderr);
});

sandboxTest("attack: a place the owner lifted is writable, and only that place", async () => {
  await using fx = await agentFixture();
  const repo = repoOf(fx);
  await makeRepo(repo);
  const spec = `[protected]\nwritable = ["${repo}/.git/hooks", "~/Link/Agents/main/Home/app/.vscode"]\n`;
  const r = await fx.sh(
    `cd ${repo}; w .git/hooks/pre-commit; w .vscode/tasks.json; w .git/config; w .idea/x; mv .vscode .vscode.old && echo moved`,
    { spec },
  );
  assert.equal(
    r.stdout,
    "wrote .git/hooks/pre-commit\nwrote .vscode/tasks.json\ndenied .git/config\ndenied .idea/x\nmoved\n",
    r.stderr,
  );
});

sandboxTest(
  "a protected place that is a link refuses the start, naming it, until the owner lifts it",
  async () => {
    await using fx = await agentFixture();
    const repo = repoOf(fx);
    await makeRepo(repo, { everything: false });
    await Deno.mkdir(join(repo, ".githooks"));
    await Deno.remove(join(repo, ".git", "hooks"), { recursive: true });
    await Deno.symlink("../.githooks", join(repo, ".git", "hooks"));
    const hooks = join(repo, ".git", "hooks");
    await assert.rejects(fx.sh("true"), {
      name: "LinkError",
      code: "SYMLINK_REFUSED",
      message:
        `Cannot start the sandbox: "${hooks}" is a symbolic link, where Link keeps "${hooks}" from being ` +
        "changed (a link cannot be kept read-only, and the agent could change where it leads)",
      hint: `Put the real folder or file at "${hooks}", or let the agent change it with ` +
        `\`lnk agent allow --write-protected ${hooks}\`, then start again`,
    });
    const r = await fx.sh(`cd ${repo}; w .git/hooks/pre-commit; w .git/config`, {
      spec: `[protected]\nwritable = ["${hooks}"]\n`,
    });
    assert.equal(r.stdout, "wrote .git/hooks/pre-commit\ndenied .git/config\n", r.stderr);
  },
);

sandboxTest(
  "attack: in a writable folder that is no repository, change what is there (refused) or make one (its own)",
  async () => {
    await using fx = await agentFixture();
    await Deno.mkdir(join(fx.agentHome, ".vscode"));
    await Deno.writeTextFile(join(fx.agentHome, ".envrc"), "export A=1\n");
    const r = await fx.sh(
      `cd ${fx.agentHome}; w .vscode/tasks.json; w .envrc; mkdir .idea && echo made-idea`,
    );
    assert.equal(r.stdout, "denied .vscode/tasks.json\ndenied .envrc\nmade-idea\n", r.stderr);
  },
);

const HOME_FILES = [
  ".bashrc",
  ".bash_logout",
  ".profile",
  ".zshenv",
  ".zprofile",
  ".zshrc",
  ".zlogin",
  ".zlogout",
  ".bash_profile",
  ".bash_login",
  ".gitconfig",
  ".tmux.conf",
  ".vimrc",
  ".emacs",
];
const HOME_FOLDERS = [".ssh", ".local/bin", ".emacs.d"];
const WRITE_HOME = { spec: '[paths]\nwrite = ["~"]\n' };

sandboxTest(
  "attack: with the person's home folder writable, change each of its shell and tool settings",
  async () => {
    await using fx = await agentFixture();
    for (const file of HOME_FILES) await Deno.writeTextFile(join(fx.home, file), "# mine\n");
    for (const folder of HOME_FOLDERS) await Deno.mkdir(join(fx.home, folder), { recursive: true });
    const r = await fx.sh(
      [...HOME_FILES.map((f) => `w ${f}`), ...HOME_FOLDERS.map((f) => `w ${f}/x`)].map((t) =>
        `cd ${fx.home}; ${t}`
      )
        .join("; "),
      WRITE_HOME,
    );
    assert.equal(
      r.stdout,
      [...HOME_FILES, ...HOME_FOLDERS.map((f) => `${f}/x`)].map((p) => `denied ${p}\n`).join(""),
      r.stderr,
    );
    for (const file of HOME_FILES) assert.equal(await Deno.readTextFile(join(fx.home, file)), "# mine\n");
  },
);

sandboxTest("attack: with the person's home folder writable, make each missing one", async () => {
  await using fx = await agentFixture();
  await Deno.remove(join(fx.home, ".ssh"), { recursive: true });
  const r = await fx.sh(
    [
      ...HOME_FILES.map((f) => `w ${f}`),
      ...HOME_FOLDERS.map((f) => `mkdir -p ${f}/x 2>/dev/null && echo made ${f} || echo denied ${f}`),
    ]
      .map((t) => `cd ${fx.home}; ${t}`).join("; "),
    WRITE_HOME,
  );
  // bash reads the first of .bash_profile, .bash_login and .profile, vim skips its defaults beside a
  // .vimrc, Emacs skips .emacs.d beside an .emacs: no stand-in for those (protected_list.ts).
  const made = [".bash_profile", ".bash_login", ".vimrc", ".emacs"];
  assert.equal(
    r.stdout,
    HOME_FILES.map((f) => made.includes(f) ? `wrote ${f}\n` : `denied ${f}\n`).join("") +
      "denied .ssh\ndenied .local/bin\nmade .emacs.d\n",
    r.stderr,
  );
  // The stand-ins are gone with the sandbox.
  const left = [...HOME_FILES, ".ssh", ".local/bin"].filter((p) => !made.includes(p)).filter((p) => {
    try {
      return Deno.lstatSync(join(fx.home, p)) !== undefined;
    } catch {
      return false;
    }
  });
  assert.deepEqual(left, []);
});

sandboxTest("attack: outlast the stand-ins of another sandbox over the same repository", async () => {
  await using fx = await agentFixture();
  const repo = repoOf(fx);
  await makeRepo(repo, { everything: false });
  const before = await snapshot(repo);
  const hold = (name: string) =>
    fx.plan([
      "/bin/sh",
      "-c",
      `${PRELUDE}echo ${name}-ready; read go; cd ${repo}; mkdir .vscode/x 2>/dev/null || echo ${name}-no-vscode`,
    ]);
  const [planA, planB] = [await hold("a"), await hold("b")];
  await using a = await runSandboxed(planA, { stdin: "piped", stdout: "piped" });
  const aOut = new TextLineReader(a.child.stdout);
  assert.equal(await aOut.next(), "a-ready");
  await using b = await runSandboxed(planB, { stdin: "piped", stdout: "piped" });
  const bOut = new TextLineReader(b.child.stdout);
  assert.equal(await bOut.next(), "b-ready");
  const go = async (p: typeof a) => {
    const writer = p.child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("go\n"));
    await writer.close();
  };
  await go(a);
  assert.equal(await aOut.next(), "a-no-vscode");
  await a.status;
  // The first sandbox made the stand-ins and ended; the second still shows them, and still keeps them.
  assert.equal((await Deno.lstat(join(repo, ".vscode"))).isDirectory, true);
  await go(b);
  assert.equal(await bOut.next(), "b-no-vscode");
  await b.status;
  assert.deepEqual(await snapshot(repo), before);
});

sandboxTest(
  "the next start removes stand-ins a sandbox that is gone left, keeping any now filled",
  async () => {
    await using fx = await agentFixture();
    const records = join(fx.paths.run, "placeholders");
    await Deno.mkdir(records, { recursive: true });
    const left = join(fx.home, "old", ".vscode");
    const filled = join(fx.home, "old", ".idea");
    await Deno.mkdir(left, { recursive: true });
    await Deno.mkdir(filled, { recursive: true });
    await Deno.writeTextFile(join(filled, "mine.xml"), "<mine/>\n");
    const record = { pid: 999999999, start: "1", made: [{ path: left }, { path: filled }], held: [] };
    await Deno.writeTextFile(join(records, "999999999-1-1.json"), JSON.stringify(record));
    assert.equal((await runPlan(await fx.plan(["true"]))).code, 0);
    assert.deepEqual(await snapshot(join(fx.home, "old")), { ".idea/": "", ".idea/mine.xml": "<mine/>\n" });
    assert.deepEqual([...Deno.readDirSync(records)].map((e) => e.name), [".lock"]);
  },
);
