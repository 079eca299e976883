/**
 * A turn crashed with its sandboxed harness (kill -9): the next message is answered at once, not
 * after the lease's lapse, though the next harness runs in a sandbox (a PID namespace) of its own
 * (issue 9, item 13; TRN-4, TRN-7).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { filesStore } from "../../../../core/harness/store/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { processTree } from "../../../support/agent_processes.ts";
import { askEndpoint, createAgent, sandboxedTest } from "../../../support/sandboxed_agent.ts";

type Status = { state: string; services: { agent: { pid?: number } } };

sandboxedTest(
  "attack: kill -9 of the sandboxed harness mid-turn; the next message is answered without waiting out an hour's lapse, and each message once",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Answered." });
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    const spec = await Deno.readTextFile(agent.layout.specToml);
    // A lapse no test waits out: only knowing the holder died lets the next harness take the turn.
    await Deno.writeTextFile(agent.layout.specToml, spec.replace('lapse = "60s"', 'lapse = "1h"'));
    const status = await runJson<Status>(["agent", "start"], home);
    const held = model.reply("never sent", { hold: true });
    const first = askEndpoint(home, agent, "first").catch((err: Error) => `lost: ${err.message}`);
    await held.taken;
    // The turn is mid model call, its lease held: kill its harness, inside its sandbox.
    const harness = (await processTree(status.services.agent.pid!))
      .filter((p) => / harness serve /.test(` ${p.command} `) || / sandbox relay .* harness /.test(p.command))
      .at(-1);
    assert.ok(harness, "the harness runs in the sandbox");
    Deno.kill(harness.pid, "SIGKILL");
    await first;
    held.release();
    const guard = new AbortController();
    // Not a timing assertion: a guard, so a harness that waits out the hour fails the test instead.
    const timer = setTimeout(() => guard.abort(), 120_000);
    let second;
    try {
      second = await runCli(["agent", "chat", "send", "second"], home, { signal: guard.signal });
    } finally {
      clearTimeout(timer);
    }
    assert.equal(second.code, 0, second.stderr);
    // The crashed turn's answer comes first when it was finished on its own before "second" came.
    assert.ok(["Answered.\n", "Answered.\n\nAnswered.\n"].includes(second.stdout), second.stdout);
    await runJson(["agent", "stop"], home);
    await using store = filesStore(join(agent.layout.agent, "chats"));
    const events = await store.read("link:main");
    const messages = events.filter((e) => e.event.type === "message").map((e) => e.n);
    const answered = events.flatMap((e) => e.event.type === "answer" ? e.event.answers : []);
    // Both answered, neither twice: in one turn (the second joined the finished one) or in two.
    assert.deepEqual(answered.sort(), messages.sort(), "each message is answered once");
    assert.equal(messages.length, 2);
  },
);
