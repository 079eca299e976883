/**
 * Qwen Code (`qwen --acp`, harness acp, under the hub) inside Link beside Link Harness, each printed
 * with its ratio to Link Harness measured in the same run:
 *
 * - start to first answer: from `lnk agent start` until its first `lnk agent chat send` has
 *   printed the answer (the sandbox, the harness's start, its first model call to the fake model);
 * - idle memory: the resident memory of every process in the agent's sandbox but bubblewrap's
 *   (Link's launcher with the harness or the hub in it, and the ACP program with its children)
 *   once the first answer is in.
 *
 * Run: `deno run -A bench/acp_bench.ts [runs]` (or `deno task bench acp`). Qwen Code is found
 * where the CI's setup installs it (tests/support/qwen_code.ts); without it only Link Harness is
 * measured, saying why. The model is the fake OpenAI-compatible server of tests/fakes; nothing leaves
 * this machine.
 * @module
 */
import { setLogSink } from "../core/base/mod.ts";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { runCli, runJson, type TempHome, tempHome } from "../tests/support/mod.ts";
import { processTree } from "../tests/support/agent_processes.ts";
import { NO_QWEN, QWEN_BIN } from "../tests/support/qwen_code.ts";
import { line, p50 } from "./_figures.ts";

/** One fresh agent on `harness`: the time from its start to its first answer, and its idle memory. */
export async function measure(harness: string[], runs: number): Promise<{ firstMs: number; idleKb: number }> {
  const firsts: number[] = [];
  const idles: number[] = [];
  for (let i = 0; i < runs; i++) {
    await using model = await serveFakeModel({ defaultText: "ok" });
    await using home = await tempHome();
    await runJson(
      ["agent", "create", "b", ...harness, "--model-url", model.url, "--model", "fake-model"],
      home,
    );
    const start = performance.now();
    await runJson(["agent", "start", "--agent", "b"], home);
    const sent = await runCli(["agent", "chat", "send", "--agent", "b", "hi"], home);
    if (sent.code !== 0 || sent.stdout.trim() !== "ok") {
      throw new Error(`chat send failed: ${sent.stdout}${sent.stderr}`);
    }
    firsts.push(performance.now() - start);
    idles.push(await sandboxRss(home));
    await runJson(["agent", "stop", "--agent", "b"], home);
  }
  return { firstMs: p50(firsts), idleKb: p50(idles) };
}

/** The resident memory of the agent's sandboxed processes, bubblewrap's own left out, in KiB. */
export async function sandboxRss(home: TempHome): Promise<number> {
  const status = await runJson<{ services: { agent: { pid: number } } }>(
    ["agent", "status", "--agent", "b"],
    home,
  );
  const tree = await processTree(status.services.agent.pid);
  // The hub starts its program from a thread of its own (a Landlock domain): a child of that thread.
  const programs = (await Promise.all(tree.map((p) => threadChildren(p.pid)))).flat();
  const inside = [...tree, ...(await Promise.all(programs.map((pid) => processTree(pid)))).flat()]
    .filter((p, i, all) => all.findIndex((q) => q.pid === p.pid) === i)
    .filter((p) => !/(^|\/)bwrap\s/.test(p.command) && !/\bagent bridge\b/.test(p.command));
  if (inside.length === 0) throw new Error("Cannot find the agent's sandboxed processes");
  return inside.reduce((sum, p) => sum + p.rssKb, 0);
}

/** The children of every thread of a process but its main one's. */
async function threadChildren(pid: number): Promise<number[]> {
  const pids: number[] = [];
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      if (task.name === String(pid)) continue;
      const text = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/children`).catch(() => "");
      pids.push(...text.split(" ").filter(Boolean).map(Number));
    }
  } catch { /* it ended */ }
  return pids;
}

/** Measures and prints the figures; returns them for callers that want them. */
export async function main(runs = 3): Promise<Record<string, number>> {
  const restore = setLogSink(() => {});
  try {
    const mib = (kb: number) => (kb / 1024).toFixed(1);
    const link = await measure([], runs);
    line(`Link Harness, start to first answer, n=${runs}: p50 ${(link.firstMs / 1000).toFixed(2)} s`);
    line(`Link Harness, idle memory in its sandbox: ${mib(link.idleKb)} MiB`);
    if (NO_QWEN) {
      line(`Qwen Code not measured: ${NO_QWEN}`);
      return { linkFirstMs: link.firstMs, linkIdleKb: link.idleKb };
    }
    const qwen = await measure(["--harness", "acp", "--acp-command", `${QWEN_BIN} --acp`], runs);
    line(
      `Qwen Code (acp, under the hub), start to first answer, n=${runs}: p50 ${
        (qwen.firstMs / 1000).toFixed(2)
      } s (${(qwen.firstMs / link.firstMs).toFixed(1)}x Link Harness)`,
    );
    line(
      `Qwen Code (acp, under the hub), idle memory in its sandbox: ${mib(qwen.idleKb)} MiB (${
        (qwen.idleKb / link.idleKb).toFixed(1)
      }x Link Harness)`,
    );
    return {
      linkFirstMs: link.firstMs,
      linkIdleKb: link.idleKb,
      qwenFirstMs: qwen.firstMs,
      qwenIdleKb: qwen.idleKb,
    };
  } finally {
    restore();
  }
}

if (import.meta.main) await main(Number(Deno.args[0] ?? 3));
