import assert from "node:assert/strict";
import { loadSettings } from "../../../core/agent/mod.ts";
import * as grants from "../../../core/agent/grants/mod.ts";
import { runCli, runJson, runLnk, tempHome } from "../../support/mod.ts";
import { sandboxTest } from "../../support/sandbox.ts";

/**
 * An agent with no internet: its sandbox needs no proxy and so no relay inside, which is what
 * lets these run from the command line before `lnk sandbox relay` is wired into main.ts.
 */
async function offline(home: Awaited<ReturnType<typeof tempHome>>) {
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  await runJson(["agent", "deny", "--host", "*"], home);
  return await loadSettings(home.paths, id);
}

sandboxTest(
  "lnk agent harness run passes the terminal's stdin and stdout through and exits with the command's code (SBX-6)",
  async () => {
    await using home = await tempHome();
    const agent = await offline(home);
    const result = await runLnk(
      ["agent", "harness", "run", "--", "/bin/sh", "-c", 'read x; echo "got $x in $HOME"; exit 3'],
      home,
      { stdin: "hello\n" },
    );
    assert.deepEqual(result, {
      code: 3,
      stdout: `got hello in ${grants.harnessHomeOf(home.paths, agent)}\n`,
      stderr: "",
    });
  },
);

Deno.test("lnk agent harness run without a command is a usage error", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  assert.deepEqual(await runCli(["agent", "harness", "run", "--agent", "main"], home), {
    code: 2,
    stdout: "",
    stderr: "error: Cannot run as the harness: no command was given after --\n" +
      "  hint: Usage: lnk agent harness run [--agent <name>] [--json] -- <command> [<arg>...]\n",
  });
});

sandboxTest(
  "lnk agent harness check --json prints the rows, probed by lnk agent harness probe inside (SBX-2)",
  async () => {
    await using home = await tempHome();
    await offline(home);
    const result = await runCli(["agent", "harness", "check", "--json"], home);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const rows = JSON.parse(result.stdout) as grants.CheckRow[];
    assert.deepEqual(rows.filter((r) => !r.ok), []);
    assert.deepEqual(rows.find((r) => r.check.startsWith("the internet")), {
      check: "the internet through its proxy",
      expected: "refused by the proxy",
      result: "no proxy: nothing goes out",
      ok: true,
    });
    assert.deepEqual(rows.find((r) => r.check === "your home (~)")?.result, "hidden");
  },
);

sandboxTest("lnk agent harness check prints a table and says all checks hold", async () => {
  await using home = await tempHome();
  await offline(home);
  const result = await runCli(["agent", "harness", "check"], home);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines[0], 'Checked the sandbox of "main" (harness link, network proxy):');
  assert.match(lines[2]!, /^check +expected +result +ok$/);
  assert.match(lines.at(-1)!, /^All \d+ checks hold$/);
});
