/**
 * Link Scheduler's figures (issue 12): the delay from a job's due time to the model's first byte
 * (the fake model having the request), for an awake agent and for one its door must wake first,
 * each beside the agent's own `lnk agent chat send` in the same run, from the send to the model's
 * first byte. The runner is the agent's bridge's own; jobs are kept as `lnk agent schedule add`
 * keeps them, due a little ahead so the runner is sleeping on its clock when each comes due.
 *
 * Run: `deno run -A bench/schedule_bench.ts [jobs]` (or `deno task bench schedule`).
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { layoutOf, loadSettings } from "../core/agent/mod.ts";
import { JobStore, newJobId } from "../core/scheduler/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runCli, runJson, serviceLog, tempHome, waitForLog } from "../tests/support/mod.ts";
import { line, p50 } from "./_figures.ts";

/** How far ahead each job is due: time for the runner to see it and sleep until it. */
const AHEAD_MS = 300;

async function main(count: number): Promise<void> {
  setLogSink(() => {});
  await using model = await serveFakeModel({ defaultText: "Answered." });
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const settings = await loadSettings(home.paths, id);
  const jobs = new JobStore(layoutOf(home.paths, settings).collection("schedule"));
  const log = serviceLog(home, "bridge", id);
  let fired = 0;
  const fireOnce = async (): Promise<number> => {
    const due = Date.now() + AHEAD_MS;
    const at = new Date(due).toISOString();
    const taken = model.reply("Answered.").taken;
    await jobs.add({
      v: 1,
      id: newJobId(),
      kind: "schedule",
      set_by: "owner",
      created: new Date().toISOString(),
      when: { kind: "at", at },
      to: id,
      thread: "link:bench",
      text: "hi",
      hops: 0,
      reply: { to: "none" },
    });
    const request = await taken;
    await waitForLog(log, (e) => e.msg === "Job fired", ++fired);
    return request.receivedAtEpoch - due;
  };
  const ownOnce = async (): Promise<number> => {
    const taken = model.reply("Answered.").taken;
    const start = Date.now();
    const result = await runCli(["agent", "chat", "send", "hi"], home);
    if (result.code !== 0) throw new Error(`lnk agent chat send failed: ${result.stderr}`);
    return (await taken).receivedAtEpoch - start;
  };
  const setIdleAfter = async (idleAfter: string) => {
    const spec = layoutOf(home.paths, settings).specToml;
    const text = await Deno.readTextFile(spec);
    await Deno.writeTextFile(spec, text.replace(/^idle_after = .*$/m, `idle_after = "${idleAfter}"`));
  };
  const asleep = (n: number) => waitForLog(log, (e) => e.msg === "Agent asleep", n);
  line(`fake model on the loopback; Link Harness, sandbox on; n=${count} each, interleaved`);
  try {
    await runJson(["agent", "start"], home);
    await waitForLog(log, (e) => e.msg === "Runner started");
    await fireOnce(); // the runner and the harness have served once
    const awake: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < count; i++) {
      awake.push(await fireOnce());
      own.push(await ownOnce());
    }
    await runJson(["agent", "stop"], home);
    await setIdleAfter("1s");
    await runJson(["agent", "start"], home);
    await waitForLog(log, (e) => e.msg === "Runner started", 2);
    const sleeping: number[] = [];
    const ownWoken: number[] = [];
    let sleeps = 0;
    for (let i = 0; i < count; i++) {
      await asleep(++sleeps);
      sleeping.push(await fireOnce());
      await asleep(++sleeps);
      ownWoken.push(await ownOnce());
    }
    line(`agent's own message to the model (lnk agent chat send, awake): p50 ${p50(own).toFixed(1)} ms`);
    line(
      `agent's own message to the model (lnk agent chat send, asleep): p50 ${p50(ownWoken).toFixed(1)} ms`,
    );
    line(
      `job due to the model's first byte: awake p50 ${p50(awake).toFixed(0)} ms (${
        (p50(awake) / p50(own)).toFixed(1)
      }x the agent's own), asleep p50 ${p50(sleeping).toFixed(0)} ms (${
        (p50(sleeping) / p50(ownWoken)).toFixed(1)
      }x the agent's own from asleep)`,
    );
  } finally {
    await runCli(["agent", "stop"], home);
  }
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 10));
