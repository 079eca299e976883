import assert from "node:assert/strict";
import { joinPath } from "../../../../core/base/mod.ts";
import type { Job } from "../../../../core/scheduler/mod.ts";
import { parsePrincipal } from "../../../../core/spec/mod.ts";
import { type SchedulerFixture, schedulerFixture } from "../../../support/tool_proxy.ts";

interface Called {
  text: string;
  isError: boolean;
}

/** Calls one tool as Link Harness does, with the conversation, hops and tools in `_meta`. */
async function call(
  f: SchedulerFixture,
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> = { "link.local/thread": "telegram:42", "link.local/hops": 0 },
): Promise<Called> {
  const client = await f.client(f.proxy.newSecret());
  const result = await client.callTool({ name, arguments: args, _meta: meta });
  const content = result.content as { type: string; text: string }[];
  return { text: content.map((c) => c.text).join(""), isError: result.isError === true };
}

async function onlyJob(f: SchedulerFixture): Promise<Job> {
  const { jobs, broken } = await f.jobs.list();
  assert.deepEqual(broken, []);
  assert.equal(jobs.length, 1);
  return jobs[0]!;
}

async function writeTeam(f: SchedulerFixture, team: string, members: [string, string][]): Promise<void> {
  await Deno.mkdir(f.paths.teams, { recursive: true });
  const lines = members.map(([id, name]) =>
    `[[member]]\nid = "${id}"\nname = "${name}"\npurpose = "helps"\n`
  );
  await Deno.writeTextFile(
    joinPath(f.paths.teams, `${team}.toml`),
    `owner = "o"\nfolder = "${f.home}/Link/Teams/${team}"\n${lines.join("")}`,
  );
}

Deno.test("schedule keeps a job from the agent itself, in the calling conversation, with the call's hops", async () => {
  await using f = await schedulerFixture();
  const r = await call(f, "schedule", { message: "water the plants", in: "10m" }, {
    "link.local/thread": "telegram:42",
    "link.local/hops": 3,
  });
  const job = await onlyJob(f);
  assert.equal(r.isError, false, r.text);
  assert.equal(r.text, `Scheduled ${job.id}: at 2026-12-02T09:10:00.000Z, next due 2026-12-02T09:10:00.000Z`);
  assert.deepEqual(job, {
    v: 1,
    id: job.id,
    kind: "schedule",
    set_by: "agent",
    created: "2026-12-02T09:00:00.000Z",
    when: { kind: "at", at: "2026-12-02T09:10:00.000Z" },
    to: "a1",
    thread: "telegram:42",
    text: "water the plants",
    from: "agent:a1",
    hops: 3,
    reply: { to: "way-in", connection: "telegram", thread: "telegram:42" },
  });
});

Deno.test("schedule takes cron in the agent's zone by default, and an ISO time with its offset", async () => {
  await using f = await schedulerFixture({ zone: "America/New_York" });
  const r = await call(f, "schedule", { message: "standup", cron: "30 8 * * 1-5" });
  assert.equal(r.isError, false, r.text);
  const job = await onlyJob(f);
  assert.deepEqual(job.when, { kind: "cron", cron: "30 8 * * 1-5", zone: "America/New_York" });
  // 2026-12-02 is a Wednesday; 8:30 in New York is 13:30 UTC.
  assert.match(r.text, /next due 2026-12-02T13:30:00\.000Z$/);
  await f.jobs.remove(job.id);
  const at = await call(f, "schedule", { message: "x", at: "2026-12-24T18:00:00+01:00" }, {
    "link.local/thread": "link:main",
  });
  assert.equal(at.isError, false, at.text);
  assert.deepEqual((await onlyJob(f)).reply, { to: "way-in", connection: "link", thread: "link:main" });
});

Deno.test("schedule's wrong arguments are errors the model reads, and nothing is kept", async () => {
  await using f = await schedulerFixture();
  const cases: [Record<string, unknown>, string][] = [
    [
      { message: "x" },
      'Cannot schedule: say when with exactly one of at, in or cron, not 0\nSuch as in: "10m", at: "2026-12-24T18:00:00+01:00" or cron: "30 8 * * 1-5"',
    ],
    [
      { message: "x", in: "10m", cron: "* * * * *" },
      'Cannot schedule: say when with exactly one of at, in or cron, not 2\nSuch as in: "10m", at: "2026-12-24T18:00:00+01:00" or cron: "30 8 * * 1-5"',
    ],
    [
      { message: "x", in: "soon" },
      'Cannot schedule in "soon": it is not a delay\nGive a number and a unit, such as in: "10m" (30s, 2h, 1d and 1h30m are delays too)',
    ],
    [
      { message: "x", at: "2026-12-02T10:00:00" },
      'Cannot schedule at "2026-12-02T10:00:00": it is not an ISO 8601 time with its offset\nGive a time with its offset, such as at: "2026-12-24T18:00:00+01:00" or at: "2026-12-24T17:00:00Z"',
    ],
    [
      { message: "x", at: "2026-12-01T10:00:00Z" },
      "Cannot schedule at 2026-12-01T10:00:00.000Z: that time has passed\nGive a time in the future, or a delay such as 10m",
    ],
    [
      { message: "x", cron: "0 9 * * *", zone: "Mars/Olympus" },
      'Cannot schedule in time zone "Mars/Olympus": there is no such zone\nGive an IANA time zone such as Europe/Berlin or America/New_York',
    ],
  ];
  for (const [args, text] of cases) {
    assert.deepEqual(await call(f, "schedule", args), { text, isError: true }, JSON.stringify(args));
  }
  const cron = await call(f, "schedule", { message: "x", cron: "every day" });
  assert.equal(cron.isError, true);
  assert.match(cron.text, /^Cannot read the cron expression "every day": /);
  // The SDK checks the schema first: a wrong type is said, naming the tool.
  const typed = await call(f, "schedule", { message: 42, in: "1m" });
  assert.equal(typed.isError, true);
  assert.match(typed.text, /Invalid arguments for tool schedule/);
  // A call whose harness did not say the conversation.
  const noThread = await call(f, "schedule", { message: "x", in: "1m" }, {});
  assert.equal(noThread.isError, true);
  assert.match(noThread.text, /does not say the conversation/);
  assert.deepEqual((await f.jobs.list()).jobs, []);
});

Deno.test("list_jobs and cancel_job see the agent's jobs; an owner's job is not the agent's to cancel", async () => {
  await using f = await schedulerFixture();
  assert.deepEqual(await call(f, "list_jobs", {}), { text: "You have no jobs.", isError: false });
  await call(f, "schedule", { message: "mine", in: "1h" });
  const mine = await onlyJob(f);
  const owners: Job = {
    ...mine,
    id: "j-00000000000000000000",
    set_by: "owner",
    from: undefined,
    text: "owner's",
  };
  delete owners.from;
  await f.jobs.add(owners);
  const listed = JSON.parse((await call(f, "list_jobs", {})).text);
  assert.deepEqual(
    listed.map((j: { id: string; set_by: string }) => [j.id, j.set_by]).sort(),
    [
      [mine.id, "you"],
      [owners.id, "your owner"],
    ].sort(),
  );
  assert.deepEqual(await call(f, "cancel_job", { id: owners.id }), {
    text: `Cannot cancel job ${owners.id}: your owner set it, so only they can remove it\n` +
      "Ask your owner to remove it, if it should go",
    isError: true,
  });
  assert.deepEqual(await call(f, "cancel_job", { id: "j-zzzzzzzzzzzzzzzzzzzz" }), {
    text: 'Cannot cancel job "j-zzzzzzzzzzzzzzzzzzzz": you have no job with that id\n' +
      "Call list_jobs to see your jobs and their ids",
    isError: true,
  });
  assert.deepEqual(await call(f, "cancel_job", { id: mine.id }), {
    text: `Cancelled ${mine.id}.`,
    isError: false,
  });
  assert.deepEqual((await f.jobs.list()).jobs.map((j) => j.id), [owners.id]);
});

Deno.test("start_subagent narrows to the parent's tools, never widening (SCH-7), and answers the parent as its subagent", async () => {
  await using f = await schedulerFixture();
  const r = await call(f, "start_subagent", { task: "sum the invoices", tools: ["a", "c"] }, {
    "link.local/thread": "slack:D1",
    "link.local/hops": 2,
    "link.local/tools": ["a", "b"],
  });
  assert.equal(r.isError, false, r.text);
  const job = await onlyJob(f);
  assert.equal(
    r.text,
    `Started subagent ${job.id}; its answer comes back to this conversation. Its tools: a. ` +
      "Left out, as this conversation does not have them: c.",
  );
  assert.deepEqual(job, {
    v: 1,
    id: job.id,
    kind: "subagent",
    set_by: "agent",
    created: "2026-12-02T09:00:00.000Z",
    when: { kind: "at", at: "2026-12-02T09:00:00.000Z" },
    to: "a1",
    thread: `sub:${job.id}`,
    text: "sum the invoices",
    from: "agent:a1",
    hops: 3,
    tools: ["a"],
    reply: { to: "agent", agent: "a1", thread: "slack:D1", from: `subagent:${job.id}` },
  });
  assert.deepEqual(parsePrincipal(`subagent:${job.id}`), { kind: "subagent", id: job.id });
  await f.jobs.remove(job.id);
  // Without a list it has the parent's tools, as the parent has them.
  await call(f, "start_subagent", { task: "t" }, {
    "link.local/thread": "slack:D1",
    "link.local/tools": ["a", "b"],
  });
  assert.deepEqual((await onlyJob(f)).tools, ["a", "b"]);
});

Deno.test("start_subagent with a list is refused for a harness that cannot narrow (SCH-8); without one it has all", async () => {
  await using f = await schedulerFixture({ narrows: false });
  assert.deepEqual(await call(f, "start_subagent", { task: "t", tools: ["a"] }), {
    text:
      "Cannot start a subagent with some of your tools: this agent's harness cannot narrow a conversation's tools\n" +
      "Start it without tools, and it has all of yours",
    isError: true,
  });
  assert.deepEqual((await f.jobs.list()).jobs, []);
  const r = await call(f, "start_subagent", { task: "t" });
  assert.equal(r.isError, false, r.text);
  assert.equal((await onlyJob(f)).tools, undefined);
});

Deno.test("send writes a job to the teammate, its answer back to the calling conversation; the team read afresh", async () => {
  await using f = await schedulerFixture();
  const none = await call(f, "send", { to: "bo", text: "hi" });
  assert.deepEqual(none, {
    text:
      'Cannot send to "bo": no teammate of yours is by that name\nYour teammates: none: you are on no team',
    isError: true,
  });
  await writeTeam(f, "crew", [["a1", "ann"], ["b2", "bo"], ["c3", "cy"]]);
  const r = await call(f, "send", { to: "bo", text: "can you check the draft?" }, {
    "link.local/thread": "telegram:42",
    "link.local/hops": 4,
  });
  assert.deepEqual(r, {
    text: "Sent to bo (crew); the answer comes back to this conversation.",
    isError: false,
  });
  const job = await onlyJob(f);
  assert.deepEqual(job, {
    v: 1,
    id: job.id,
    kind: "send",
    set_by: "agent",
    created: "2026-12-02T09:00:00.000Z",
    when: { kind: "at", at: "2026-12-02T09:00:00.000Z" },
    to: "b2",
    thread: "agent:a1",
    text: "can you check the draft?",
    from: "agent:a1",
    hops: 5,
    reply: { to: "agent", agent: "a1", thread: "telegram:42", from: "agent:b2" },
  });
  await f.jobs.remove(job.id);
  const all = await call(f, "send", { team: "crew", text: "standup" });
  assert.equal(all.text, "Sent to bo (crew), cy (crew); the answer comes back to this conversation.");
  const jobs = (await f.jobs.list()).jobs;
  assert.deepEqual(jobs.map((j) => [j.to, j.thread]).sort(), [["b2", "team:crew"], ["c3", "team:crew"]]);
  // Taken off the team: the next send is refused at once.
  await writeTeam(f, "crew", [["a1", "ann"], ["c3", "cy"]]);
  assert.equal((await call(f, "send", { to: "bo", text: "again" })).isError, true);
});

Deno.test("send refuses past the hop cap and the daily cap, saying so to the model (TEAM-8)", async () => {
  await using f = await schedulerFixture({ hops: 8, perDay: 3 });
  await writeTeam(f, "crew", [["a1", "ann"], ["b2", "bo"]]);
  const meta = (hops: number) => ({ "link.local/thread": "agent:b2", "link.local/hops": hops });
  assert.equal((await call(f, "send", { to: "bo", text: "8th" }, meta(7))).isError, false);
  assert.deepEqual(await call(f, "send", { to: "bo", text: "9th" }, meta(8)), {
    text:
      "Cannot send the message: this conversation's message has already travelled 8 hops between agents, " +
      "and the cap is 8 ([tool.scheduler] hops)\nAnswer in this conversation instead; the chain of messages stops here",
    isError: true,
  });
  // Every message started counts: a send, a schedule, a subagent; cancelling gives none back.
  await call(f, "schedule", { message: "m", in: "1m" });
  const sub = await call(f, "start_subagent", { task: "t" });
  assert.equal(sub.isError, false, sub.text);
  for (const j of (await f.jobs.list()).jobs) await f.jobs.remove(j.id);
  const over = await call(f, "send", { to: "bo", text: "4th" }, meta(0));
  assert.deepEqual(over, {
    text:
      "Cannot start another message: this agent has started 3 of its 3 messages for today (2026-12-02), " +
      "the daily cap ([tool.scheduler] per_day)\nWait for tomorrow, or ask the owner to raise per_day in the agent's spec",
    isError: true,
  });
  assert.deepEqual((await f.jobs.list()).jobs, []);
  // The next day in the agent's zone (Berlin: 23:00 UTC is midnight) the count starts again.
  f.clock.advance(14 * 3_600_000);
  assert.equal((await call(f, "send", { to: "bo", text: "new day" }, meta(0))).isError, false);
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(joinPath(f.schedule, "started.json"))),
    { v: 1, day: "2026-12-03", count: 1 },
  );
});
