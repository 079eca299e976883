/**
 * The attack suite, the hub (ARCHITECTURE.md section 6): a stdio ACP agent Link did not write,
 * running with all of Deno's permissions under `lnk harness hub` in a real sandbox (`lnk agent
 * start`, harness acp), tries the hub that holds the agent's key, the sandbox's pid 1, and what no
 * harness from outside may see: the agent's brain (Agent/), its Config/, its settings and the
 * machine's in ~/.lnk, the keyring and ~/.config.
 * Run as root here and as an ordinary user by as_user_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadSettings } from "../../core/agent/mod.ts";
import { serveFakeModel } from "../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../support/mod.ts";
import { sandboxedTest } from "../support/sandboxed_agent.ts";

sandboxedTest(
  "an ACP agent under the hub cannot read or signal the hub, nor see Agent/, Config/, the settings, the keyring or ~/.config",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const child = new URL("./_acp_attack_child.ts", import.meta.url).pathname;
    const { id } = await runJson<{ id: string }>(
      [
        "agent",
        "create",
        "x",
        "--harness",
        "acp",
        "--acp-command",
        `${Deno.execPath()} run -A ${child}`,
        "--model-url",
        model.url,
      ],
      home,
    );
    await runJson(["agent", "start", "--agent", "x"], home);
    const root = join(home.path, "Link", "Agents", "x");
    const settings = await loadSettings(home.paths, id);
    assert.equal(settings.acp?.command.at(-1), child);
    const paths = [
      join(root, "Agent"),
      join(root, "Config"),
      home.paths.settingsToml(id),
      home.paths.machineToml,
      home.paths.keys,
      home.paths.config,
    ];
    const sent = await runCli(["agent", "chat", "send", "--agent", "x", JSON.stringify(paths)], home);
    assert.equal(sent.code, 0, sent.stderr);
    const open = sent.stdout.trim().split("\n").filter((l) => l.endsWith(": open"));
    assert.deepEqual(open, []);
    // It still sees its Home: the attacks were refused, not the reads never made.
    const home2 = await runCli([
      "agent",
      "chat",
      "send",
      "--agent",
      "x",
      JSON.stringify([join(root, "Home")]),
    ], home);
    assert.match(home2.stdout, /Home: open/);
    await runJson(["agent", "stop", "--agent", "x"], home);
  },
);
