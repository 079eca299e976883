import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../core/agent/mod.ts";
import type { Job } from "../../core/scheduler/mod.ts";
import { runCli, runJson, type TempHome, tempHome } from "../support/mod.ts";

async function agentWithSchedule(home: TempHome): Promise<string> {
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  home.env.set("TZ", "Europe/Berlin");
  return layoutOf(home.paths, await loadSettings(home.paths, id)).collection("schedule");
}

Deno.test("lnk agent schedule add, list and remove: the owner's jobs, next due in their zone, a broken file named", async () => {
  await using home = await tempHome();
  const schedule = await agentWithSchedule(home);
  const at = await runJson<{ job: Job }>(
    [
      "agent",
      "schedule",
      "add",
      "--at",
      "2030-01-01T08:00:00Z",
      "--thread",
      "telegram:42",
      "Happy",
      "new",
      "year",
    ],
    home,
  );
  assert.deepEqual({ ...at.job, id: "", created: "" }, {
    v: 1,
    id: "",
    kind: "schedule",
    set_by: "owner",
    created: "",
    when: { kind: "at", at: "2030-01-01T08:00:00.000Z" },
    to: at.job.to,
    thread: "telegram:42",
    text: "Happy new year",
    hops: 0,
    reply: { to: "way-in", connection: "telegram", thread: "telegram:42" },
  });
  const cron = await runCli(
    [
      "agent",
      "schedule",
      "add",
      "--cron",
      "30 8 * * 1-5",
      "--zone",
      "America/New_York",
      "Summarise my inbox",
    ],
    home,
  );
  assert.equal(cron.code, 0, cron.stderr);
  const cronId = /^Scheduled (j-[a-z0-9]{20}) for agent "main" on link:main\n$/.exec(cron.stdout)?.[1];
  assert.ok(cronId, cron.stdout);
  await Deno.writeTextFile(`${schedule}/jobs/j-zzzzzzzzzzzzzzzzzzzz.json`, "{ not json");
  const listed = await runCli(["agent", "schedule", "list"], home);
  const lines = listed.stdout.split("\n");
  assert.deepEqual(lines.slice(0, 2), [
    `${at.job.id}  at 2030-01-01T08:00:00.000Z  next 2030-01-01 09:00 Europe/Berlin  schedule set by owner  telegram:42`,
    "  Happy new year",
  ]);
  assert.match(
    lines[2]!,
    new RegExp(
      `^${cronId}  cron "30 8 \\* \\* 1-5" in America/New_York  next \\d{4}-\\d\\d-\\d\\d 08:30 America/New_York  schedule set by owner  link:main$`,
    ),
  );
  assert.deepEqual(lines.slice(3), ["  Summarise my inbox", ""]);
  assert.match(listed.stderr, /^Not a job: .*j-zzzzzzzzzzzzzzzzzzzz\.json: /);
  assert.deepEqual(await runCli(["agent", "schedule", "remove", at.job.id], home), {
    code: 0,
    stdout: `Removed ${at.job.id} from agent "main"\n`,
    stderr: "",
  });
  assert.deepEqual(await runCli(["agent", "schedule", "remove", at.job.id], home), {
    code: 1,
    stdout: "",
    stderr: `error: Cannot remove job "${at.job.id}": agent "main" has no such job\n` +
      "  hint: Run `lnk agent schedule list --agent main` to see its jobs\n",
  });
  const json = await runJson<{ jobs: { job: Job; next: string; zone: string }[]; broken: unknown[] }>(
    ["agent", "schedule", "list", "--json"],
    home,
  );
  assert.deepEqual(json.jobs.map((j) => [j.job.id, j.zone]), [[cronId, "America/New_York"]]);
  assert.equal(json.broken.length, 1);
});

Deno.test("lnk agent schedule add refuses a cron that does not parse, a zone that does not exist, a time past, and a wrong flag, each with a hint", async () => {
  await using home = await tempHome();
  await agentWithSchedule(home);
  const add = (...args: string[]) => runCli(["agent", "schedule", "add", ...args], home);
  const cron = await add("--cron", "61 * * * *", "hi");
  assert.deepEqual([cron.code, cron.stdout], [1, ""]);
  assert.match(
    cron.stderr,
    /^error: Cannot read the cron expression "61 \* \* \* \*": .*\n {2}hint: Give five fields: minute hour day-of-month month day-of-week, such as "30 8 \* \* 1-5"\n$/,
  );
  assert.deepEqual(await add("--cron", "0 8 * * *", "--zone", "Mars/Olympus", "hi"), {
    code: 1,
    stdout: "",
    stderr: 'error: Cannot schedule in time zone "Mars/Olympus": there is no such zone\n' +
      "  hint: Give an IANA time zone such as Europe/Berlin or America/New_York\n",
  });
  assert.deepEqual(await add("--at", "2020-01-01T08:00:00Z", "hi"), {
    code: 1,
    stdout: "",
    stderr: "error: Cannot schedule at 2020-01-01T08:00:00.000Z: that time has passed\n" +
      "  hint: Give a time in the future, or a delay such as 10m\n",
  });
  assert.deepEqual(await add("--at", "tomorrow", "hi"), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot schedule at "tomorrow": it is not an ISO 8601 time with its offset\n' +
      "  hint: Give a time with its offset, such as --at 2026-12-24T18:00:00+01:00 or --at 2026-12-24T17:00:00Z\n",
  });
  assert.deepEqual(await add("--in", "soon", "hi"), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot schedule in "soon": it is not a delay\n' +
      "  hint: Give a number and a unit, such as --in 10m (30s, 2h, 1d and 1h30m are delays too)\n",
  });
  assert.deepEqual(await add("--in", "10m", "--at", "2030-01-01T08:00:00Z", "hi"), {
    code: 2,
    stdout: "",
    stderr: "error: Cannot schedule: say when with exactly one of --at, --in or --cron, not 2\n" +
      '  hint: Such as --in 10m, --at 2026-12-24T18:00:00+01:00 or --cron "30 8 * * 1-5"\n',
  });
  assert.deepEqual(await add("--in", "10m", "--zone", "Europe/Berlin", "hi"), {
    code: 2,
    stdout: "",
    stderr: "error: Cannot schedule: --zone goes with --cron only\n" +
      "  hint: Give the time its own offset, such as --at 2026-12-24T18:00:00+01:00\n",
  });
  assert.deepEqual(await add("--in", "10m", "--thread", "main", "hi"), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot schedule on thread "main": it is not a thread key\n' +
      "  hint: Give a thread as <connection>:<chat>, such as link:main or telegram:123456\n",
  });
  assert.deepEqual(await add("--in", "10m"), {
    code: 2,
    stdout: "",
    stderr: "error: Cannot schedule an empty message\n" +
      '  hint: Give the message after the flags: lnk agent schedule add --in 10m "Stand up and stretch"\n',
  });
  const wrong = await add("--every", "10m", "hi");
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /^error: .*--every/);
  const listed = await runJson<{ jobs: unknown[] }>(["agent", "schedule", "list", "--json"], home);
  assert.deepEqual(listed.jobs, [], "a refused job is never kept");
});
