/**
 * Wake latency (PRC-13, U-29): the time from a message reaching the door of a sleeping agent (the
 * caller's connect) to the first byte of its model call at a fake model server (the fake's arrival
 * time, same clock), p50 and p95 over many wakes, against the same message to the agent awake;
 * and the processes and resident memory the agent holds asleep and awake.
 *
 * The agent runs on Link Harness (`--model-url <fake>/v1`) as real services (the detached
 * backend) in a temporary home, with `[run] idle_after` short so it falls asleep between wakes.
 *
 * Run: `deno run -A bench/wake_bench.ts [wakes] [--no-sandbox]` (or `deno task bench wake`); with
 * `--no-sandbox` the agent's harness runs as the bridge's plain child, for comparison.
 * @module
 */
import { join } from "node:path";
import { decodeKey, setLogSink } from "../core/base/mod.ts";
import { openEndpoint } from "../connections/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runJson, type TempHome, tempHome } from "../tests/support/mod.ts";
import { type ProcessInfo, processTree } from "../tests/support/agent_processes.ts";
import { logEntries, serviceLog, waitForLog } from "../tests/support/service_log.ts";
import { line, percentile } from "./_figures.ts";

const IDLE_AFTER = "1s";

type Status = { id: string; ports: { endpoint: number }; services: { bridge: { pid?: number } } };

/** One message's timing: from connect to the model's first byte, and both moments as epoch ms. */
interface Timed {
  ms: number;
  sentAt: number;
  firstByteAt: number;
}

/** One message as `lnk agent chat send` sends it, timed from connect to the model's first byte. */
async function timeMessage(
  target: { port: number; id: string; key: Uint8Array },
  model: Awaited<ReturnType<typeof serveFakeModel>>,
  thread: string,
): Promise<Timed> {
  const seen = model.requests.length;
  const sentAt = Date.now();
  const start = performance.now();
  await using endpoint = await openEndpoint({ port: target.port }, {
    agentId: target.id,
    agentName: "bench",
    key: target.key,
  });
  const meta = { "link.local/thread": thread };
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  await endpoint.call("session/prompt", {
    sessionId: thread,
    prompt: [{ type: "text", text: "hello" }],
    _meta: meta,
  });
  const request = model.requests[seen];
  if (!request) throw new Error("the message never reached the model");
  return { ms: request.receivedAt - start, sentAt, firstByteAt: request.receivedAtEpoch };
}

/** Where one wake's time went: each moment of it, in ms after the message reached the door. */
type Phases = Record<string, number>;

/**
 * The moments of a wake, after the message at the door: the processes it started began (/proc,
 * 10 ms ticks; the agent role's, the sandbox, the relay and harness processes inside) and the
 * lines its services logged (the harness listening and saying ready, the door having the agent
 * awake, the harness serving with its agents loaded), and the model's first byte.
 */
async function phasesOf(home: TempHome, id: string, tree: ProcessInfo[], timed: Timed): Promise<Phases> {
  const program = (p: ProcessInfo) => p.command.split(" ")[0]!;
  // The role a deno process runs: the words after its first main.ts (a relay's command ends in the harness's).
  const started = (role: string) =>
    tree.find((p) => program(p).endsWith("deno") && p.command.split("main.ts ")[1]?.startsWith(role))
      ?.startedAt;
  // The harness's lines are in the agent service's log, or in the bridge's when the bridge runs it.
  const logged = async (msg: string) => {
    for (const role of ["agent", "bridge"] as const) {
      const entries = await logEntries(serviceLog(home, role, id), (e) => e.msg === msg).catch(() => []);
      const at = entries.map((e) => Date.parse(String(e.time))).find((t) => t >= timed.sentAt - 5);
      if (at !== undefined) return at;
    }
    return undefined;
  };
  // A moment absent from this start (no agent role when the bridge starts the sandbox itself, no
  // sandbox, the harness run in the relay's own process, a harness that says ready only once
  // loaded) is left out.
  const moments: [string, number | undefined][] = [
    ["agent role process started", started("agent run")],
    ["sandbox started", tree.find((p) => program(p).endsWith("bwrap"))?.startedAt],
    ["relay process started", started("sandbox relay")],
    ["harness process started", started("harness serve")],
    ["harness listening (ready)", await logged("Link Harness listening")],
    ["door has it awake", await logged("Agent awake")],
    ["harness serving (agents loaded)", await logged("Link Harness serving")],
    ["model's first byte", timed.firstByteAt],
  ];
  const known = moments.filter((m): m is [string, number] => m[1] !== undefined);
  return Object.fromEntries(known.map(([name, at]) => [name, at - timed.sentAt]));
}

function summary(processes: ProcessInfo[]): { count: number; rssMiB: number } {
  return { count: processes.length, rssMiB: processes.reduce((sum, p) => sum + p.rssKb, 0) / 1024 };
}

async function setUp(home: TempHome, modelUrl: string, sandbox: boolean): Promise<Status> {
  const created = await runJson<{ id: string; folders: { config: string } }>(
    ["agent", "create", "bench", "--harness", "link", "--model-url", modelUrl],
    home,
  );
  const spec = join(created.folders.config, "spec.toml");
  await Deno.writeTextFile(spec, (await Deno.readTextFile(spec)).replace('"5m"', `"${IDLE_AFTER}"`));
  return await runJson<Status>(["agent", "start", ...(sandbox ? [] : ["--no-sandbox"])], home);
}

/** Measures and prints the figures; returns them for callers that want them. */
export async function main(
  wakes = 20,
  awakeCount = 20,
  options: { sandbox?: boolean } = {},
): Promise<Record<string, number>> {
  const restore = setLogSink(() => {});
  await using home = await tempHome();
  await using model = await serveFakeModel();
  try {
    const status = await setUp(home, model.url, options.sandbox ?? true);
    const target = {
      port: status.ports.endpoint,
      id: status.id,
      key: decodeKey(await Deno.readTextFile(home.paths.keyFile(status.id))),
    };
    const bridgePid = status.services.bridge.pid!;
    const bridgeLog = serviceLog(home, "bridge", status.id);
    const asleep = (count: number) => waitForLog(bridgeLog, (e) => e.msg === "Agent asleep", count);

    await timeMessage(target, model, "link:warm");
    const awakeTimes: number[] = [];
    for (let i = 0; i < awakeCount; i++) {
      awakeTimes.push((await timeMessage(target, model, `link:awake-${i}`)).ms);
    }
    const awakeTree = await processTree(bridgePid);
    const awake = summary(awakeTree);
    const sandboxed = awakeTree.some((p) => p.command.split(" ")[0]!.endsWith("bwrap"));
    if ((await logEntries(bridgeLog, (e) => e.msg === "Agent asleep")).length > 0) {
      line(`warning: the agent fell asleep during the awake baseline (idle_after ${IDLE_AFTER})`);
    }

    await asleep(1);
    const sleeping = summary(await processTree(bridgePid));
    const wakeTimes: number[] = [];
    const phases: Phases[] = [];
    for (let i = 0; i < wakes; i++) {
      await asleep(i + 1);
      const timed = await timeMessage(target, model, `link:wake-${i}`);
      wakeTimes.push(timed.ms);
      phases.push(await phasesOf(home, status.id, await processTree(bridgePid), timed));
    }
    await runJson(["agent", "stop"], home);

    const awakeP50 = percentile(awakeTimes, 50);
    const awakeP95 = percentile(awakeTimes, 95);
    const wakeP50 = percentile(wakeTimes, 50);
    const wakeP95 = percentile(wakeTimes, 95);
    line(`sandbox ${sandboxed ? "on" : "off"}; Link Harness; idle_after ${IDLE_AFTER}; ${Deno.build.os}`);
    line(`wakes: ${wakeTimes.map((t) => t.toFixed(0)).join(" ")} ms`);
    line("after the message reached the door (p50):");
    const steps = [...new Set(phases.flatMap((p) => Object.keys(p)))];
    const p50 = (step: string) => percentile(phases.map((p) => p[step]).filter((t) => t !== undefined), 50);
    for (const step of steps.sort((a, b) => p50(a) - p50(b))) line(`  +${p50(step).toFixed(0)} ms ${step}`);
    line(`awake (baseline), n=${awakeCount}: p50 ${awakeP50.toFixed(1)} ms, p95 ${awakeP95.toFixed(1)} ms`);
    line(
      `held asleep: ${sleeping.count} process(es), ${sleeping.rssMiB.toFixed(1)} MiB RSS ` +
        `(awake: ${awake.count}, ${awake.rssMiB.toFixed(1)} MiB; ${
          (sleeping.rssMiB / awake.rssMiB).toFixed(2)
        }x)`,
    );
    line(
      `wake to the model's first byte, n=${wakes}: p50 ${wakeP50.toFixed(0)} ms (${
        (wakeP50 / awakeP50).toFixed(1)
      }x awake), p95 ${wakeP95.toFixed(0)} ms (${(wakeP95 / awakeP95).toFixed(1)}x awake)`,
    );
    return {
      awakeP50,
      awakeP95,
      wakeP50,
      wakeP95,
      asleepProcesses: sleeping.count,
      awakeProcesses: awake.count,
      asleepRssMiB: sleeping.rssMiB,
      awakeRssMiB: awake.rssMiB,
    };
  } finally {
    restore();
  }
}

if (import.meta.main) {
  const wakes = Deno.args.find((a) => /^\d+$/.test(a));
  await main(Number(wakes ?? 20), 20, { sandbox: !Deno.args.includes("--no-sandbox") });
}
