import assert from "node:assert/strict";
import { agentContext, bindKey, updateSettings } from "../../../core/agent/mod.ts";
import { serveBridgesControl, SharedBridge } from "../../../core/shared_bridge/mod.ts";
import { runCli, runJson } from "../../support/mod.ts";
import { processesNaming } from "../../support/agent_processes.ts";
import { createAgent, sharedHome, type Status } from "../../support/shared_bridge.ts";
import { putOnSharedBridge } from "../../../core/agent/sharing/mod.ts";
import { askSharedBridge } from "../../../core/agent/sharing/mod.ts";

Deno.test("lnk agent start on the shared bridge says why the agent could not wake, with the harness's own hint, and leaves it off the bridge", async () => {
  await using home = await sharedHome();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${closed.addr.port}/v1`;
  closed.close(); // a model server that is not there: Link Harness cannot pick a model at start
  await runJson(["agent", "create", "work", "--harness", "link", "--model-url", url], home);
  const result = await runCli(["agent", "start"], home);
  // Tests run side by side: another's agent may hold this one's first ports, and it moves (PRT-4).
  result.stderr = result.stderr.replace(/^(Moved agent "work" to ports .*\n)+/, "");
  assert.deepEqual(result, {
    code: 1,
    stdout: "",
    stderr: `error: Cannot start agent "work": Cannot wake agent "work": Cannot pick a model at "${url}": ` +
      "none is named and none is listed there\n  hint: Name the model with --model\n",
  });
  const status = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual([status.state, status.bridge], ["stopped", "own"]);
  assert.deepEqual(await processesNaming(status.id), []);
  await assert.rejects(Deno.stat(home.paths.keyFile(status.id)), Deno.errors.NotFound);
  const bridge = (await askSharedBridge(home.paths))!;
  assert.deepEqual([bridge.agents, bridge.failed, bridge.lingering], [[], [], true]);
});

Deno.test("SharedBridge: an agent whose port another program holds is not carried and its sync says PORT_UNAVAILABLE; the others are carried (PRT-4)", async () => {
  await using home = await sharedHome();
  const ctx = agentContext(home.env, { home: home.path });
  const taken = await createAgent(home, "taken");
  const free = await createAgent(home, "free");
  using squatter = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const setPort = (id: string, endpoint: number) =>
    updateSettings(home.paths, id, (s) => ({ ...s, ports: { ...s.ports, endpoint } }));
  await setPort(taken.id, squatter.addr.port);
  // Tests run side by side and each home numbers its ports alike: "free" gets one no test holds.
  const spare = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  spare.close();
  await setPort(free.id, spare.addr.port);
  for (const { id } of [taken, free]) {
    await bindKey(home.paths, id);
    await putOnSharedBridge(home.paths, id);
  }
  await using bridge = await SharedBridge.open({ ctx });
  await using _control = await serveBridgesControl(Promise.resolve(bridge), home.paths);
  const answer = await bridge.sync({ agent: taken.id });
  assert.deepEqual([answer.agent, answer.error?.code], [null, "PORT_UNAVAILABLE"]);
  const seen = bridge.snapshot();
  assert.deepEqual(seen.agents.map((a) => [a.id, a.state]), [[free.id, "asleep"]]);
  assert.deepEqual(seen.failed.map((f) => [f.id, f.error.code]), [[taken.id, "PORT_UNAVAILABLE"]]);
  // What lnk agent status says of it: on the list, not carried, and why.
  const status = await runJson<Status>(["agent", "status", "--agent", "taken"], home);
  assert.equal(status.state, "died");
  assert.match(
    status.reason!,
    /^the shared bridge cannot carry it: Cannot open the agent's door: port \d+ is taken/,
  );
});
