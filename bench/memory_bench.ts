/**
 * Link Memory's service start and stop (PRC-14, MEM-3): how long the owner's memory service takes
 * to be ready for a waking agent when none runs (it "starts again in about a tenth of a second"),
 * p50 and p95, and how long it stays after its last session ends ("5 seconds"); beside a bare
 * `node:sqlite` open of a database file, measured in the same run. Every part is
 * real: `lnk memory serve` started as a service of the detached backend, its session held by an
 * open answer on its unix socket, its exit read from its own log line.
 *
 * Run: `deno run -A bench/memory_bench.ts [restarts]` (or `deno task bench memory`).
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { setLogSink } from "../core/base/mod.ts";
import { loadSettings } from "../core/agent/mod.ts";
import { MemorySession } from "../core/memory/agent/mod.ts";
import { runJson, tempHome, waitForLog } from "../tests/support/mod.ts";
import { line, percentile } from "./_figures.ts";

async function agentWithMemory(home: Awaited<ReturnType<typeof tempHome>>) {
  const { id } = await runJson<{ id: string }>(["agent", "create", "--json"], home);
  await runJson(["agent", "memory", "on", "--json"], home);
  return await loadSettings(home.paths, id);
}

/** Each wake's time from the session asked to the session held, with no service running before it. */
async function restartTimes(restarts: number): Promise<{ times: number[]; bare: number[] }> {
  await using home = await tempHome();
  home.env.set("LNK_MEMORY_LINGER", "300ms");
  const agent = await agentWithMemory(home);
  const log = join(home.paths.run, `lnk-memory-${agent.owner}.log`);
  const times: number[] = [];
  const bare: number[] = [];
  const bareFile = join(home.path, "bare.sqlite");
  new DatabaseSync(bareFile).close();
  for (let i = 0; i <= restarts; i++) {
    await using session = new MemorySession({ paths: home.paths, agent, env: home.env });
    const start = performance.now();
    session.wake();
    await session.ready();
    const took = performance.now() - start;
    await session.sleep();
    await waitForLog(log, (e) => e.msg === "Memory service stopped", i + 1);
    const open = performance.now();
    const db = new DatabaseSync(bareFile);
    db.prepare("select count(*) from sqlite_master").get();
    db.close();
    if (i > 0) { // the first warms Deno's cache
      times.push(took);
      bare.push(performance.now() - open);
    }
  }
  return { times, bare };
}

/** How long the service stays after its last session, at its real linger. */
async function lingerTimes(count: number): Promise<number[]> {
  await using home = await tempHome();
  const agent = await agentWithMemory(home);
  const log = join(home.paths.run, `lnk-memory-${agent.owner}.log`);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    await using session = new MemorySession({ paths: home.paths, agent, env: home.env });
    session.wake();
    await session.ready();
    const start = performance.now();
    await session.sleep();
    await waitForLog(log, (e) => e.msg === "Memory service stopped", i + 1);
    times.push(performance.now() - start);
  }
  return times;
}

if (import.meta.main) {
  setLogSink(() => {});
  const restarts = Number(Deno.args[0] ?? 10);
  const { times, bare } = await restartTimes(restarts);
  const linger = await lingerTimes(2);
  const [p50, p95, bareP50] = [percentile(times, 50), percentile(times, 95), percentile(bare, 50)];
  line(`bare node:sqlite open of a database file: p50 ${bareP50.toFixed(2)} ms (${restarts} opens)`);
  line(
    `memory service linger after the last session: ${
      linger.map((t) => `${(t / 1000).toFixed(2)} s`).join(", ")
    }`,
  );
  line(
    `memory service start to a held session p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms ` +
      `(${restarts} starts), ${(p50 / bareP50).toFixed(0)}x a bare node:sqlite open`,
  );
}
