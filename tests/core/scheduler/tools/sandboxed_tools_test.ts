/**
 * Link Scheduler's tools end to end: the fake model calls them inside a real sandboxed Link Harness
 * started by `lnk agent start`, through the harness's MCP client, the sandbox's relay and the
 * bridge's tool proxy, and the jobs are the files the runner reads.
 */
import assert from "node:assert/strict";
import { joinPath } from "../../../../core/base/mod.ts";
import { readKey } from "../../../../core/agent/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { DEFAULT_SPEC_TOML } from "../../../../core/spec/mod.ts";
import { type Job, JobStore } from "../../../../core/scheduler/mod.ts";
import { type FakeModelRequest, serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../../support/mod.ts";
import {
  agentLog,
  createAgent,
  sandboxedTest,
  type TestAgent,
  toolResult,
} from "../../../support/sandboxed_agent.ts";

const SCHEDULER_TOOLS = ["schedule", "list_jobs", "cancel_job", "start_subagent", "send"];

function toolNames(request: FakeModelRequest): string[] {
  const body = request.body as { tools?: { function: { name: string } }[] };
  return (body.tools ?? []).map((t) => t.function.name);
}

function toolsBytes(request: FakeModelRequest): string {
  return JSON.stringify((request.body as { tools?: unknown }).tools);
}

async function jobsOf(agent: TestAgent): Promise<Job[]> {
  const { jobs, broken } = await new JobStore(joinPath(agent.layout.agent, "schedule")).list();
  assert.deepEqual(broken, []);
  return jobs;
}

/**
 * The agent's jobs kept, fired or not: the ones in jobs/ and the job of each firing in fired/. The
 * agent's runner fires a send to bob-1 as soon as it is kept and drops it (bob-1 is no agent here),
 * so a job may be in either place, or in both for a moment.
 */
async function keptJobs(agent: TestAgent): Promise<Job[]> {
  const byId = new Map((await jobsOf(agent)).map((j) => [j.id, j]));
  const fired = joinPath(agent.layout.agent, "schedule", "fired");
  const names = await Array.fromAsync(Deno.readDir(fired)).catch(() => []);
  for (const entry of names.filter((e) => e.name.endsWith(".json"))) {
    const record = JSON.parse(await Deno.readTextFile(joinPath(fired, entry.name))) as { job: Job };
    if (!byId.has(record.job.id)) byId.set(record.job.id, record.job);
  }
  return [...byId.values()];
}

async function writeTeam(home: TempHome, members: [string, string][]): Promise<void> {
  await Deno.mkdir(home.paths.teams, { recursive: true });
  const lines = members.map(([id, name]) =>
    `[[member]]\nid = "${id}"\nname = "${name}"\npurpose = "helps"\n`
  );
  await Deno.writeTextFile(
    joinPath(home.paths.teams, "crew.toml"),
    `owner = "o"\nfolder = "${home.path}/Link/Teams/crew"\n${lines.join("")}`,
  );
}

sandboxedTest(
  "the model's schedule call in a sandboxed Link Harness keeps the job, and the tool list is the same every turn (SCH-1, SCH-9, PRN-2)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await Deno.writeTextFile(
      agent.layout.specToml,
      DEFAULT_SPEC_TOML.replace("[run]\n", '[run]\ntime_zone = "Europe/Berlin"\n'),
    );
    await runJson(["agent", "start"], home);
    model.replyToolCall("schedule", { message: "water the plants", cron: "0 8 * * *" });
    model.reply("I will remind you.");
    const sent = await runCli(["agent", "chat", "send", "remind me every morning"], home);
    assert.equal(sent.code, 0, sent.stderr);
    const first = await model.nextRequest();
    const second = await model.nextRequest();
    assert.deepEqual(toolNames(first).filter((n) => SCHEDULER_TOOLS.includes(n)), SCHEDULER_TOOLS);
    assert.equal(toolsBytes(second), toolsBytes(first));
    const [job, ...more] = await jobsOf(agent);
    assert.deepEqual(more, []);
    assert.match(
      toolResult(second),
      new RegExp(`^Scheduled ${job!.id}: on "0 8 \\* \\* \\*" in Europe/Berlin, next due `),
    );
    assert.deepEqual(job, {
      v: 1,
      id: job!.id,
      kind: "schedule",
      set_by: "agent",
      created: job!.created,
      when: { kind: "cron", cron: "0 8 * * *", zone: "Europe/Berlin" },
      to: agent.id,
      thread: "link:main",
      text: "water the plants",
      from: `agent:${agent.id}`,
      hops: 0,
      reply: { to: "way-in", connection: "link", thread: "link:main" },
    });
    // Wrong arguments are a result the model reads; nothing more is kept.
    model.replyToolCall("schedule", { message: "x", in: "soon" });
    model.reply("Sorry.");
    assert.equal((await runCli(["agent", "chat", "send", "again"], home)).code, 0);
    await model.nextRequest();
    assert.equal(
      toolResult(await model.nextRequest()),
      'Cannot schedule in "soon": it is not a delay\nGive a number and a unit, such as in: "10m" (30s, 2h, 1d and 1h30m are delays too)',
    );
    assert.equal((await jobsOf(agent)).length, 1);
    // The bridge handed the tools over listed: the harness never listed them through the MCP SDK,
    // whose client it loaded once, at the model's first call of one (PRC-13).
    const entries = await agentLog(home, agent.id);
    const said = entries.map((e) => e.msg).filter((m) =>
      typeof m === "string" && m.startsWith("Link's tools")
    );
    assert.deepEqual(said, ["Link's tools' MCP client loaded, at the first call of one"]);
    // The secret is in no log line of the bridge or the harness.
    const logged = JSON.stringify(entries);
    assert.ok(!/_link\/s\/[A-Za-z0-9_-]{20,}/.test(logged), "a log line holds the tool proxy's secret");
    await runJson(["agent", "stop"], home);
  },
);

sandboxedTest(
  "send from a sandboxed Link Harness writes the teammate's job, and the daily cap refuses with the text the model sees (TEAM-5, TEAM-8)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await Deno.writeTextFile(
      agent.layout.specToml,
      DEFAULT_SPEC_TOML.replace("# per_day = 100", "per_day = 1"),
    );
    await writeTeam(home, [[agent.id, "ann"], ["bob-1", "bo"]]);
    await runJson(["agent", "start"], home);
    model.replyToolCall("send", { to: "bo", text: "please review" });
    model.replyToolCall("send", { to: "bo", text: "and again" });
    model.reply("Sent.");
    assert.equal((await runCli(["agent", "chat", "send", "ask bo"], home)).code, 0);
    await model.nextRequest();
    assert.equal(
      toolResult(await model.nextRequest()),
      "Sent to bo (crew); the answer comes back to this conversation.",
    );
    // The day is the agent's, in the machine's zone as its spec names none.
    assert.match(
      toolResult(await model.nextRequest()),
      new RegExp(
        "^Cannot start another message: this agent has started 1 of its 1 messages for today " +
          "\\(\\d{4}-\\d{2}-\\d{2}\\), the daily cap \\(\\[tool\\.scheduler\\] per_day\\)\n" +
          "Wait for tomorrow, or ask the owner to raise per_day in the agent's spec$",
      ),
    );
    const [job, ...more] = await keptJobs(agent);
    assert.deepEqual(more, []);
    assert.deepEqual(job, {
      v: 1,
      id: job!.id,
      kind: "send",
      set_by: "agent",
      created: job!.created,
      when: job!.when,
      to: "bob-1",
      thread: `agent:${agent.id}`,
      text: "please review",
      from: `agent:${agent.id}`,
      hops: 1,
      reply: { to: "agent", agent: agent.id, thread: "link:main", from: "agent:bob-1" },
    });
    await runJson(["agent", "stop"], home);
  },
);

/** Sends one message to the agent's endpoint socket as a teammate's firing does, with Link-From and Link-Hops. */
async function askAsTeammate(
  home: TempHome,
  agent: TestAgent,
  text: string,
  caller: { from: string; hops: number },
): Promise<void> {
  const key = await readKey(home.paths, agent.id);
  if (!key) throw new Error("The agent has no key bound");
  const path = joinPath(home.paths.net(agent.id), "endpoint.sock");
  await using endpoint = await openEndpoint({ path }, {
    agentId: agent.id,
    agentName: agent.name,
    key,
    ...caller,
  });
  const meta = { "link.local/thread": caller.from };
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  await endpoint.call("session/prompt", {
    sessionId: caller.from,
    prompt: [{ type: "text", text }],
    _meta: meta,
  });
}

sandboxedTest(
  "the hops a message came with (Link-Hops) reach send as _meta, one more on the job, and the cap refuses hop 9 (SCH-9, TEAM-8)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await writeTeam(home, [[agent.id, "ann"], ["bob-1", "bo"]]);
    await runJson(["agent", "start"], home);
    model.replyToolCall("send", { to: "bo", text: "back to you" });
    model.reply("Answered.");
    await askAsTeammate(home, agent, "your turn", { from: "agent:bob-1", hops: 3 });
    await model.nextRequest();
    assert.equal(
      toolResult(await model.nextRequest()),
      "Sent to bo (crew); the answer comes back to this conversation.",
    );
    const [job] = await keptJobs(agent);
    assert.deepEqual(
      [job!.to, job!.thread, job!.hops, job!.reply],
      ["bob-1", `agent:${agent.id}`, 4, {
        to: "agent",
        agent: agent.id,
        thread: "agent:bob-1",
        from: "agent:bob-1",
      }],
    );
    model.replyToolCall("send", { to: "bo", text: "and on" });
    model.reply("Stopped.");
    await askAsTeammate(home, agent, "on and on", { from: "agent:bob-1", hops: 8 });
    await model.nextRequest();
    assert.equal(
      toolResult(await model.nextRequest()),
      "Cannot send the message: this conversation's message has already travelled 8 hops between agents, " +
        "and the cap is 8 ([tool.scheduler] hops)\nAnswer in this conversation instead; the chain of messages stops here",
    );
    assert.equal((await keptJobs(agent)).length, 1);
    await runJson(["agent", "stop"], home);
  },
);
