/**
 * Link Memory on an owner's shared harness (PRC-2, MEM-2): two agents of one owner served by one
 * sandboxed Link Harness, each calling memory's tools through its own tool proxy; the owner's one
 * memory service keeps each agent's notes in that agent's own index, so neither finds the other's.
 */
import assert from "node:assert/strict";
import { loadAgentConfig, loadSettings } from "../../../core/agent/mod.ts";
import { AgentTools, MemorySeat } from "../../../core/agent_bridge/mod.ts";
import { newAgentKey } from "../../../core/base/mod.ts";
import { askMemoryService } from "../../../core/memory/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runJson, tempHome } from "../../support/mod.ts";
import { askEndpoint, sandboxedTest, toolResult } from "../../support/sandboxed_agent.ts";
import { type Dialled, hostedAgent, launch, REAL_KEY, sharingHome } from "../../support/shared_harness.ts";

sandboxedTest(
  "memory on the shared harness: each agent's note is in its own memory, found by it and not by its sibling (MEM-2)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    await sharingHome(home);
    const [a, b] = [await hostedAgent(home, "main"), await hostedAgent(home, "ada")];
    await using stack = new AsyncDisposableStack();
    const seats = [];
    for (const agent of [a, b]) {
      await runJson(["agent", "memory", "on", "--agent", agent.name, "--json"], home);
      const settings = await loadSettings(home.paths, agent.id);
      const { spec } = await loadAgentConfig(home.paths, settings);
      const memory = stack.use(
        new MemorySeat(home.paths, settings, { spec, key: newAgentKey(), env: home.env }),
      );
      const seat = new AgentTools(home.paths, settings, spec, { memory });
      stack.use(await seat.serve());
      seats.push({ seat, memory });
    }
    const dialled: Dialled = [];
    const ha = stack.use(await launch(home, a, model, dialled, seats[0]!.seat));
    const hb = stack.use(await launch(home, b, model, dialled, seats[1]!.seat));
    assert.equal(hb.pid, ha.pid);
    for (const { memory } of seats) memory.session.wake();

    model.replyToolCall("write_note", { name: "secret", text: "The vault code is 4711" });
    model.reply("Noted.");
    assert.equal(await askEndpoint(home, a, "remember the vault code"), "Noted.");
    await model.nextRequest();
    assert.match(toolResult(await model.nextRequest()), /^Wrote note "secret"/);

    model.replyToolCall("search", { query: "vault code 4711" });
    model.reply("Nothing.");
    assert.equal(await askEndpoint(home, b, "what is the vault code"), "Nothing.");
    await model.nextRequest();
    assert.match(toolResult(await model.nextRequest()), /^Nothing in your memory matches\./);

    model.replyToolCall("search", { query: "vault code 4711" });
    model.reply("4711.");
    assert.equal(await askEndpoint(home, a, "what is the vault code"), "4711.");
    await model.nextRequest();
    assert.match(
      toolResult(await model.nextRequest()),
      /^1\. note "secret", line 1 \(by words\):\nThe vault code is 4711/,
    );

    const settings = await loadSettings(home.paths, a.id);
    const state = await askMemoryService(home.paths, settings.owner, "/state") as { agents: string[] };
    assert.deepEqual(state.agents.sort(), [a.id, b.id].sort(), "one service for the owner's two agents");
  },
);
