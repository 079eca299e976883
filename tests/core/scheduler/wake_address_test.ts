import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { JobStore } from "../../../core/scheduler/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { processesNaming, runJson, serviceLog, tempHome, waitForLog } from "../../support/mod.ts";
import { ownerJob } from "./_support.ts";

type Chat = { earlier: string[]; answer: string };

Deno.test('wake = "address": no runner sits on the agent; schedule next says when its job is due, and schedule run fires what is due once, through its door and way in (SCH-5)', async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const settings = await loadSettings(home.paths, id);
  const layout = layoutOf(home.paths, settings);
  const spec = await Deno.readTextFile(layout.specToml);
  await Deno.writeTextFile(layout.specToml, spec.replace('# wake = "runner"', 'wake = "address"'));
  await runJson(["agent", "start"], home);
  try {
    await waitForLog(
      serviceLog(home, "bridge", id),
      (e) => e.msg?.startsWith("No scheduler runner") === true,
    );
    const runners = (await processesNaming(id)).filter((p) => p.command.includes("scheduler runner"));
    assert.deepEqual(runners, [], "a runner sits on the agent");
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await runJson(["agent", "schedule", "add", "--at", later, "later on"], home);
    const before = await runJson<{ wake: string; next: string | null }>(["agent", "schedule", "next"], home);
    assert.deepEqual(before, { agent: "work", wake: "address", next: new Date(later).toISOString() });

    // One due now, as the machine finds at the time it was told: fired once by schedule run.
    const now = new Date().toISOString();
    const job = ownerJob({ kind: "at", at: now }, now, { to: id, text: "now, please" });
    await new JobStore(layout.collection("schedule")).add(job);
    model.reply("Done now.");
    const ran = await runJson<{ fired: number; next: string | null }>(["agent", "schedule", "run"], home);
    assert.deepEqual(ran, { agent: "work", fired: 1, next: new Date(later).toISOString() });
    const again = await runJson<{ fired: number }>(["agent", "schedule", "run"], home);
    assert.equal(again.fired, 0);
    assert.equal(model.requests.length, 1);
    model.reply("You are welcome.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "thanks"], home);
    assert.deepEqual([chat.earlier, chat.answer], [["Done now."], "You are welcome."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
