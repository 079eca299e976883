/**
 * Link Harness's figures, each printed last with its ratio to a baseline measured in the same run:
 *
 * - the time from `lnk agent chat send` to the first byte at the model server for a running
 *   agent (p50 over N sends, run in this process as the CLI runs them; a few as a child process
 *   too, which adds Deno's start), next to a bare request from this process to the same server;
 * - Link Harness's resident memory when idle (VmRSS of `lnk harness serve`), next to a plain
 *   `deno` process doing nothing.
 *
 * Run: `deno run -A bench/chat_bench.ts [sends]` (or `deno task bench chat`). The model is the
 * fake OpenAI-compatible server of tests/fakes on the loopback; nothing leaves this machine.
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runCli, runJson, runLnk, type TempHome, tempHome } from "../tests/support/mod.ts";
import { processTree } from "../tests/support/agent_processes.ts";
import { line, p50 } from "./_figures.ts";

/** Time from the send to the model server's receipt of the model call it caused, in ms. */
async function timeSends(
  model: Awaited<ReturnType<typeof serveFakeModel>>,
  count: number,
  send: () => Promise<{ code: number; stderr: string }>,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = model.requests.length;
    const start = performance.now();
    const result = await send();
    if (result.code !== 0) throw new Error(`lnk agent chat send failed: ${result.stderr}`);
    times.push(model.requests[before]!.receivedAt - start);
  }
  return times;
}

/** Time from a bare POST of a chat request to the server's receipt of it, in ms. */
async function timeBare(model: Awaited<ReturnType<typeof serveFakeModel>>, count: number): Promise<number[]> {
  const body = JSON.stringify({
    model: "fake-model",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
  });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = model.requests.length;
    const start = performance.now();
    const res = await fetch(`${model.url}/chat/completions`, { method: "POST", body });
    await res.body?.cancel();
    times.push(model.requests[before]!.receivedAt - start);
  }
  return times;
}

/** VmRSS of a plain `deno` process that is doing nothing, in KiB. */
async function plainDenoRss(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "console.log('ready'); setInterval(() => {}, 1 << 30);"],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  while (!(await reader.read()).value?.includes("ready")) { /* until it says ready */ }
  const rss = (await processTree(child.pid))[0]!.rssKb;
  child.kill("SIGTERM");
  await reader.cancel();
  await child.status;
  return rss;
}

/** VmRSS of the agent's `lnk harness serve`, in KiB. */
async function harnessRss(home: TempHome): Promise<number> {
  const status = await runJson<{ services: { agent: { pid: number } } }>(["agent", "status"], home);
  // The harness itself, not the bubblewrap launcher around it whose arguments name it too.
  const harness = (await processTree(status.services.agent.pid)).find((p) =>
    /\bharness serve\b/.test(p.command) && !/(^|\/)bwrap\s/.test(p.command)
  );
  if (!harness) throw new Error("Cannot find the agent's lnk harness serve process");
  return harness.rssKb;
}

/** Measures and prints the figures; returns them for callers that want them. */
export async function main(sends = 50): Promise<Record<string, number>> {
  const restore = setLogSink(() => {});
  try {
    await using model = await serveFakeModel({ defaultText: "ok" });
    await using home = await tempHome();
    await runJson(["agent", "create", "--model-url", model.url, "--model", "fake-model"], home);
    await runJson(["agent", "start"], home);
    const freshKb = await harnessRss(home);
    const send = () => runCli(["agent", "chat", "send", "hi"], home);
    await timeSends(model, 5, send);
    await timeBare(model, 5);
    const bare = p50(await timeBare(model, sends));
    const inProcess = p50(await timeSends(model, sends, send));
    const children = Math.max(3, Math.floor(sends / 10));
    const child = p50(await timeSends(model, children, () => runLnk(["agent", "chat", "send", "hi"], home)));
    line(`bare request to the model server, n=${sends}: p50 ${bare.toFixed(2)} ms`);
    line(
      `lnk agent chat send as a child process (Deno's start included), n=${children}: p50 ${
        child.toFixed(1)
      } ms`,
    );
    line(
      `lnk agent chat send to the model's first byte, n=${sends}: p50 ${inProcess.toFixed(2)} ms (${
        (inProcess / bare).toFixed(1)
      }x a bare request)`,
    );
    const usedKb = await harnessRss(home);
    const plainKb = await plainDenoRss();
    await runJson(["agent", "stop"], home);
    const mib = (kb: number) => (kb / 1024).toFixed(1);
    line(`plain deno process, idle: ${mib(plainKb)} MiB`);
    line(`Link Harness idle just after start: ${mib(freshKb)} MiB`);
    line(
      `Link Harness idle RSS after ${sends + 5 + children} messages: ${mib(usedKb)} MiB (${
        (usedKb / plainKb).toFixed(2)
      }x a plain deno process)`,
    );
    return { bare, inProcess, child, freshKb, usedKb, plainKb };
  } finally {
    restore();
  }
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 50));
