import assert from "node:assert/strict";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

Deno.test("lnk agent show --permissions lists what every path of the agent runs with (SBX-10, SBX-13)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  const result = await runCli(["agent", "show", "--permissions"], home);
  assert.equal(result.code, 0);
  assert.equal(
    result.stdout,
    [
      'What "main" runs with, on every path (harness link):',
      "  harness (link): in its sandbox; Home and folders per [files]; out through its proxy: any host on ports 443 and 80",
      "  its tools (files, web, notes): [files] as granted, chats/ never writable; web through the same route " +
      "(its proxy: any host on ports 443 and 80)",
      "  run's commands: in the harness's sandbox with its grants and route, never writing Agent/ (Landlock); " +
      "programs: *",
      "  setup steps (installer, configure, link): none: the harness is built into lnk",
      "  health check: no proxy and no network: only the harness's own ports on this machine's loopback (18800)",
      "",
      "Sandbox: on",
      "Model key: added by the proxy; the harness holds a placeholder (the default for link; openrouter, " +
      "OPENROUTER_API_KEY not set)",
      "",
      "Grants (Config/sandbox.toml):",
      "  files:",
      "    Home (.): write",
      "    instructions/: read",
      "    skills/: read",
      "    chats/: read",
      "  paths:    read none; write none",
      "  commands: *",
      "  network:  proxy",
      "  internet: any host, ports 443 and 80",
      "  lan:      none",
      "  this machine's ports: none",
      "",
      "Protected places, read-only wherever it writes (`lnk agent allow --write-protected <path>` lifts one):",
      "  in each writable place and repository (.git pinned): .git, .gitattributes, .gitmodules, .vscode, .idea, " +
      ".husky, .pre-commit-config.yaml, .envrc, .devcontainer, .npmrc, .yarnrc, .yarnrc.yml",
      "  in each repository's .git: config, config.worktree, hooks, modules, worktrees, commondir",
      "  in your home folder, when it may write there: .bashrc, .bash_logout, .profile, .zshenv, .zprofile, " +
      ".zshrc, .zlogin, .zlogout, .bash_profile, .bash_login, .gitconfig, .ssh, .local/bin, .tmux.conf, .vimrc, " +
      ".emacs, .emacs.d",
      `  kept now: none (looked in ${home.path}/Link/Agents/main/Home)`,
      "  lifted: none",
      "",
    ].join("\n"),
  );
});

Deno.test("lnk agent show --permissions --json holds both layers and the paths, in host mode too (GRT-2, SBX-9)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--harness", "mini"], home);
  await runJson(["agent", "allow", "--network-mode", "host"], home);
  await Deno.mkdir(home.paths.harnesses, { recursive: true });
  await Deno.writeTextFile(home.paths.harnessToml("mini"), '[internet]\ntcp = ["github.com:22"]\n');
  type Shown = {
    harnessLayer: { path: string; flags: string[] };
    grants: { internet: { tcp: string[] } };
    effective: { internet: { tcp: string[] }; network: { mode: string } };
    paths: { path: string; runs: string }[];
  };
  const shown = await runJson<Shown>(["agent", "show", "--permissions"], home);
  assert.deepEqual(shown.harnessLayer, {
    path: home.paths.harnessToml("mini"),
    flags: ["--tcp github.com:22"],
  });
  assert.deepEqual([shown.grants.internet.tcp, shown.effective.internet.tcp], [[], ["github.com:22"]]);
  assert.deepEqual(shown.paths.map((p) => p.path), [
    "harness (mini)",
    "its tools (files, web, notes)",
    "run's commands",
    "setup steps (installer, configure, link)",
    "health check",
  ]);
  assert.match(shown.paths[0]!.runs, /out through the network as it is \(host mode\)$/);
});

Deno.test("lnk agent show --permissions says every path runs unsandboxed when the sandbox is off (GRT-6)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--harness", "mini"], home);
  await runJson(["agent", "start", "--no-sandbox"], home);
  await runJson(["agent", "stop"], home);
  const shown = await runJson<{ sandbox: string; paths: { path: string; runs: string }[] }>(
    ["agent", "show", "--permissions"],
    home,
  );
  const off = "without a sandbox or a proxy (`lnk agent start --sandbox` turns it back on)";
  assert.deepEqual(shown.sandbox, "off");
  assert.deepEqual(shown.paths, [
    { path: "harness", runs: off },
    { path: "its tools", runs: off },
    { path: "run's commands", runs: off },
  ]);
});
