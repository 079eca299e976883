/**
 * `lnk setup` on a machine without bubblewrap and util-linux's tools (issue 9, item 14): a PATH
 * holding every program of this machine but those, and a fake apt-get that records what it was
 * asked and "installs" by putting the real tools on that PATH. The real install runs in CI.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliResult, runCli, runJson, type TempHome, tempHome } from "../support/mod.ts";
import { NO_BWRAP } from "../support/sandbox.ts";

const TOOLS = ["bwrap", "setsid", "setpriv"];

/** A fresh machine's PATH, with a fake apt-get whose calls land in `calls`, one per line. */
async function freshMachine(home: TempHome): Promise<{ calls: string }> {
  const bin = join(home.path, "fresh-bin");
  const calls = join(home.path, "apt-get.calls");
  await Deno.mkdir(bin);
  const real: Record<string, string> = {};
  for (const dir of (Deno.env.get("PATH") ?? "").split(":").filter((d) => d.startsWith("/"))) {
    const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
    for (const entry of entries) if (!(entry.name in real)) real[entry.name] = join(dir, entry.name);
  }
  for (const [name, path] of Object.entries(real)) {
    if (!TOOLS.includes(name) && !["apt-get", "sudo"].includes(name)) {
      await Deno.symlink(path, join(bin, name));
    }
  }
  const install = TOOLS.map((t) => `ln -s "${real[t]}" "${bin}/${t}"`).join("; ");
  await Deno.writeTextFile(
    join(bin, "apt-get"),
    `#!/bin/sh\necho "$*" >> "${calls}"\nif [ "$1" = install ]; then ${install}; echo "Setting up bubblewrap"; fi\n`,
    { mode: 0o755 },
  );
  home.env.set("PATH", bin);
  return { calls };
}

async function callsOf(path: string): Promise<string[]> {
  return (await Deno.readTextFile(path).catch(() => "")).split("\n").filter(Boolean);
}

/** What the start of main says when no model key is set and no local model answers. */
const NO_MODEL = [
  'Agent "main" has no model to call yet: OPENROUTER_API_KEY is not set and no local model answers',
  "  Link Harness answers nothing until it has one. Either:",
  "  - set a key, such as `export OPENROUTER_API_KEY=<your key>` (or OPENAI_API_KEY, DEEPSEEK_API_KEY), " +
  "then run `lnk agent stop` and `lnk agent start` from that shell; or",
  "  - run a model server on this machine (Ollama on port 11434, llama.cpp on 8080, LM Studio on 1234):",
  "    Link uses the first that answers at the agent's next start",
].join("\n");

function startedText(result: CliResult): string {
  return result.stdout.replace(/\(\w{26}\)/g, "(<id>)").replace(/pid \d+/g, "pid <n>").replace(
    /\d{4,5}/g,
    "<port>",
  );
}

Deno.test("lnk setup with no terminal installs nothing and says the exact command to run", async () => {
  await using home = await tempHome();
  const { calls } = await freshMachine(home);
  assert.deepEqual(await runCli(["setup"], home), {
    code: 1,
    stdout: "",
    stderr: "error: Cannot set up Link: bwrap, setsid and setpriv are not installed and there is no " +
      "terminal to ask in\n  hint: Run `apt-get update && apt-get install -y bubblewrap util-linux`, then " +
      "`lnk setup` again (or `lnk setup --yes` installs without asking)\n",
  });
  assert.deepEqual(await callsOf(calls), []);
  assert.deepEqual(await Array.fromAsync(Deno.readDir(home.paths.agentsState)).catch(() => []), []);
});

Deno.test("lnk setup at a terminal answered no installs nothing", async () => {
  await using home = await tempHome();
  const { calls } = await freshMachine(home);
  const result = await runCli(["setup"], home, { answers: ["n"] });
  assert.deepEqual(result, {
    code: 1,
    stdout: "",
    stderr: "Link needs bubblewrap (bwrap), which runs every sandbox, setsid (util-linux), which starts " +
      "services and setpriv (util-linux), which runs as another user. Install bubblewrap and util-linux " +
      "with `apt-get update && apt-get install -y bubblewrap util-linux`? [y/N]\n" +
      "error: Cannot set up Link: bwrap, setsid and setpriv are not installed\n" +
      "  hint: Run `apt-get update && apt-get install -y bubblewrap util-linux`, then `lnk setup` again " +
      "(or `lnk setup --yes` installs without asking)\n",
  });
  assert.deepEqual(await callsOf(calls), []);
});

Deno.test({
  name:
    "lnk setup at a terminal answered yes installs with apt-get, then creates and starts main, saying how to give it a model" +
    (NO_BWRAP ? ` [ignored: ${NO_BWRAP}]` : ""),
  ignore: NO_BWRAP !== undefined,
  async fn() {
    await using home = await tempHome();
    const { calls } = await freshMachine(home);
    const result = await runCli(["setup"], home, { answers: ["y"] });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await callsOf(calls), ["update", "install -y bubblewrap util-linux"]);
    assert.equal(
      startedText(result),
      [
        "Installed bubblewrap and util-linux",
        'Created agent "main" (<id>)',
        'Started "main"',
        "main (<id>): running",
        "  harness: link, sandbox on",
        "  port:    <port> (block <port>-<port>)",
        "  services: bridge running (pid <n>), agent running (pid <n>)",
        'Talk to it with `lnk agent chat send "hello"`',
        "",
      ].join("\n"),
    );
    const said = result.stderr.replace(/^Moved agent .*\n/m, "");
    assert.equal(
      said,
      "Link needs bubblewrap (bwrap), which runs every sandbox, setsid (util-linux), which starts services " +
        "and setpriv (util-linux), which runs as another user. Install bubblewrap and util-linux with " +
        "`apt-get update && apt-get install -y bubblewrap util-linux`? [y/N]\n" +
        "Running `apt-get update`\nRunning `apt-get install -y bubblewrap util-linux`\nSetting up bubblewrap\n" +
        `${NO_MODEL}\n`,
    );
    // Once set up, setup again installs nothing and finds main running.
    const again = await runCli(["setup"], home);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(await callsOf(calls), ["update", "install -y bubblewrap util-linux"]);
    assert.equal(again.stderr, 'Agent "main" is running already\n');
    await runJson(["agent", "stop"], home);
  },
});

Deno.test("lnk agent start without bubblewrap on the PATH points at lnk setup, before any service starts", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--harness", "mini"], home);
  await freshMachine(home);
  assert.deepEqual(await runCli(["agent", "start"], home), {
    code: 1,
    stdout: "",
    stderr: 'error: Cannot start agent "main": bubblewrap (bwrap), which runs every sandbox and setsid ' +
      "(util-linux), which starts services are not installed\n" +
      "  hint: Run `lnk setup` to install what Link needs, then start the agent again\n",
  });
  assert.deepEqual(await Array.fromAsync(Deno.readDir(home.paths.run)).catch(() => []), []);
});
