import assert from "node:assert/strict";
import { join } from "node:path";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { askSharedBridge } from "../../../core/agent/sharing/mod.ts";
import { FiringRecords, JobStore } from "../../../core/scheduler/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runJson } from "../../support/mod.ts";
import { bridgesLog, setRun, sharedHome, waitForLog } from "../../support/shared_bridge.ts";
import { ownerJob } from "./_support.ts";

Deno.test("on the shared bridge, one runner fires the jobs of two agents in one zone, each through its own door and way in (SCH-6, PRC-6)", async () => {
  await using model = await serveFakeModel();
  await using home = await sharedHome();
  const agents: { id: string; name: string; schedule: string }[] = [];
  for (const name of ["alpha", "beta"]) {
    const created = await runJson<{ id: string; folders: { config: string } }>(
      ["agent", "create", name, "--model-url", model.url, "--model", "fake-model"],
      home,
    );
    await setRun(join(created.folders.config, "spec.toml"), { zone: "Europe/Paris" });
    const schedule = layoutOf(home.paths, await loadSettings(home.paths, created.id)).collection("schedule");
    agents.push({ id: created.id, name, schedule });
  }
  try {
    for (const { name } of agents) await runJson(["agent", "start", "--agent", name], home);
    await waitForLog(bridgesLog(home), (e) => e.msg === "Runner started");
    const runners = (await askSharedBridge(home.paths))!.runners;
    assert.deepEqual(runners.map((r) => r.zone), ["Europe/Paris"]);
    model.reply("First.");
    model.reply("Second.");
    const firing = waitForLog(bridgesLog(home), (e) => e.msg === "Job fired", 2);
    const now = new Date().toISOString();
    const jobs = agents.map((a) =>
      ownerJob({ kind: "at", at: now }, now, { to: a.id, text: `for ${a.name}` })
    );
    for (const [i, a] of agents.entries()) await new JobStore(a.schedule).add(jobs[i]!);
    const fired = await firing;
    assert.deepEqual(fired.map((e) => e.agent).sort(), agents.map((a) => a.id).sort());
    assert.equal(model.requests.length, 2);
    const answers: string[] = [];
    for (const [i, a] of agents.entries()) {
      const [record] = await new FiringRecords(a.schedule).of(jobs[i]!.id);
      assert.equal(record?.state, "delivered");
      answers.push(record!.answer!);
      model.reply("Ok.");
      const chat = await runJson<{ earlier: string[] }>(
        ["agent", "chat", "send", "--json", "--agent", a.name, "hi"],
        home,
      );
      assert.deepEqual(chat.earlier, [record!.answer]);
    }
    assert.deepEqual(answers.sort(), ["First.", "Second."]);
    assert.deepEqual((await askSharedBridge(home.paths))!.runners, runners, "the runner was never restarted");
  } finally {
    for (const { name } of agents) await runJson(["agent", "stop", "--agent", name], home);
  }
});

Deno.test('on the shared bridge, an agent with wake = "address" is on no runner: its zone gets none (SCH-5)', async () => {
  await using home = await sharedHome();
  const zones: Record<string, string> = { alpha: "Europe/Paris", beta: "Asia/Tokyo" };
  for (const name of ["alpha", "beta"]) {
    const created = await runJson<{ folders: { config: string } }>([
      "agent",
      "create",
      name,
      "--harness",
      "mini",
    ], home);
    const spec = join(created.folders.config, "spec.toml");
    await setRun(spec, { zone: zones[name] });
    if (name === "beta") {
      await Deno.writeTextFile(
        spec,
        (await Deno.readTextFile(spec)).replace('# wake = "runner"', 'wake = "address"'),
      );
    }
  }
  try {
    for (const name of ["alpha", "beta"]) await runJson(["agent", "start", "--agent", name], home);
    await waitForLog(bridgesLog(home), (e) => e.msg === "Runner started");
    const state = (await askSharedBridge(home.paths))!;
    assert.deepEqual([state.agents.map((a) => a.zone).sort(), state.runners.map((r) => r.zone)], [
      ["Asia/Tokyo", "Europe/Paris"],
      ["Europe/Paris"],
    ]);
  } finally {
    for (const name of ["alpha", "beta"]) await runJson(["agent", "stop", "--agent", name], home);
  }
});
