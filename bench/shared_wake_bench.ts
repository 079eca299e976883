/**
 * Wake latency on the shared harness (PRC-13: "or only the proxy when a shared harness serves the
 * agent"): the time from a sleeping agent's start, as its bridge makes it at a message (its launch:
 * a new key, its proxy, the join), to the first byte of its model call at a fake provider reached
 * through its own proxy, p50 and p95; against the same for an agent in a sandbox of its own, in
 * the same run. Another agent of the owner keeps the shared harness awake, as it would be. Each
 * start is prepared once, ahead, as the bridge prepares a sleeping agent's; a wake binds its key
 * and launches.
 *
 * The bridge's own start runs in this process (the proxy is pointed at the loopback fake standing
 * in for the hosted provider, which a proxy never dials otherwise); the shared harness is its own
 * service, and every sandbox real bubblewrap.
 *
 * Run: `deno run -A bench/shared_wake_bench.ts [wakes]` (or `deno task bench shared_wake`).
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { tempHome } from "../tests/support/mod.ts";
import { askEndpoint } from "../tests/support/sandboxed_agent.ts";
import {
  type Dialled,
  hostedAgent,
  launch,
  prepare,
  REAL_KEY,
  sharingHome,
} from "../tests/support/shared_harness.ts";
import { line, percentile } from "./_figures.ts";

/** Wakes one agent `wakes` times (start, message, first byte at the model, stop), with the shared harness on or off. */
async function wakeTimes(shared: boolean, wakes: number): Promise<number[]> {
  await using model = await serveFakeModel({ key: REAL_KEY });
  await using home = await tempHome();
  if (shared) await sharingHome(home);
  else home.env.set("OPENAI_API_KEY", REAL_KEY);
  const keeper = await hostedAgent(home, "main");
  const agent = await hostedAgent(home, "woken");
  const dialled: Dialled = [];
  // The owner's other agent, awake: the shared harness runs (with it off, it changes nothing).
  await using _awake = await launch(home, keeper, model, dialled);
  // Prepared once, as the bridge prepares a sleeping agent's start: a wake is the launch alone.
  const wake = await prepare(home, agent, model, dialled);
  const times: number[] = [];
  for (let i = 0; i <= wakes; i++) {
    const seen = model.requests.length;
    model.reply("awake");
    const start = performance.now();
    const harness = await wake();
    await askEndpoint(home, agent, "hello");
    const first = model.requests[seen];
    if (!first) throw new Error("the message never reached the model");
    await harness.stop();
    if (i > 0) times.push(first.receivedAt - start); // the first warms Deno's cache
  }
  return times;
}

if (import.meta.main) {
  setLogSink(() => {});
  const wakes = Number(Deno.args[0] ?? 20);
  const own = await wakeTimes(false, wakes);
  const shared = await wakeTimes(true, wakes);
  const [ownP50, ownP95, p50, p95] = [
    percentile(own, 50),
    percentile(own, 95),
    percentile(shared, 50),
    percentile(shared, 95),
  ];
  line(
    `own sandbox: wake to first byte at the model p50 ${ownP50.toFixed(1)} ms, p95 ${
      ownP95.toFixed(1)
    } ms (${wakes} wakes)`,
  );
  line(
    `shared harness: wake to first byte at the model p50 ${p50.toFixed(1)} ms, p95 ${
      p95.toFixed(1)
    } ms (${wakes} wakes)`,
  );
  line(
    `shared harness wake p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (${
      (p50 / ownP50).toFixed(2)
    }x of its own sandbox's ${ownP50.toFixed(1)} ms)`,
  );
}
