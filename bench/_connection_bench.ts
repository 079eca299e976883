/**
 * What every connection's benchmark measures (issue 11): the time from a message reaching the
 * platform (its fake, on the loopback) to the bridge's first send of its answer, for an awake agent
 * and for one its door must wake first, each beside the agent's own answer time measured in the
 * same run: the same message through `lnk agent chat send` (Link's own connection) from the send to
 * its answer. The model is the fake of tests/fakes answering at once; nothing leaves this machine.
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runCli, runJson, serviceLog, type TempHome, tempHome, waitForLog } from "../tests/support/mod.ts";
import { line, p50 } from "./_figures.ts";

/** One platform, as its benchmark drives it through its fake. */
export interface ConnectionDriver {
  /** What the figures call the platform's message and its first send ("update", "sendMessage"). */
  readonly message: string;
  readonly firstSend: string;
  /** Pairs the agent's owner with `lnk agent connect` against the fake. */
  connect(home: TempHome): Promise<void>;
  /** The owner says "hi"; resolves with the ms from the platform having it to the bridge's first send. */
  once(): Promise<number>;
  /**
   * The platform drops the connection and the owner says "hi" while it is away; resolves with the ms
   * from the platform having it to the bridge's first send, once it resumed. What it says it is.
   */
  readonly resume?: { what: string; once(): Promise<number> };
}

/** Sets `[run] idle_after` in the agent's spec. */
async function setIdleAfter(home: TempHome, id: string, idleAfter: string): Promise<void> {
  const { layoutOf, loadSettings } = await import("../core/agent/mod.ts");
  const spec = layoutOf(home.paths, await loadSettings(home.paths, id)).specToml;
  const text = await Deno.readTextFile(spec);
  await Deno.writeTextFile(spec, text.replace(/^idle_after = .*$/m, `idle_after = "${idleAfter}"`));
}

/** Measures a connection awake and asleep, n of each, interleaved with the agent's own answers. */
export async function measureConnection(driver: ConnectionDriver, count: number): Promise<void> {
  setLogSink(() => {}); // what the commands run in this process log is not the figures
  await using model = await serveFakeModel({ defaultText: "Answered." });
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  await driver.connect(home);
  const ownOnce = async (): Promise<number> => {
    const start = performance.now();
    const result = await runCli(["agent", "chat", "send", "hi"], home);
    if (result.code !== 0) throw new Error(`lnk agent chat send failed: ${result.stderr}`);
    return performance.now() - start;
  };
  const log = serviceLog(home, "bridge", id);
  const asleep = (n: number) => waitForLog(log, (e) => e.msg === "Agent asleep", n);
  line(`fake platform and model on the loopback; Link Harness, sandbox on; n=${count} each, interleaved`);
  try {
    await runJson(["agent", "start"], home);
    await driver.once(); // the connection's bridge is connected, the harness has served once
    const awake: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < count; i++) {
      awake.push(await driver.once());
      own.push(await ownOnce());
    }
    const resumed: number[] = [];
    for (let i = 0; driver.resume && i < count; i++) resumed.push(await driver.resume.once());
    await runJson(["agent", "stop"], home);
    await setIdleAfter(home, id, "1s");
    await runJson(["agent", "start"], home);
    const sleeping: number[] = [];
    const ownWoken: number[] = [];
    let sleeps = 0;
    for (let i = 0; i < count; i++) {
      await asleep(++sleeps);
      sleeping.push(await driver.once());
      await asleep(++sleeps);
      ownWoken.push(await ownOnce());
    }
    line(`agent's own answer (lnk agent chat send, awake): p50 ${p50(own).toFixed(1)} ms`);
    line(`agent's own answer (lnk agent chat send, asleep): p50 ${p50(ownWoken).toFixed(1)} ms`);
    line(
      `${driver.message} to first ${driver.firstSend}: awake p50 ${p50(awake).toFixed(0)} ms (${
        (p50(awake) / p50(own)).toFixed(1)
      }x the agent's own), asleep p50 ${p50(sleeping).toFixed(0)} ms (${
        (p50(sleeping) / p50(ownWoken)).toFixed(1)
      }x the agent's own from asleep)`,
    );
    if (driver.resume) {
      line(
        `${driver.message} sent ${driver.resume.what} to first ${driver.firstSend}: p50 ${
          p50(resumed).toFixed(0)
        } ms (${(p50(resumed) / p50(own)).toFixed(1)}x the agent's own, awake)`,
      );
    }
  } finally {
    await runCli(["agent", "stop"], home);
  }
}
