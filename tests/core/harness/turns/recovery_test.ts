import assert from "node:assert/strict";
import { join } from "node:path";
import { NOT_MADE, thisHolder, type TurnAgent } from "../../../../core/harness/mod.ts";
import type { ConversationEvent, Lease } from "../../../../core/harness/store/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { FakeClock, settle } from "../../../support/mod.ts";
import { harnessFixture, shape } from "../../../support/harness_fixture.ts";

const AT = Date.UTC(2025, 0, 1);

/** The pid of a process that has ended: a holder of this boot that is provably dead. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

/** Leaves a conversation as a process that died mid-turn would: its events, and its lease. */
async function crashed(agent: TurnAgent, events: ConversationEvent[], lease: Partial<Lease> = {}) {
  for (const [i, event] of events.entries()) await agent.store.append("link:main", i + 1, event);
  const holder = { boot: thisHolder().boot, pid: await deadPid(), start: "1" };
  const left = { holder, turn: "t-crashed", renewed_at_ms: agent.clock.now(), ...lease } as Lease;
  await agent.store.leaseTake("link:main", left, { lapseMs: 60_000, nowMs: left.renewed_at_ms });
}

const RUN_CALL = {
  id: "call-1",
  name: "run",
  arguments: JSON.stringify({ command: ["sh", "-c", "echo ran >> runs.txt"] }),
};

Deno.test("a turn that crashed mid tool call is finished at start: the call answered as not made, never run again (TRN-4)", async () => {
  await using model = await serveFakeModel();
  model.reply("The run may not have happened; I will not run it again unasked.");
  await using harness = await harnessFixture(model, {
    agents: [{
      prepare: (agent) =>
        crashed(agent, [
          { type: "message", text: "run it", request: "r1", at: AT },
          { type: "turn", turn: "t-crashed", answers: [1], at: AT },
          { type: "assistant", turn: "t-crashed", text: "", tool_calls: [RUN_CALL], at: AT },
        ]),
    }],
  });
  await harness.server.agents[0]!.settled();
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "run it"],
    [2, "turn", [1]],
    [3, "assistant", "", ["run"]],
    [4, "tool_result", "not made"],
    [5, "answer", "The run may not have happened; I will not run it again unasked.", [1]],
  ]);
  const sent = model.requests[0]!.body as { messages: { role: string; content: string }[] };
  assert.deepEqual(sent.messages.at(-1), { role: "tool", tool_call_id: "call-1", content: NOT_MADE });
  await assert.rejects(Deno.stat(join(harness.dir, "agent0", "Home", "runs.txt")), Deno.errors.NotFound);
  const kept = await harness.agents[0]!.kept.list();
  assert.deepEqual(kept.map((k) => [k.conversation, k.answer, k.requests]), [
    ["link:main", "The run may not have happened; I will not run it again unasked.", ["r1"]],
  ]);
  assert.equal(await harness.agents[0]!.store.leaseRead("link:main"), undefined);
});

Deno.test("a turn that crashed after answering every message only has its lease let go: no second answer (TRN-4)", async () => {
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model, {
    agents: [{
      prepare: (agent) =>
        crashed(agent, [
          { type: "message", text: "hi", request: "r1", at: AT },
          { type: "turn", turn: "t-crashed", answers: [1], at: AT },
          { type: "answer", turn: "t-crashed", text: "Hello.", answers: [1], at: AT },
        ]),
    }],
  });
  await harness.server.agents[0]!.settled();
  assert.equal(await harness.agents[0]!.store.leaseRead("link:main"), undefined);
  assert.equal((await harness.events()).length, 3);
  assert.equal(model.requests.length, 0);
  assert.deepEqual(await harness.agents[0]!.kept.list(), []);
});

Deno.test("a live holder's lease is taken only once unrenewed for the lapse, judged to the ms, whatever the lease says (TRN-2, TRN-3, TRN-7)", async () => {
  await using model = await serveFakeModel();
  model.reply("Finished.");
  const clock = new FakeClock(AT);
  await using harness = await harnessFixture(model, {
    clock,
    agents: [{
      prepare: async (agent) => {
        await agent.store.append("link:main", 1, { type: "message", text: "hi", request: "r1", at: AT });
        const elsewhere = {
          holder: { boot: "another-machine", pid: 1, start: "1" },
          turn: "t",
          renewed_at_ms: AT,
        };
        // A forged lapse in the lease is never read: the agent's settings say 60 s.
        await agent.store.leaseTake("link:main", { ...elsewhere, lapse_ms: 1 } as Lease, {
          lapseMs: 60_000,
          nowMs: AT,
        });
      },
    }],
  });
  await clock.waitForSleepers(1);
  await clock.advance(59_999);
  await settle();
  assert.equal(model.requests.length, 0);
  assert.equal((await harness.agents[0]!.store.leaseRead("link:main"))?.holder.boot, "another-machine");
  await clock.advance(1);
  await harness.server.agents[0]!.settled();
  assert.equal(model.requests.length, 1);
  assert.deepEqual(shape(await harness.events()), [
    [1, "message", "hi"],
    [2, "turn", [1]],
    [3, "answer", "Finished.", [1]],
  ]);
});
