import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { DEFAULT_SANDBOX_TOML, GRANT_USAGE } from "../../../sandbox/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

async function created(home: Awaited<ReturnType<typeof tempHome>>) {
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  const agent = await loadSettings(home.paths, id);
  return { agent, file: layoutOf(home.paths, agent).sandboxToml };
}

Deno.test("lnk agent allow changes the sandbox file and says each key it changed (GRT-1, GRT-4)", async () => {
  await using home = await tempHome();
  const { file } = await created(home);
  const result = await runCli([
    "agent",
    "allow",
    "--tcp",
    "github.com:22",
    "--port",
    "5432",
    "--files",
    "work=write",
  ], home);
  assert.deepEqual(result, {
    code: 0,
    stdout: [
      `Changed the grants of "main" in "${file}":`,
      '  internet.tcp: [] -> ["github.com:22"]',
      "  localhost.ports: [] -> [5432]",
      '  files.work: (unset) -> "write"',
      "",
    ].join("\n"),
    stderr: "",
  });
  const text = await Deno.readTextFile(file);
  assert.equal(
    text,
    DEFAULT_SANDBOX_TOML
      .replace("tcp = []", 'tcp = ["github.com:22"]')
      .replace("ports = []", "ports = [5432]")
      .replace('chats = "read"\n', 'chats = "read"\nwork = "write"\n'),
  );
});

Deno.test("lnk agent deny mirrors allow, and says what changed nothing", async () => {
  await using home = await tempHome();
  const { file } = await created(home);
  await runCli(["agent", "allow", "--tcp", "github.com:22"], home);
  const denied = await runJson(["agent", "deny", "--tcp", "github.com:22", "--tcp", "gitlab.com:22"], home);
  assert.deepEqual(denied, {
    agent: "main",
    file,
    notes: ['--tcp "gitlab.com:22" was not allowed'],
    changes: [{ key: "internet.tcp", from: ["github.com:22"], to: [] }],
    restartNeeded: false,
  });
  assert.equal(await Deno.readTextFile(file), DEFAULT_SANDBOX_TOML);
  const again = await runCli(["agent", "deny", "--tcp", "github.com:22"], home);
  assert.deepEqual(again, {
    code: 0,
    stdout: `Nothing changed in "${file}"\n  --tcp "github.com:22" was not allowed\n`,
    stderr: "",
  });
});

Deno.test("lnk agent allow with no grant, or a bad one, is a usage error", async () => {
  await using home = await tempHome();
  await created(home);
  assert.deepEqual(await runCli(["agent", "allow"], home), {
    code: 2,
    stdout: "",
    stderr:
      `error: Cannot allow: no grant was named\n  hint: Usage: lnk agent allow [--agent <name>] ${GRANT_USAGE} [--json]\n`,
  });
  const typo = await runCli(["agent", "deny", "--tpc", "github.com:22"], home);
  assert.deepEqual([typo.code, typo.stderr], [
    2,
    'error: Cannot run the command: unknown flag "--tpc"\n  hint: Did you mean --tcp?\n',
  ]);
  const port = await runCli(["agent", "allow", "--port", "http"], home);
  assert.deepEqual([port.code, port.stderr.split("\n")[0]], [
    2,
    'error: Cannot change the grants: --port "http" is not a port number',
  ]);
});

Deno.test("lnk agent deny refuses a result no sandbox can hold, naming the file and line, and writes nothing (GRT-5)", async () => {
  await using home = await tempHome();
  const { file } = await created(home);
  const result = await runCli(["agent", "deny", "--command", "*"], home);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr.split("\n")[0],
    `error: Cannot change the grants: "${file}" line 23: a list of programs cannot be enforced by this sandbox ` +
      "(bubblewrap keeps no list of programs)",
  );
  const hidden = await runCli(["agent", "allow", "--read", "~/.lnk"], home);
  assert.equal(hidden.code, 1);
  assert.match(
    hidden.stderr,
    /line 18: "~\/\.lnk" is inside ".*\/\.lnk", which Link hides from every sandbox/,
  );
  assert.equal(await Deno.readTextFile(file), DEFAULT_SANDBOX_TOML);
});

Deno.test("lnk agent allow on a running agent tells the person to restart it", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "--harness", "mini"], home);
  await runJson(["agent", "start"], home);
  const result = await runCli(["agent", "allow", "--network-mode", "host"], home);
  assert.deepEqual([result.code, result.stderr], [
    0,
    'Agent "main" is running with its old grants: restart it for this to hold (`lnk agent stop`, then `lnk agent start`)\n',
  ]);
  await runJson(["agent", "stop"], home);
});
