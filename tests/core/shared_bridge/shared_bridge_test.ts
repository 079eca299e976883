import assert from "node:assert/strict";
import { join } from "node:path";
import { bridgeErrorCode } from "../../../link_bridge/mod.ts";
import { loadSettings, services, storeSocketPath } from "../../../core/agent/mod.ts";
import { bridgeStore } from "../../../core/harness/store/mod.ts";
import { openEndpoint } from "../../../connections/mod.ts";
import { runCli, runJson } from "../../support/mod.ts";
import { processesNaming } from "../../support/agent_processes.ts";
import {
  bridgesLog,
  createAgent,
  keyOf,
  prompt,
  sharedHome,
  type Status,
  waitForLog,
} from "../../support/shared_bridge.ts";
import { askSharedBridge } from "../../../core/agent/sharing/mod.ts";

// Real processes throughout: `lnk agent start` in this process, the shared bridge, its runners and
// each agent's service under the detached backend, the mini harness in its sandbox.

async function failsWith(call: Promise<unknown>, code: string): Promise<void> {
  const err = await call.then(() => undefined, (e) => e);
  assert.ok(err instanceof Error, `expected the call to fail with "${code}"`);
  assert.equal(bridgeErrorCode(err) ?? (err as { code?: string }).code, code);
}

Deno.test("shared_bridge: one bridge process carries two agents, each door and store answering only its own key (PRC-6, BRG-15)", async () => {
  await using home = await sharedHome();
  const a = await createAgent(home, "alpha");
  const b = await createAgent(home, "beta");
  const startedA = await runJson<Status>(["agent", "start", "--agent", "alpha"], home);
  const startedB = await runJson<Status>(["agent", "start", "--agent", "beta"], home);
  const bridgePid = startedA.services.bridge.pid!;
  assert.deepEqual(
    [startedA, startedB].map((s) => ({ state: s.state, bridge: s.bridge, pid: s.services.bridge.pid })),
    [{ state: "running", bridge: "shared", pid: bridgePid }, {
      state: "running",
      bridge: "shared",
      pid: bridgePid,
    }],
  );
  assert.match(await Deno.readTextFile(`/proc/${bridgePid}/cmdline`), /agent\0bridges\0?$/);
  // The shared bridge runs each agent itself (PRC-13): each sandbox is its child.
  for (const s of [startedA, startedB]) {
    const status = await Deno.readTextFile(`/proc/${s.services.agent.pid}/status`);
    assert.equal(Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]), bridgePid);
  }
  // No bridge of their own: the shared one is the only bridge service.
  const run = (await Array.fromAsync(Deno.readDir(home.paths.run))).map((e) => e.name);
  assert.deepEqual(run.filter((n) => n.startsWith("lnk-bridge") && n.endsWith(".pid")), ["lnk-bridges.pid"]);
  assert.equal(await prompt(home, { id: a.id, port: startedA.ports.endpoint }, "hi A"), "mini: hi A");
  assert.equal(await prompt(home, { id: b.id, port: startedB.ports.endpoint }, "hi B"), "mini: hi B");
  const keyA = await keyOf(home, a.id);
  const keyB = await keyOf(home, b.id);
  // A caller holding A's key never gets B's endpoint to prove itself.
  await assert.rejects(
    openEndpoint({ port: startedB.ports.endpoint }, { agentId: b.id, agentName: "beta", key: keyA }),
    { name: "LinkError", code: "PROOF_FAILED" },
  );
  // B's store bridge: A as itself is refused, A's key claiming B is unproven, B's own key opens it.
  const ownerA = (await loadSettings(home.paths, a.id)).owner;
  const ownerB = (await loadSettings(home.paths, b.id)).owner;
  const socketB = storeSocketPath(home.paths, b.id);
  await using aAtB = bridgeStore({ socket: socketB, agentId: a.id, owner: ownerA, key: keyA });
  await failsWith(aAtB.list(), "refused");
  await using aAsB = bridgeStore({ socket: socketB, agentId: b.id, owner: ownerB, key: keyA });
  await failsWith(aAsB.list(), "unproven");
  await using bAtB = bridgeStore({ socket: socketB, agentId: b.id, owner: ownerB, key: keyB });
  assert.deepEqual(await bAtB.list(), []);
  const text = await runCli(["agent", "status", "--agent", "alpha"], home);
  assert.match(
    text.stdout,
    new RegExp(`services: shared bridge running \\(pid ${bridgePid}\\), agent running`),
  );
});

Deno.test("an idle agent on the shared bridge holds no process at all; a message wakes it (PRC-6, PRC-8)", async () => {
  await using home = await sharedHome();
  const { id } = await createAgent(home, "work", { idleAfter: "2s" });
  const started = await runJson<Status>(["agent", "start"], home);
  await waitForLog(bridgesLog(home), (e) => e.msg === "Agent asleep" && e.agent === id);
  assert.deepEqual(await processesNaming(id), []);
  const asleep = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual(
    { state: asleep.state, bridge: asleep.services.bridge, agent: asleep.services.agent.running },
    { state: "asleep", bridge: started.services.bridge, agent: false },
  );
  assert.equal(await prompt(home, { id, port: started.ports.endpoint }, "wake"), "mini: wake");
  const woken = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual([woken.state, woken.services.bridge], ["running", started.services.bridge]);
  await runJson(["agent", "stop"], home);
  assert.deepEqual(await processesNaming(id), []);
});

Deno.test("stopping the agent that started the shared bridge leaves it serving the other (PRC-16); lnk agent logs shows its own lines of the shared log", async () => {
  await using home = await sharedHome();
  const a = await createAgent(home, "alpha");
  const b = await createAgent(home, "beta");
  const startedA = await runJson<Status>(["agent", "start", "--agent", "alpha"], home);
  const startedB = await runJson<Status>(["agent", "start", "--agent", "beta"], home);
  const stoppedA = await runJson<Status>(["agent", "stop", "--agent", "alpha"], home);
  assert.equal(stoppedA.state, "stopped");
  assert.equal(await services.processAlive(startedA.services.agent.pid!), false);
  const statusB = await runJson<Status>(["agent", "status", "--agent", "beta"], home);
  assert.deepEqual([statusB.state, statusB.services.bridge], ["running", startedA.services.bridge]);
  assert.equal(await prompt(home, { id: b.id, port: startedB.ports.endpoint }, "still"), "mini: still");
  // A's door is closed: nothing holds its port now.
  await assert.rejects(
    Deno.connect({ hostname: "127.0.0.1", port: startedA.ports.endpoint }),
    Deno.errors.ConnectionRefused,
  );
  const logs = await runCli(["agent", "logs", "--agent", "alpha"], home);
  assert.match(logs.stdout, new RegExp(`^shared bridge: .*"msg":"Door open","agent":"${a.id}"`, "m"));
  assert.match(
    logs.stdout,
    new RegExp(`^shared bridge: .*"msg":"Agent off the shared bridge","agent":"${a.id}"`, "m"),
  );
  assert.doesNotMatch(logs.stdout, new RegExp(b.id));
});

Deno.test("a killed shared bridge reads as died, and the next lnk agent start starts it again carrying every agent on its list", async () => {
  await using home = await sharedHome();
  const a = await createAgent(home, "alpha");
  const b = await createAgent(home, "beta");
  await runJson<Status>(["agent", "start", "--agent", "alpha"], home);
  const startedB = await runJson<Status>(["agent", "start", "--agent", "beta"], home);
  const old = startedB.services.bridge.pid!;
  const pidFile = JSON.parse(await Deno.readTextFile(join(home.paths.run, "lnk-bridges.pid"))) as {
    pid: number;
  };
  assert.equal(pidFile.pid, old);
  const runners = (await askSharedBridge(home.paths))!.runners;
  assert.equal(runners.length, 1);
  Deno.kill(old, "SIGKILL");
  assert.equal(await services.waitForExit(old, 5000), true);
  // Its runner sees its parent gone (its stdin closes) and ends with it.
  assert.equal(await services.waitForExit(runners[0]!.pid, 5000), true);
  const died = await runJson<Status>(["agent", "status", "--agent", "beta"], home);
  assert.deepEqual([died.state, died.reason], ["died", "the shared bridge stopped unbidden"]);
  const again = await runJson<Status>(["agent", "start", "--agent", "alpha"], home);
  const fresh = again.services.bridge.pid!;
  assert.notEqual(fresh, old);
  assert.deepEqual([again.state, again.bridge], ["running", "shared"]);
  // B was on its list: carried again, asleep (its harness ended with the bridge that ran it) until a message.
  assert.equal(await services.processAlive(startedB.services.agent.pid!), false);
  const statusB = await runJson<Status>(["agent", "status", "--agent", "beta"], home);
  assert.deepEqual([statusB.state, statusB.services.bridge.pid], ["asleep", fresh]);
  assert.equal(await prompt(home, { id: b.id, port: startedB.ports.endpoint }, "back"), "mini: back");
  const wokenB = await runJson<Status>(["agent", "status", "--agent", "beta"], home);
  assert.equal(wokenB.state, "running");
  assert.equal(await prompt(home, { id: a.id, port: again.ports.endpoint }, "new"), "mini: new");
});

Deno.test("the shared bridge ends after its linger with no agent, and an agent started meanwhile keeps it (PRC-15; LNK_BRIDGES_LINGER shortens it for this test)", async () => {
  await using home = await sharedHome();
  await createAgent(home, "work");
  const first = await runJson<Status>(["agent", "start"], home);
  const pid = first.services.bridge.pid!;
  await runJson(["agent", "stop"], home);
  // Started again at once, well within the 20 s linger: the same bridge.
  const again = await runJson<Status>(["agent", "start"], home);
  assert.equal(again.services.bridge.pid, pid);
  await runJson(["agent", "stop"], home);
  home.env.set("LNK_BRIDGES_LINGER", "1s");
  // A bridge started with the short linger: it ends 1 s after its last agent.
  Deno.kill(pid, "SIGTERM");
  assert.equal(await services.waitForExit(pid, 5000), true);
  const short = await runJson<Status>(["agent", "start"], home);
  const shortPid = short.services.bridge.pid!;
  assert.notEqual(shortPid, pid);
  await runJson(["agent", "stop"], home);
  await waitForLog(bridgesLog(home), (e) => e.msg === "Shared bridge ended after its linger");
  assert.equal(await services.waitForExit(shortPid, 5000), true);
  const status = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual([status.state, status.bridge], ["stopped", "own"]);
});
