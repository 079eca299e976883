/**
 * `lnk agent allow`/`deny` and `lnk agent show --permissions` on what issue 9 found: a Home folder
 * planted as a link from inside a real sandbox, then granted with --files; the protected places
 * listed, and one lifted with --write-protected.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { DEFAULT_SANDBOX_TOML } from "../../../sandbox/mod.ts";
import { runCli, runJson, runLnk, tempHome } from "../../support/mod.ts";
import { sandboxTest } from "../../support/sandbox.ts";

async function created(home: Awaited<ReturnType<typeof tempHome>>) {
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  // No internet: its sandbox needs no proxy, so the command runs in it plainly.
  await runJson(["agent", "deny", "--host", "*"], home);
  const layout = layoutOf(home.paths, await loadSettings(home.paths, id));
  return { layout, file: layout.sandboxToml };
}

sandboxTest(
  "attack: plant a Home folder as a link up to /tmp in a real sandbox, then grant it with lnk agent allow --files",
  async () => {
    await using home = await tempHome();
    const { layout, file } = await created(home);
    const up = "../".repeat(layout.home.split("/").length + 2);
    const planted = await runLnk(
      [
        "agent",
        "harness",
        "run",
        "--",
        "/bin/sh",
        "-c",
        `ln -s ${up}tmp ${layout.home}/work && echo planted`,
      ],
      home,
    );
    assert.deepEqual(planted, { code: 0, stdout: "planted\n", stderr: "" });
    const before = await Deno.readTextFile(file);
    const link = join(layout.home, "work");
    assert.deepEqual(await runCli(["agent", "allow", "--files", "work=read"], home), {
      code: 1,
      stdout: "",
      stderr:
        `error: Cannot change the grants: "${link}" is a symbolic link in a place an agent can write, ` +
        `on the way to the folder "work" of [files] ("${file}" line 13)\n` +
        "  hint: Remove that link (Link never follows a link an agent could have made), or grant the place it " +
        "leads to by its own path; nothing was written\n",
    });
    assert.equal(await Deno.readTextFile(file), before);
    // Granted before the link was planted, it is refused at the start.
    await Deno.remove(link);
    await Deno.mkdir(link);
    assert.equal((await runCli(["agent", "allow", "--files", "work=read"], home)).code, 0);
    await Deno.remove(link);
    await Deno.symlink(`${up}tmp`, link);
    const started = await runLnk(["agent", "harness", "run", "--", "/bin/ls", `${link}/`], home);
    assert.deepEqual(started, {
      code: 1,
      stdout: "",
      stderr:
        `error: Cannot start the sandbox: "${link}" is a symbolic link in a place an agent can write, ` +
        `on the way to the folder "work" of [files] ("${file}" line 13)\n` +
        `  hint: Link never follows a link an agent could have made: remove "${link}" (or put the real folder ` +
        "there), or grant the place it leads to by its own path, then start again\n",
    });
  },
);

Deno.test("lnk agent allow --write-protected lifts one protected place, and deny puts it back (GRT-4)", async () => {
  await using home = await tempHome();
  const { file } = await created(home);
  const base = await Deno.readTextFile(file);
  assert.deepEqual(await runCli(["agent", "allow", "--write-protected", "~/src/app/.git/hooks"], home), {
    code: 0,
    stdout: `Changed the grants of "main" in "${file}":\n` +
      '  protected.writable: [] -> ["~/src/app/.git/hooks"]\n',
    stderr: "",
  });
  assert.equal(
    await Deno.readTextFile(file),
    base.replace("[protected]\nwritable = []", '[protected]\nwritable = ["~/src/app/.git/hooks"]'),
  );
  assert.deepEqual(await runJson(["agent", "deny", "--write-protected", "~/src/app/.git/hooks"], home), {
    agent: "main",
    file,
    notes: [],
    changes: [{ key: "protected.writable", from: ["~/src/app/.git/hooks"], to: [] }],
    restartNeeded: false,
  });
  assert.equal(await Deno.readTextFile(file), base);
  assert.deepEqual(await runCli(["agent", "allow", "--write-protected", "src/.vscode"], home), {
    code: 2,
    stdout: "",
    stderr:
      'error: Cannot change the grants: --write-protected "src/.vscode" must be a full path, starting with "/" or "~"\n' +
      `  hint: Grant flags: ${
        "[--read <path>] [--write <path>] [--files <folder>=<none|read|write>] [--host <h>] " +
        "[--tcp <host>:<port>] [--network-mode proxy|host] [--lan-host <h>] [--port <n>] [--command <prog>] " +
        "[--tool <name>] [--browser-host <h>] [--write-protected <path>]"
      }\n`,
  });
  assert.equal(DEFAULT_SANDBOX_TOML.includes("[protected]\nwritable = []\n"), true);
});

Deno.test("lnk agent show --permissions lists the protected places of a repository in Home, one lifted", async () => {
  await using home = await tempHome();
  const { layout } = await created(home);
  const repo = join(layout.home, "app");
  assert.ok((await new Deno.Command("git", { args: ["init", "-q", repo] }).output()).success);
  await Deno.mkdir(join(repo, ".vscode"));
  await runJson(["agent", "allow", "--write-protected", `${repo}/.vscode`], home);
  const text = await runCli(["agent", "show", "--permissions"], home);
  const shown = text.stdout.slice(text.stdout.indexOf("  kept now:"));
  assert.equal(
    shown,
    [
      "  kept now:",
      `    ${repo}/.git: pinned (bound onto itself: never renamed or replaced)`,
      `    ${repo}/.vscode: lifted: writable`,
      `    ${repo}/.idea: missing: an empty stand-in while it runs, so it cannot be made`,
      `    ${repo}/.git/config: read-only`,
      `    ${repo}/.git/hooks: read-only`,
      `    ${repo}/.git/commondir: missing: an empty stand-in while it runs, so it cannot be made`,
      `  lifted: ${repo}/.vscode`,
      "",
    ].join("\n"),
  );
  const json = await runJson<{ protected: Record<string, unknown> }>(
    ["agent", "show", "--permissions"],
    home,
  );
  assert.deepEqual(json.protected, {
    everywhere: [
      ".git",
      ".gitattributes",
      ".gitmodules",
      ".vscode",
      ".idea",
      ".husky",
      ".pre-commit-config.yaml",
      ".envrc",
      ".devcontainer",
      ".npmrc",
      ".yarnrc",
      ".yarnrc.yml",
    ],
    inGit: ["config", "config.worktree", "hooks", "modules", "worktrees", "commondir"],
    inHome: [
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
      ".ssh",
      ".local/bin",
      ".tmux.conf",
      ".vimrc",
      ".emacs",
      ".emacs.d",
    ],
    lifted: [`${repo}/.vscode`],
    places: [layout.home],
    kept: [
      { path: `${repo}/.git`, state: "pinned" },
      { path: `${repo}/.vscode`, state: "lifted" },
      { path: `${repo}/.idea`, state: "placeholder" },
      { path: `${repo}/.git/config`, state: "read-only" },
      { path: `${repo}/.git/hooks`, state: "read-only" },
      { path: `${repo}/.git/commondir`, state: "placeholder" },
    ],
    notices: [],
  });
});
