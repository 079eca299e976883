import assert from "node:assert/strict";
import { dirname } from "node:path";
import { ConfinedRun, runTool } from "../../../../core/harness/tools/mod.ts";
import { ConfinedSpawner } from "../../../../sandbox/mod.ts";
import { FakeClock } from "../../../support/mod.ts";
import { call, toolFixture } from "../../../support/tool_fixture.ts";

const NO_LANDLOCK: string | undefined = await ConfinedSpawner.start([]).then(
  (s) => s[Symbol.asyncDispose]().then(() => undefined),
  (err) => err instanceof Error ? err.message : String(err),
);
if (NO_LANDLOCK) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`ConfinedRun tests ignored: ${NO_LANDLOCK}`);
}

function landlockTest(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: NO_LANDLOCK !== undefined, fn });
}

landlockTest(
  "run through ConfinedRun writes Home but never Agent/: chats/ and the notes in memory/ (LAY-7)",
  async () => {
    await using fx = await toolFixture();
    const agent = await Deno.realPath(dirname(fx.folders.chats));
    await using confined = new ConfinedRun([agent]);
    const run = runTool({ path: "/usr/bin:/bin" });
    const ctx = fx.ctx({}, { runCommand: confined.run });
    const w = (path: string) =>
      `(echo x >> "${path}") 2>/dev/null && echo "wrote ${path}" || echo "denied ${path}"`;
    const script = [w("work/new.md"), w(`${agent}/chats/link:1/events.jsonl`), w(`${agent}/memory/index.md`)]
      .join("; ");
    assert.deepEqual(await call(run, { command: ["sh", "-c", script], stdin: "ignored" }, ctx), {
      content: [
        "Exit code 0",
        "--- stdout ---",
        "wrote work/new.md",
        `denied ${agent}/chats/link:1/events.jsonl`,
        `denied ${agent}/memory/index.md`,
      ].join("\n"),
      isError: false,
    });
    assert.deepEqual(await fx.read("Agents/a/Agent/chats/link:1/events.jsonl"), "{}\n");
    assert.deepEqual(await fx.read("Agents/a/Home/work/new.md"), "x\n");
  },
);

landlockTest("run through ConfinedRun feeds stdin, and stops a program at its timeout", async () => {
  const clock = new FakeClock();
  await using fx = await toolFixture(clock);
  await using confined = new ConfinedRun([await Deno.realPath(dirname(fx.folders.chats))]);
  const run = runTool({ path: "/usr/bin:/bin" });
  const ctx = fx.ctx({}, { runCommand: confined.run });
  assert.deepEqual(await call(run, { command: ["cat"], stdin: "fed\n" }, ctx), {
    content: "Exit code 0\n--- stdout ---\nfed",
    isError: false,
  });
  const pending = call(run, { command: ["sleep", "30"], timeout_seconds: 5 }, ctx);
  await clock.waitForSleepers(1);
  await clock.advance(5000);
  assert.deepEqual(await pending, { content: "Stopped after 5 seconds: the timeout", isError: true });
});
