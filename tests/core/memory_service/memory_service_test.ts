import assert from "node:assert/strict";
import { join } from "node:path";
import { askMemoryService } from "../../../core/memory/mod.ts";
import { MemorySession } from "../../../core/memory/agent/mod.ts";
import { MemoryService } from "../../../core/memory_service/mod.ts";
import { processAlive } from "../../../core/agent/services/mod.ts";
import { waitForLog } from "../../support/service_log.ts";
import { FakeClock } from "../../support/fake_clock.ts";
import { runJson, tempHome } from "../../support/mod.ts";

async function agentWithMemory(home: Awaited<ReturnType<typeof tempHome>>, name = "main") {
  const made = await runJson(["agent", "create", name, "--json"], home) as { id: string };
  await runJson(["agent", "memory", "on", "--agent", name, "--json"], home);
  const settings = await Deno.readTextFile(join(home.paths.agentState(made.id), "settings.toml"));
  const owner = /^owner = "([^"]+)"/m.exec(settings)![1]!;
  return { id: made.id, name, owner };
}

Deno.test("MemoryService ends 5 s after its last session, not before, and a session meanwhile keeps it (PRC-14, MEM-3)", async () => {
  await using home = await tempHome();
  const agent = await agentWithMemory(home);
  const clock = new FakeClock();
  await using service = new MemoryService(home.paths, agent.owner, { lingerMs: 5_000, clock });
  // The linger's end is seen at once in the state; the service's end waits on the work a session
  // started (an index warmed on real files), so it is awaited, never asserted at a tick.
  const ending = () => service.state().ending;
  const join = await service.attach({ agent: agent.id });
  await clock.advance(10_000);
  assert.equal(ending(), false);
  service.detach(agent.id, join);
  assert.equal(service.state().lingering, true);
  await clock.advance(4_999);
  assert.equal(ending(), false);
  await service.attach({ agent: agent.id });
  await clock.advance(5_000);
  assert.equal(ending(), false);
  service.detach(agent.id);
  await clock.advance(5_000);
  assert.equal(ending(), true);
  await service.ended;
});

Deno.test("MemoryService refuses an agent whose memory is off, and one of another owner (MEM-1, MEM-2)", async () => {
  await using home = await tempHome();
  const agent = await agentWithMemory(home);
  await runJson(["agent", "create", "plain", "--json"], home);
  const plain =
    (await runJson(["agent", "list", "--json"], home) as { agents: { id: string; name: string }[] })
      .agents.find((a) => a.name === "plain")!;
  await using service = new MemoryService(home.paths, agent.owner, {
    lingerMs: 5_000,
    clock: new FakeClock(),
  });
  await assert.rejects(service.attach({ agent: plain.id }), { name: "LinkError", code: "REFUSED" });
  await using other = new MemoryService(home.paths, "acct-someone-else", {
    lingerMs: 5_000,
    clock: new FakeClock(),
  });
  await assert.rejects(other.attach({ agent: agent.id }), { name: "LinkError", code: "REFUSED" });
});

Deno.test("lnk memory serve: a waking agent's session starts it, a note written is found, and it exits after its linger", async () => {
  await using home = await tempHome();
  home.env.set("LNK_MEMORY_LINGER", "300ms");
  const agent = await agentWithMemory(home);
  await using session = new MemorySession({ paths: home.paths, agent, env: home.env });
  session.wake();
  await session.ready();
  const state = await askMemoryService(home.paths, agent.owner, "/state") as {
    agents: string[];
    pid: number;
  };
  assert.deepEqual(state.agents, [agent.id]);
  const socket = join(home.paths.run, `memory-${agent.owner}.sock`);
  assert.equal((await Deno.lstat(socket)).mode! & 0o777, 0o600);
  await askMemoryService(home.paths, agent.owner, "/write_note", {
    agent: agent.id,
    name: "people",
    text: "Bo lives in Lisbon",
  });
  const found = await askMemoryService(home.paths, agent.owner, "/search", {
    agent: agent.id,
    query: "Lisbon",
  }) as {
    hits: { origin: unknown }[];
    by: string;
  };
  assert.deepEqual(found.hits.map((h) => h.origin), [{ kind: "note", note: "people", line: 1 }]);
  assert.equal(found.by, "words");
  const bad = askMemoryService(home.paths, agent.owner, "/write_note", {
    agent: agent.id,
    name: "../x",
    text: "",
  });
  await assert.rejects(bad, { name: "LinkError", code: "INVALID" });
  await session.sleep();
  const log = join(home.paths.run, `lnk-memory-${agent.owner}.log`);
  await waitForLog(log, (e) => e.msg === "Memory service stopped");
  assert.deepEqual(
    (await waitForLog(log, (e) => e.msg === "Memory service ended after its linger")).length,
    1,
  );
  await assert.rejects(Deno.lstat(socket), Deno.errors.NotFound);
  await assert.rejects(askMemoryService(home.paths, agent.owner, "/state"), { code: "SERVICE_FAILED" });
  // The next wake starts it again.
  session.wake();
  await session.ready();
  const again = await askMemoryService(home.paths, agent.owner, "/state") as {
    agents: string[];
    pid: number;
  };
  assert.notEqual(again.pid, state.pid);
  assert.deepEqual(again.agents, [agent.id]);
  assert.equal(await processAlive(state.pid), false);
});

Deno.test("lnk memory serve: two owners using memory have two services (MEM-2)", async () => {
  await using home = await tempHome();
  const o = await agentWithMemory(home, "olga");
  const p = await agentWithMemory(home, "piet");
  const settings = join(home.paths.agentState(p.id), "settings.toml");
  await Deno.writeTextFile(
    settings,
    (await Deno.readTextFile(settings)).replace(/^owner = "[^"]+"/m, 'owner = "acct-piet"'),
  );
  await using a = new MemorySession({ paths: home.paths, agent: o, env: home.env });
  await using b = new MemorySession({
    paths: home.paths,
    agent: { ...p, owner: "acct-piet" },
    env: home.env,
  });
  a.wake();
  b.wake();
  await Promise.all([a.ready(), b.ready()]);
  const sa = await askMemoryService(home.paths, o.owner, "/state") as { pid: number; agents: string[] };
  const sb = await askMemoryService(home.paths, "acct-piet", "/state") as { pid: number; agents: string[] };
  assert.notEqual(sa.pid, sb.pid);
  assert.deepEqual([sa.agents, sb.agents], [[o.id], [p.id]]);
});
