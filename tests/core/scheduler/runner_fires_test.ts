import assert from "node:assert/strict";
import { join } from "node:path";
import { layoutOf, loadSettings, sendSocketPath, services } from "../../../core/agent/mod.ts";
import {
  FiringRecords,
  type Job,
  JobStore,
  startRunner,
  writeRunnerFile,
} from "../../../core/scheduler/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { processTree } from "../../support/agent_processes.ts";
import {
  logEntries,
  processesNaming,
  runJson,
  serviceLog,
  type TempHome,
  tempHome,
  waitForLog,
} from "../../support/mod.ts";
import { ownerJob } from "./_support.ts";

type Chat = { earlier: string[]; answer: string };

async function startedAgent(
  home: TempHome,
  modelUrl: string,
): Promise<{ id: string; schedule: string; agentPid: number }> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", modelUrl, "--model", "fake-model"],
    home,
  );
  const started = await runJson<{ services: { agent: { pid?: number } } }>(["agent", "start"], home);
  const schedule = layoutOf(home.paths, await loadSettings(home.paths, id)).collection("schedule");
  return { id, schedule, agentPid: started.services.agent.pid! };
}

/** The agent's runner, once it says it started (its bridge starts it once the agent answers). */
async function runnerOf(home: TempHome, id: string): Promise<number> {
  await waitForLog(serviceLog(home, "bridge", id), (e) => e.msg === "Runner started");
  const runners = (await processesNaming(id)).filter((p) => p.command.includes("scheduler runner"));
  assert.equal(runners.length, 1, "the agent's bridge runs one runner");
  return runners[0]!.pid;
}

/** Resolves once the bridge's log (where its runner writes) says `count` jobs were fired. */
function fired(home: TempHome, id: string, count = 1) {
  return waitForLog(serviceLog(home, "bridge", id), (e) => e.msg === "Job fired", count);
}

/** A job due already (kept while the runner was down, within the catch-up window). */
function dueJob(id: string, text: string, more: Partial<Job> = {}): Job {
  const now = new Date().toISOString();
  return ownerJob({ kind: "at", at: now }, now, { to: id, text, ...more });
}

Deno.test("lnk agent schedule add: the runner of the agent's bridge fires it through its door, and the next lnk agent chat prints the answer first (SCH-1, SCH-3, PRC-5)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id } = await startedAgent(home, model.url);
  try {
    await runnerOf(home, id);
    model.reply("Time to stretch.");
    const firing = fired(home, id);
    const added = await runJson<{ job: Job }>([
      "agent",
      "schedule",
      "add",
      "--in",
      "1s",
      "Remind me to stretch",
    ], home);
    assert.deepEqual([added.job.set_by, added.job.from, added.job.thread, added.job.reply], [
      "owner",
      undefined,
      "link:main",
      { to: "way-in", connection: "link", thread: "link:main" },
    ]);
    await firing;
    assert.equal(model.requests.length, 1);
    model.reply("You are welcome.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "thanks"], home);
    assert.deepEqual([chat.earlier, chat.answer], [["Time to stretch."], "You are welcome."]);
    const listed = await runJson<{ jobs: unknown[] }>(["agent", "schedule", "list", "--json"], home);
    assert.deepEqual(listed.jobs, [], "a one-shot job is gone once delivered");
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of the runner mid-answer: the runner its bridge starts again asks with the same request, the harness joins the first turn, and the answer is held once", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, schedule } = await startedAgent(home, model.url);
  try {
    const slow = model.reply("Done at last.", { hold: true });
    const runner = await runnerOf(home, id);
    const job = dueJob(id, "a long one");
    await new JobStore(schedule).add(job);
    await slow.taken;
    const again = waitForLog(serviceLog(home, "bridge", id), (e) => e.msg === "Job firing resumed");
    Deno.kill(runner, "SIGKILL");
    await again;
    const firing = fired(home, id);
    slow.release();
    await firing;
    assert.equal(model.requests.length, 1, "the model was asked twice");
    const [record] = await new FiringRecords(schedule).of(job.id);
    assert.deepEqual([record?.state, record?.answer], ["delivered", "Done at last."]);
    model.reply("Ok.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "and?"], home);
    assert.deepEqual(chat.earlier, ["Done at last."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("a runner killed once the answer was kept delivers it when started again, never asking again; one killed before the message was sent asks once", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, schedule } = await startedAgent(home, model.url);
  try {
    const records = new FiringRecords(schedule);
    // What a runner killed at each step leaves: its firing kept as answered, or as taken.
    const answered = dueJob(id, "answered before the kill");
    const taken = dueJob(id, "taken before the kill");
    const due = (job: Job) => Date.parse(job.when.kind === "at" ? job.when.at : job.created);
    await records.move((await records.take(answered, due(answered), Date.now()))!, {
      state: "answered",
      answer: "Kept answer.",
    });
    await records.take(taken, due(taken), Date.now());
    model.reply("Fresh answer.");
    const runner = await runnerOf(home, id);
    const both = fired(home, id, 2);
    Deno.kill(runner, "SIGKILL");
    await new JobStore(schedule).add(answered);
    await new JobStore(schedule).add(taken);
    await both;
    assert.deepEqual(model.requests.length, 1, "the kept answer was asked for again");
    assert.deepEqual((await records.all()).records.map((r) => [r.job.text, r.state, r.answer]).sort(), [
      ["answered before the kill", "delivered", "Kept answer."],
      ["taken before the kill", "delivered", "Fresh answer."],
    ]);
    model.reply("Hi.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "hello"], home);
    assert.deepEqual(chat.earlier.sort(), ["Fresh answer.", "Kept answer."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

/** Resolves once the job's firing is delivered, waiting on the folder's changes. */
async function delivered(records: FiringRecords, jobId: string): Promise<void> {
  await Deno.mkdir(records.dir, { recursive: true });
  using watcher = Deno.watchFs(records.dir);
  const events = watcher[Symbol.asyncIterator]();
  while (!(await records.of(jobId)).some((r) => r.state === "delivered")) await events.next();
}

Deno.test("two runners on one agent fire its job once; the other takes the firing on when the one firing is killed mid-answer (SCH-6)", async () => {
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, schedule } = await startedAgent(home, model.url);
  try {
    const own = await runnerOf(home, id);
    // A second runner on the same agent, as a restart overlapping the old would be.
    const file = join(home.path, "second-runner.json");
    await writeRunnerFile(file, { zone: "UTC", agents: [{ id, way_in: sendSocketPath(home.paths, id) }] });
    await using second = await startRunner("UTC", { file });
    const slow = model.reply("Once.", { hold: true });
    const job = dueJob(id, "only once");
    const records = new FiringRecords(schedule);
    await new JobStore(schedule).add(job);
    await slow.taken;
    // The bridge's runner is killed, whether it took the firing or waits on the job's lock: either way
    // the other (or the one the bridge starts again) goes on from the record, and it fires once.
    const taker = (await records.of(job.id))[0];
    assert.equal(taker?.state, "taken");
    Deno.kill(own, "SIGKILL");
    slow.release();
    await delivered(records, job.id);
    assert.equal(model.requests.length, 1);
    const [record] = await records.of(job.id);
    assert.deepEqual([record?.state, record?.answer], ["delivered", "Once."]);
    await second.stop();
    model.reply("Hi.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "hello"], home);
    assert.deepEqual(chat.earlier, ["Once."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of the harness mid-answer: the runner asks again with the same request through the door, which wakes a new harness, and the one answer is held once", async () => {
  await using model = await serveFakeModel({ defaultText: "Answered after the crash." });
  await using home = await tempHome();
  const { id, schedule, agentPid } = await startedAgent(home, model.url);
  try {
    const held = model.reply("never sent", { hold: true });
    const job = dueJob(id, "a long one");
    await new JobStore(schedule).add(job);
    await held.taken;
    const harness = (await processTree(agentPid))
      .filter((p) => / harness serve /.test(` ${p.command} `) || / sandbox relay .* harness /.test(p.command))
      .at(-1);
    assert.ok(harness, "the harness runs in the sandbox");
    const firing = fired(home, id);
    Deno.kill(harness.pid, "SIGKILL");
    held.release();
    await firing;
    const retried = await logEntries(
      serviceLog(home, "bridge", id),
      (e) => e.msg === "Cannot fire a job through the agent's door: it is tried again",
    );
    assert.ok(retried.length >= 1, "the lost answer was never retried");
    const records = await new FiringRecords(schedule).all();
    assert.deepEqual(records.records.map((r) => [r.job.id, r.state, r.answer]), [
      [job.id, "delivered", "Answered after the crash."],
    ]);
    model.reply("Ok.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "and?"], home);
    assert.deepEqual(chat.earlier, ["Answered after the crash."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of the agent's bridge mid-answer, and after the way in held the answer but before the firing said so: started again, the job fires once and its answer is held once", async () => {
  await using model = await serveFakeModel({ defaultText: "Answered once." });
  await using home = await tempHome();
  const { id, schedule } = await startedAgent(home, model.url);
  const records = new FiringRecords(schedule);
  try {
    const held = model.reply("Answered once.", { hold: true });
    await runnerOf(home, id);
    const job = dueJob(id, "a long one");
    await new JobStore(schedule).add(job);
    await held.taken;
    type Status = { services: { bridge: { pid?: number } } };
    const bridge = (await runJson<Status>(["agent", "status"], home)).services.bridge.pid!;
    Deno.kill(bridge, "SIGKILL");
    assert.equal(await services.waitForExit(bridge, 10_000), true);
    held.release();
    assert.deepEqual((await records.of(job.id)).map((r) => r.state), ["taken"]);
    // Started again, as a person or the machine's service manager would: a runner goes on from the
    // record (the new one, or the old one still finishing the firing it holds the job's lock for).
    await runJson(["agent", "start"], home);
    await delivered(records, job.id);
    const [record] = await records.of(job.id);
    assert.deepEqual([record?.state, record?.answer], ["delivered", "Answered once."]);

    // Killed once the way in held the answer and before the firing was marked delivered: what that
    // leaves is the job still kept and its firing answered. Started again, it sends on the way in
    // with the same id, which holds it no second time.
    await runJson(["agent", "stop"], home);
    await new JobStore(schedule).add(job);
    await records.move(record!, { state: "answered" });
    await runJson(["agent", "start"], home);
    await delivered(records, job.id);
    model.reply("Ok.");
    const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "and?"], home);
    assert.deepEqual(chat.earlier, ["Answered once."]);
    const asked = model.requests.filter((r) =>
      JSON.stringify((r.body as { messages: unknown[] }).messages.at(-1)).includes("a long one")
    );
    assert.ok(asked.length <= 2, "asked once, and once more only where the kill cut the first ask off");
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
