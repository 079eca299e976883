import assert from "node:assert/strict";
import { join } from "node:path";
import { type Command, type Group, ROOT } from "../../cmd/mod.ts";
import { isGroup } from "../../cmd/command.ts";
import { runCli, runJson, runLnk, tempHome } from "../support/mod.ts";
import { HELP, ROOT_HELP } from "./_help_support.ts";

function commands(group: Group, path: string[] = ["lnk"]): [string[], Command][] {
  return Object.entries(group.commands).flatMap(([name, entry]) =>
    isGroup(entry) ? commands(entry, [...path, name]) : [[[...path, name], entry] as [string[], Command]]
  );
}

for (const [args, help] of HELP) {
  Deno.test(`lnk ${args.join(" ")} prints its help on stdout and exits 0`, async () => {
    await using home = await tempHome();
    assert.deepEqual(await runCli(args, home), { code: 0, stdout: help, stderr: "" });
  });
}

Deno.test("every command answers --help with exit 0 and nothing on stderr", async () => {
  await using home = await tempHome();
  const all = commands(ROOT);
  assert.ok(all.length >= 9);
  for (const [path] of all) {
    const result = await runCli([...path.slice(1), "--help"], home);
    assert.deepEqual([result.code, result.stderr], [0, ""], path.join(" "));
  }
});

Deno.test("runCli() refuses an unknown command with exit 2, naming where to look", async () => {
  await using home = await tempHome();
  assert.deepEqual(await runCli(["bogus"], home), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot run "lnk bogus": unknown command\n  hint: Run `lnk --help` to see its commands\n',
  });
  assert.deepEqual(await runCli(["agent", "bogus"], home), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot run "lnk agent bogus": unknown command\n' +
      "  hint: Run `lnk agent --help` to see its commands\n",
  });
});

// These print a stream for a person (a chat, logs) or pass another program's output through.
const STREAMS = new Set(["lnk agent logs", "lnk agent chat", "lnk agent harness run", "lnk sandbox run"]);

Deno.test("every command a program reads takes --json", () => {
  const readers = commands(ROOT).filter(([path, command]) => !STREAMS.has(path.join(" ")) && !command.hidden);
  for (const [path, command] of readers) assert.match(command.usage, /--json/, path.join(" "));
});

Deno.test("runCli() refuses a mistyped verb as an unknown command with a did-you-mean, never a harness (CLI-4)", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "strat"], home);
  assert.deepEqual(result, {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot run "lnk agent strat": unknown command\n  hint: Did you mean `lnk agent start`?\n',
  });
});

Deno.test("runCli() refuses an unknown flag with a did-you-mean and exit 2", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "list", "--jsno"], home);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'error: Cannot run the command: unknown flag "--jsno"\n  hint: Did you mean --json?\n',
  );
});

Deno.test("runCli() prints a usage error as JSON with --json", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "status", "--json", "--bogus"], home);
  assert.equal(result.code, 2);
  assert.deepEqual(JSON.parse(result.stdout), {
    error: {
      code: "USAGE",
      message: 'Cannot run the command: unknown flag "--bogus"',
      hint: "Usage: lnk agent status [--agent <name>] [--json]",
    },
  });
});

Deno.test("runCli() refuses a second positional argument", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "create", "a", "b"], home);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Cannot read the argument "b": this command takes at most 1/);
});

Deno.test("--agent may be left out with one agent and is asked for with two (CLI-2)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  const one = await runJson<{ name: string }>(["agent", "status"], home);
  assert.equal(one.name, "main");
  await runJson(["agent", "create", "work"], home);
  const two = await runCli(["agent", "status"], home);
  assert.equal(two.code, 2);
  assert.equal(
    two.stderr,
    "error: Cannot tell which agent you mean: you have 2\n  hint: Name one with --agent: main, work\n",
  );
  assert.equal((await runJson<{ name: string }>(["agent", "status", "--agent", "work"], home)).name, "work");
});

Deno.test("a positional argument is the verb's object: create, remove and restore take the agent (CLI-1, CLI-3)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  assert.equal((await runCli(["agent", "remove", "work", "--yes"], home)).code, 0);
  assert.equal((await runCli(["agent", "restore", "work"], home)).code, 0);
  assert.equal(
    (await runJson<{ agents: { name: string }[] }>(["agent", "list"], home)).agents[0]!.name,
    "work",
  );
  // `lnk agent status work` does not read "work" as the agent: status takes no object.
  assert.equal((await runCli(["agent", "status", "work"], home)).code, 2);
});

Deno.test("an lnk-<name> program on the PATH plugs in as `lnk <name>` (CLI-8)", async () => {
  await using home = await tempHome();
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(bin, "lnk-matrix"), '#!/bin/sh\necho "matrix plugin got: $*"\n', {
    mode: 0o755,
  });
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  const result = await runLnk(["matrix", "connect", "--token", "x"], home);
  assert.deepEqual(result, { code: 0, stdout: "matrix plugin got: connect --token x\n", stderr: "" });
});

Deno.test("lnk with no command prints the root help on stderr and exits 2", async () => {
  await using home = await tempHome();
  assert.deepEqual(await runCli([], home), { code: 2, stdout: "", stderr: ROOT_HELP });
});
