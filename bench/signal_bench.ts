/**
 * Signal's figures (issue 11): a message reaching the signal-cli daemon (the fake's, on its event
 * stream) to the bridge's first `send` of its answer (Signal sends each answer whole), awake and
 * asleep, beside the agent's own answer (bench/_connection_bench.ts).
 *
 * Run: `deno run -A bench/signal_bench.ts [messages]` (or `deno task bench signal`).
 * @module
 */
import { serveFakeSignal } from "../tests/fakes/fake_signal.ts";
import { runCli } from "../tests/support/mod.ts";
import { measureConnection } from "./_connection_bench.ts";

async function main(count: number): Promise<void> {
  await using fake = await serveFakeSignal();
  const owner = fake.person("Ada");
  await measureConnection({
    message: "message",
    firstSend: "send",
    async connect(home) {
      const args = ["agent", "connect", "signal", "--number", owner.number, "--account", fake.account];
      const done = await runCli([...args, "--daemon", fake.url, "--json"], home);
      if (done.code !== 0) throw new Error(`lnk agent connect failed: ${done.stderr}`);
    },
    async once() {
      await fake.streamsWhen((s) => s.open > 0);
      const sent = Date.now();
      fake.personSays(owner, "hi");
      const call = await fake.nextCall("send");
      return call.at - sent;
    },
  }, count);
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 10));
