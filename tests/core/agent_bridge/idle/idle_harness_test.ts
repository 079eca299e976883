import assert from "node:assert/strict";
import { join } from "node:path";
import { type AgentKey, encodeKey } from "../../../../core/base/mod.ts";
import { bindKey } from "../../../../core/agent/mod.ts";
import { askHarnessBusy } from "../../../../core/agent_bridge/door/mod.ts";
import {
  type HarnessServer,
  type LoadedAgent,
  loadServedAgent,
  serveHarness,
} from "../../../../core/harness/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { FakeClock, runJson, type TempHome, tempHome } from "../../../support/mod.ts";
import { doorOver, IDLE_AFTER_MS, untilState } from "./_support.ts";
import { type AgentStarter } from "../../../../core/agent/launch/mod.ts";

/** Link Harness in this process for one agent of a temp home: started and stopped as the door says. */
class LinkHarnessAgent implements AgentStarter {
  starts = 0;
  stops = 0;
  server: HarnessServer | undefined;
  #loaded: LoadedAgent | undefined;
  #socket: string;
  #home: TempHome;
  #agent: { id: string; name: string; key: AgentKey };

  constructor(socket: string, home: TempHome, agent: { id: string; name: string; key: AgentKey }) {
    this.#socket = socket;
    this.#home = home;
    this.#agent = agent;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<void> {
    const { id, name, key } = this.#agent;
    this.#loaded = await loadServedAgent({ id, name, key: encodeKey(key) }, {
      paths: this.#home.paths,
      env: this.#home.env,
    });
    this.server = await serveHarness({
      agents: [{ agent: this.#loaded.agent, key: this.#loaded.key }],
      socket: this.#socket,
    });
    this.starts++;
  }

  async stop(): Promise<void> {
    await this.server?.[Symbol.asyncDispose]();
    await this.#loaded?.store[Symbol.asyncDispose]();
    this.server = undefined;
    this.#loaded = undefined;
    this.stops++;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.server ? this.stop() : Promise.resolve();
  }
}

/** A door on a fake clock over Link Harness in this process, for an agent calling a fake model. */
async function linkDoor() {
  const home = await tempHome();
  const model = await serveFakeModel();
  const created = await runJson<{ id: string }>(
    ["agent", "create", "work", "--harness", "link", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const key = await bindKey(home.paths, created.id);
  const agent = { id: created.id, name: "work", key };
  const clock = new FakeClock();
  const opened = await doorOver(
    home.path,
    clock,
    (socket) => new LinkHarnessAgent(socket, home, agent),
    { agentId: agent.id, agentName: agent.name, key },
  );
  await clock.waitForSleepers(1);
  return {
    ...opened,
    harness: opened.agent,
    socket: join(home.path, "endpoint.sock"),
    model,
    clock,
    async [Symbol.asyncDispose]() {
      await opened.door[Symbol.asyncDispose]();
      await model[Symbol.asyncDispose]();
      await home[Symbol.asyncDispose]();
    },
  };
}

Deno.test("GET /_link/busy answers Link Harness's running turns and held locks to a proven caller (PRC-10)", async () => {
  await using t = await linkDoor();
  assert.deepEqual(await askHarnessBusy(t.socket, t.caller), { turns: 0, locks: 0 });
  const lock = t.harness.server!.agents[0]!.locks.hold("a background build");
  assert.deepEqual(await askHarnessBusy(t.socket, t.caller), { turns: 0, locks: 1 });
  lock[Symbol.dispose]();
  assert.deepEqual(await askHarnessBusy(t.socket, t.caller), { turns: 0, locks: 0 });
  const wrong = { ...t.caller, key: crypto.getRandomValues(new Uint8Array(32)) };
  await assert.rejects(askHarnessBusy(t.socket, wrong), { name: "LinkError", code: "PROOF_FAILED" });
});

Deno.test("a running turn keeps the agent awake with nothing at its door; it sleeps once the turn ends (PRC-10)", async () => {
  await using t = await linkDoor();
  const reply = t.model.reply("Done at last", { hold: true });
  // A turn nobody waits for at the door (as a crashed turn finished at the harness's start is).
  await using endpoint = await openEndpoint({ path: t.socket }, t.caller);
  const meta = { "link.local/thread": "link:main" };
  await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
  const asking = endpoint.call("session/prompt", {
    sessionId: "link:main",
    prompt: [{ type: "text", text: "Build it" }],
    _meta: meta,
  });
  await reply.taken;
  await t.clock.advance(IDLE_AFTER_MS);
  assert.equal(await t.checks.next(), "turn");
  assert.deepEqual(await askHarnessBusy(t.socket, t.caller), { turns: 1, locks: 0 });
  assert.equal(t.door.state, "awake");
  reply.release();
  assert.deepEqual((await asking).result, { stopReason: "end_turn" });
  await t.harness.server!.agents[0]!.settled();
  await t.clock.advance(IDLE_AFTER_MS);
  assert.equal(await t.checks.next(), "sleep");
  await untilState(t.door, "asleep");
  assert.deepEqual({ starts: t.harness.starts, stops: t.harness.stops }, { starts: 1, stops: 1 });
});

Deno.test("a background command holding its lock keeps the agent awake; it sleeps once the lock goes (PRC-10)", async () => {
  await using t = await linkDoor();
  const lock = t.harness.server!.agents[0]!.locks.hold("a background build");
  await t.clock.advance(IDLE_AFTER_MS);
  assert.equal(await t.checks.next(), "lock");
  await t.clock.advance(IDLE_AFTER_MS);
  assert.equal(await t.checks.next(), "lock");
  assert.equal(t.door.state, "awake");
  lock[Symbol.dispose]();
  await t.clock.advance(IDLE_AFTER_MS);
  assert.equal(await t.checks.next(), "sleep");
  await untilState(t.door, "asleep");
});
