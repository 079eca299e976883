import assert from "node:assert/strict";
import { RunnerRoster } from "../../../core/scheduler/mod.ts";

const a = { id: "agenta1", way_in: "/a/send.sock" };
const b = { id: "agentb1", way_in: "/b/send.sock" };

Deno.test("RunnerRoster.update() takes on new agents and lets go of those taken off with nothing firing", () => {
  const roster = new RunnerRoster();
  assert.deepEqual(roster.update([a, b]), { added: ["agenta1", "agentb1"], removed: [], leaving: [] });
  assert.deepEqual(roster.update([b]), { added: [], removed: ["agenta1"], leaving: [] });
  assert.deepEqual(roster.agents, [b]);
  assert.equal(roster.begin("agenta1"), undefined);
});

Deno.test("RunnerRoster: an agent taken off while a firing runs fires nothing new and goes once the firing ends (PRC-7)", async () => {
  const roster = new RunnerRoster();
  roster.update([a, b]);
  const end = roster.begin("agenta1")!;
  assert.deepEqual(roster.update([b]), { added: [], removed: [], leaving: ["agenta1"] });
  assert.deepEqual([roster.agents, roster.leaving, roster.inFlight], [[b], ["agenta1"], 1]);
  // Nothing new fires for an agent taken off: no job is fired twice.
  assert.equal(roster.begin("agenta1"), undefined);
  let settled = false;
  const settling = roster.settled().then(() => settled = true);
  await Promise.resolve();
  assert.equal(settled, false);
  end();
  end(); // a second end() counts once
  await settling;
  assert.deepEqual([roster.agents, roster.leaving, roster.inFlight], [[b], [], 0]);
});

Deno.test("RunnerRoster: an agent put back while leaving keeps its firing under way and is not added twice", () => {
  const roster = new RunnerRoster();
  roster.update([a]);
  const end = roster.begin("agenta1")!;
  roster.update([]);
  assert.deepEqual(roster.update([a]), { added: [], removed: [], leaving: [] });
  assert.deepEqual([roster.agents, roster.leaving, roster.inFlight], [[a], [], 1]);
  end();
  assert.deepEqual([roster.agents, roster.inFlight], [[a], 0]);
});
