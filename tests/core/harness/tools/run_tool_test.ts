import assert from "node:assert/strict";
import { join } from "node:path";
import { type RunCommandOptions, runTool } from "../../../../core/harness/tools/mod.ts";
import { FakeClock } from "../../../support/mod.ts";
import { call, firstLine, toolFixture } from "../../../support/tool_fixture.ts";

/** A folder of programs for PATH: `hello` and `python3`, each a small sh script. */
async function programs(root: string): Promise<string> {
  const bin = join(root, "bin");
  await Deno.mkdir(bin);
  for (const name of ["hello", "python3"]) {
    await Deno.writeTextFile(join(bin, name), `#!/bin/sh\necho "${name} $*"\n`, { mode: 0o755 });
  }
  return bin;
}

Deno.test("run starts a program [commands] names, and refuses one it does not (SBX-20)", async () => {
  await using fx = await toolFixture();
  const bin = await programs(fx.root);
  const run = runTool({ path: `${bin}:/usr/bin:/bin` });
  const ctx = fx.ctx({ commands: { allow: ["hello", "sh"] } });
  assert.deepEqual(await call(run, { command: ["hello", "there"] }, ctx), {
    content: "Exit code 0\n--- stdout ---\nhello there",
    isError: false,
  });
  const refused = await call(run, { command: ["python3", "-c", "print(1)"] }, ctx);
  assert.deepEqual(refused, {
    content: 'Cannot run "python3": it is not among the programs your grants allow\n' +
      "  hint: Allowed ([commands]): hello, sh; your owner adds one with `lnk agent allow`",
    isError: true,
  });
  assert.equal(
    firstLine(await call(run, { command: [join(bin, "python3")] }, ctx)),
    `Cannot run "${join(bin, "python3")}": it is not among the programs your grants allow`,
  );
  // The path of an allowed name, as found on PATH, is that program.
  assert.equal(
    (await call(run, { command: [join(bin, "hello")] }, ctx)).content,
    "Exit code 0\n--- stdout ---\nhello ",
  );
});

Deno.test("run refuses a program planted in Home under an allowed name, and names not on PATH", async () => {
  await using fx = await toolFixture();
  const bin = await programs(fx.root);
  await Deno.writeTextFile(join(fx.folders.home, "hello"), "#!/bin/sh\necho planted\n", { mode: 0o755 });
  const run = runTool({ path: `${bin}:/usr/bin:/bin` });
  const ctx = fx.ctx({ commands: { allow: ["hello"] } });
  assert.equal(
    firstLine(await call(run, { command: ["./hello"] }, ctx)),
    'Cannot run "./hello": it is not among the programs your grants allow',
  );
  assert.equal(
    firstLine(await call(run, { command: ["no-such-program"] }, ctx)),
    'Cannot run "no-such-program": no such program',
  );
  const star = fx.ctx({ commands: { allow: ["*"] } });
  assert.equal(
    (await call(run, { command: ["./hello"] }, star)).content,
    "Exit code 0\n--- stdout ---\nplanted",
  );
});

Deno.test("run refuses every program when [commands] allow is empty", async () => {
  await using fx = await toolFixture();
  const run = runTool({ path: "/usr/bin:/bin" });
  assert.equal(
    firstLine(await call(run, { command: ["sh", "-c", "true"] }, fx.ctx({ commands: { allow: [] } }))),
    'Cannot run "sh": it is not among the programs your grants allow',
  );
});

Deno.test("run runs in a folder of the view, feeds stdin, and says a failing exit", async () => {
  await using fx = await toolFixture();
  const run = runTool({ path: "/usr/bin:/bin" });
  const ctx = fx.ctx();
  assert.deepEqual(
    await call(
      run,
      { command: ["sh", "-c", "pwd; cat; echo oops >&2; exit 3"], cwd: "work", stdin: "fed" },
      ctx,
    ),
    {
      content: `Exit code 3\n--- stdout ---\n${await Deno.realPath(
        join(fx.folders.home, "work"),
      )}\nfed\n--- stderr ---\noops`,
      isError: true,
    },
  );
  const hidden = fx.ctx({ files: { ".": "write", instructions: "none" } });
  assert.equal(
    firstLine(await call(run, { command: ["true"], cwd: "instructions" }, hidden)),
    'Cannot use "instructions": your grants ([files]) do not show "instructions/"',
  );
});

Deno.test("run keeps the head and tail of long output", async () => {
  await using fx = await toolFixture();
  const run = runTool({ path: "/usr/bin:/bin" });
  const script = "i=0; while [ $i -lt 5000 ]; do echo line-$i-xxxxxxxxxx; i=$((i+1)); done";
  const result = await call(run, { command: ["sh", "-c", script] }, fx.ctx());
  const lines = result.content.split("\n");
  assert.deepEqual(lines.slice(0, 3), ["Exit code 0", "--- stdout ---", "line-0-xxxxxxxxxx"]);
  assert.equal(lines.at(-1), "line-4999-xxxxxxxxxx");
  assert.match(result.content, /\n\[\.\.\. \d+ bytes left out \.\.\.\]\n/);
  assert.ok(result.content.length < 34 * 1024);
});

Deno.test("run stops a program at its timeout, driven by the clock", async () => {
  const clock = new FakeClock();
  await using fx = await toolFixture(clock);
  const run = runTool({ path: "/usr/bin:/bin" });
  const pending = call(run, { command: ["sleep", "30"], timeout_seconds: 5 }, fx.ctx());
  await clock.waitForSleepers(1);
  await clock.advance(5000);
  assert.deepEqual(await pending, { content: "Stopped after 5 seconds: the timeout", isError: true });
});

Deno.test("run stops a program when the turn is cancelled, before or after it started", async () => {
  const clock = new FakeClock();
  await using fx = await toolFixture(clock);
  const run = runTool({ path: "/usr/bin:/bin" });
  const cancelled = {
    content: "Cannot finish run: the turn was cancelled, and the program stopped",
    isError: true,
  };
  const before = new AbortController();
  before.abort();
  assert.deepEqual(
    await call(run, { command: ["sleep", "30"] }, fx.ctx({}, { signal: before.signal })),
    cancelled,
  );
  const during = new AbortController();
  const pending = call(run, { command: ["sleep", "30"] }, fx.ctx({}, { signal: during.signal }));
  await clock.waitForSleepers(1); // the program runs and its timeout is set
  during.abort();
  assert.deepEqual(await pending, cancelled);
});

Deno.test("run hands the checked program to the injected runner (the sandbox's)", async () => {
  await using fx = await toolFixture();
  const bin = await programs(fx.root);
  const seen: { argv: readonly string[]; options: RunCommandOptions }[] = [];
  const runCommand = (argv: readonly string[], options: RunCommandOptions) => {
    seen.push({ argv, options });
    return Promise.resolve({
      code: 0,
      signal: null,
      stdout: "from the sandbox\n",
      stderr: "",
      timedOut: false,
    });
  };
  const run = runTool({ path: bin });
  const ctx = fx.ctx({ commands: { allow: ["hello"] } }, { runCommand });
  assert.deepEqual(await call(run, { command: ["hello", "x"], timeout_seconds: 7 }, ctx), {
    content: "Exit code 0\n--- stdout ---\nfrom the sandbox",
    isError: false,
  });
  assert.deepEqual(seen.map((s) => [s.argv, s.options.program, s.options.cwd, s.options.timeoutMs]), [
    [["hello", "x"], join(bin, "hello"), await Deno.realPath(fx.folders.home), 7000],
  ]);
  assert.equal(
    firstLine(await call(run, { command: ["python3"] }, ctx)),
    'Cannot run "python3": it is not among the programs your grants allow',
  );
  assert.equal(seen.length, 1);
});
