/**
 * Telegram's figures (issue 11): the time from an update reaching the Bot API (the fake's, on the
 * loopback) to the bridge's first `sendMessage` of its answer, for an awake agent and for one its
 * door must wake first, each beside the agent's own answer time measured in the same run: the
 * same message through `lnk agent chat send` (Link's own connection, in this process) from the
 * send to its answer.
 *
 * Run: `deno run -A bench/telegram_bench.ts [messages]` (or `deno task bench telegram`). The model
 * is the fake of tests/fakes answering at once; nothing leaves this machine.
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { serveFakeTelegram } from "../tests/fakes/fake_telegram.ts";
import { runCli, runJson, serviceLog, type TempHome, tempHome, waitForLog } from "../tests/support/mod.ts";
import { line, p50 } from "./_figures.ts";

const count = Number(Deno.args[0] ?? 10);

/** Sets `[run] idle_after` in the agent's spec. */
async function setIdleAfter(home: TempHome, id: string, idleAfter: string): Promise<void> {
  const { layoutOf, loadSettings } = await import("../core/agent/mod.ts");
  const spec = layoutOf(home.paths, await loadSettings(home.paths, id)).specToml;
  const text = await Deno.readTextFile(spec);
  await Deno.writeTextFile(spec, text.replace(/^idle_after = .*$/m, `idle_after = "${idleAfter}"`));
}

async function main(): Promise<void> {
  setLogSink(() => {}); // what the commands run in this process log is not the figures
  await using fake = await serveFakeTelegram();
  await using model = await serveFakeModel({ defaultText: "Answered." });
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const owner = fake.user("Ada");
  const chat = fake.privateChat(owner);
  const paired = await runCli(
    ["agent", "connect", "telegram", "--token", fake.token, "--api-root", fake.apiRoot, "--json"],
    home,
    {
      onPrint: (v) =>
        typeof (v as { code?: unknown }).code === "string" &&
        fake.userSays(chat, owner, (v as { code: string }).code),
    },
  );
  if (paired.code !== 0) throw new Error(`lnk agent connect failed: ${paired.stderr}`);
  const telegramOnce = async (): Promise<number> => {
    const sent = Date.now();
    fake.userSays(chat, owner, "hi");
    const call = await fake.nextCall("sendMessage", (c) => c.params.chat_id === chat.id);
    return call.at - sent;
  };
  const ownOnce = async (): Promise<number> => {
    const start = performance.now();
    const result = await runCli(["agent", "chat", "send", "hi"], home);
    if (result.code !== 0) throw new Error(`lnk agent chat send failed: ${result.stderr}`);
    return performance.now() - start;
  };
  const log = serviceLog(home, "bridge", id);
  const asleep = (n: number) => waitForLog(log, (e) => e.msg === "Agent asleep", n);
  line(`fake Bot API and model on the loopback; Link Harness, sandbox on; n=${count} each, interleaved`);
  try {
    await runJson(["agent", "start"], home);
    await telegramOnce(); // the connection's bridge polls, the harness has served once
    const awake: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < count; i++) {
      awake.push(await telegramOnce());
      own.push(await ownOnce());
    }
    await runJson(["agent", "stop"], home);
    await setIdleAfter(home, id, "1s");
    await runJson(["agent", "start"], home);
    const sleeping: number[] = [];
    const ownWoken: number[] = [];
    let sleeps = 0;
    for (let i = 0; i < count; i++) {
      await asleep(++sleeps);
      sleeping.push(await telegramOnce());
      await asleep(++sleeps);
      ownWoken.push(await ownOnce());
    }
    line(`agent's own answer (lnk agent chat send, awake): p50 ${p50(own).toFixed(1)} ms`);
    line(`agent's own answer (lnk agent chat send, asleep): p50 ${p50(ownWoken).toFixed(1)} ms`);
    line(
      `update to first sendMessage: awake p50 ${p50(awake).toFixed(0)} ms (${
        (p50(awake) / p50(own)).toFixed(1)
      }x the agent's own), asleep p50 ${p50(sleeping).toFixed(0)} ms (${
        (p50(sleeping) / p50(ownWoken)).toFixed(1)
      }x the agent's own from asleep)`,
    );
  } finally {
    await runCli(["agent", "stop"], home);
  }
}

if (import.meta.main) await main();
