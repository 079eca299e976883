import assert from "node:assert/strict";
import { join } from "node:path";
import { decodeKey } from "../../../../core/base/mod.ts";
import { services } from "../../../../core/agent/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../../support/mod.ts";
import { processesNaming, processTree } from "../../../support/agent_processes.ts";
import { logEntries, serviceLog, waitForLog } from "../../../support/service_log.ts";

// These tests run the real roles as processes (lnk agent start, the detached backend) and drive
// idle_after with a short value in the agent's spec, waiting on the services' log lines.

type Status = {
  id: string;
  state: string;
  ports: { endpoint: number };
  services: { agent: { running: boolean; pid?: number }; bridge: { running: boolean; pid?: number } };
  reason?: string;
};

/** Creates agent "work" on the mini harness with `[run] idle_after` as given. */
async function createAgent(home: TempHome, idleAfter: string): Promise<string> {
  const created = await runJson<{ id: string; folders: { config: string } }>(
    ["agent", "create", "work", "--harness", "mini"],
    home,
  );
  const spec = join(created.folders.config, "spec.toml");
  const text = await Deno.readTextFile(spec);
  await Deno.writeTextFile(spec, text.replace('idle_after = "5m"', `idle_after = "${idleAfter}"`));
  return created.id;
}

/** Sends one message to the agent's door as `lnk agent chat send` does; resolves with the answer. */
async function send(home: TempHome, id: string, port: number, text: string): Promise<string> {
  const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
  await using endpoint = await openEndpoint({ port }, { agentId: id, agentName: "work", key });
  const chunks: string[] = [];
  await endpoint.call(
    "session/prompt",
    { sessionId: "link:main", prompt: [{ type: "text", text }] },
    (u) => chunks.push(String((u.content as { text: string }).text)),
  );
  return chunks.join("");
}

function asleep(entry: { msg?: string }): boolean {
  return entry.msg === "Agent asleep";
}

Deno.test("an idle agent sleeps holding no process but its door; a message wakes it and is answered; status and list say so (PRC-10)", async () => {
  await using home = await tempHome();
  const id = await createAgent(home, "2s");
  const started = await runJson<Status>(["agent", "start"], home);
  assert.equal(started.state, "running");
  await waitForLog(serviceLog(home, "bridge", id), asleep);
  const sleeping = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual(
    { state: sleeping.state, agent: sleeping.services.agent.running, bridge: sleeping.services.bridge },
    { state: "asleep", agent: false, bridge: started.services.bridge },
  );
  const listed = await runJson<{ agents: { id: string; state: string }[] }>(["agent", "list"], home);
  assert.deepEqual(listed.agents.map((a) => [a.id, a.state]), [[id, "asleep"]]);
  // Its bridge and the bridge's scheduler runner (PRC-5: two processes an agent, idle or not).
  await waitForLog(serviceLog(home, "bridge", id), (e) => e.msg === "Runner started");
  const held = await processesNaming(id);
  const runner = held.find((p) => / scheduler runner --tz /.test(p.command));
  assert.ok(runner, "the bridge's scheduler runner runs");
  assert.deepEqual(held.map((p) => p.pid).sort(), [started.services.bridge.pid, runner.pid].sort());
  assert.equal(await send(home, id, started.ports.endpoint, "hello"), "mini: hello");
  const woken = await runJson<Status>(["agent", "status"], home);
  assert.equal(woken.state, "running");
  assert.notEqual(woken.services.agent.pid, started.services.agent.pid);
  const stopped = await runJson<Status>(["agent", "stop"], home);
  assert.equal(stopped.state, "stopped");
  assert.deepEqual(await processesNaming(id), []);
});

Deno.test("concurrent first messages to a sleeping agent share one wake", async () => {
  await using home = await tempHome();
  const id = await createAgent(home, "2s");
  const started = await runJson<Status>(["agent", "start"], home);
  const bridgeLog = serviceLog(home, "bridge", id);
  await waitForLog(bridgeLog, asleep);
  const answers = await Promise.all(
    ["one", "two", "three"].map((text) => send(home, id, started.ports.endpoint, text)),
  );
  assert.deepEqual(answers, ["mini: one", "mini: two", "mini: three"]);
  const wakes = await logEntries(bridgeLog, (e) => e.msg === "Agent awake");
  assert.equal(wakes.length, 2); // at start, then once for the three
});

Deno.test("a harness that died is seen at the next message, which starts the agent again and is answered", async () => {
  await using home = await tempHome();
  const id = await createAgent(home, "5m");
  const started = await runJson<Status>(["agent", "start"], home);
  // The harness the bridge runs: its sandbox (bubblewrap), the harness inside.
  const agentPid = started.services.agent.pid!;
  const harness = (await processTree(agentPid)).filter((p) => p.command.includes("harness mini"));
  Deno.kill(harness.at(-1)!.pid, "SIGKILL");
  await waitForLog(serviceLog(home, "bridge", id), (e) => e.msg === "Harness exited unbidden");
  assert.equal(await services.waitForExit(agentPid, 10_000), true);
  const died = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual(
    { state: died.state, reason: died.reason, agent: died.services.agent, bridge: died.services.bridge },
    {
      state: "died",
      reason: "its harness stopped unbidden: it exited with code 137",
      agent: { running: false, died: true },
      bridge: started.services.bridge,
    },
  );
  assert.equal(await send(home, id, started.ports.endpoint, "again"), "mini: again");
  const running = await runJson<Status>(["agent", "status"], home);
  assert.equal(running.state, "running");
  assert.notEqual(running.services.agent.pid, agentPid);
});

Deno.test("a wake that fails answers 503 with the error the agent gave, its code kept to Link's client, and the door stays open", async () => {
  await using home = await tempHome();
  const id = await createAgent(home, "2s");
  const started = await runJson<Status>(["agent", "start"], home);
  await waitForLog(serviceLog(home, "bridge", id), asleep);
  const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
  await Deno.remove(home.paths.keyFile(id)); // the agent cannot run without its key
  const res = await fetch(`http://127.0.0.1:${started.ports.endpoint}/_link/proof`);
  const error = {
    code: "AGENT_NOT_RUNNING",
    message: 'Cannot wake agent "work": Cannot run agent "work": it has no key bound',
    hint: "Start it with `lnk agent start`",
  };
  assert.deepEqual({ status: res.status, body: await res.json() }, { status: 503, body: { error } });
  // Link's client proves the door's 503 came from the agent's own door, and says its error as it is.
  const caller = { agentId: id, agentName: "work", key };
  const err = await openEndpoint({ port: started.ports.endpoint }, caller).then(() => undefined, (e) => e);
  assert.deepEqual({ code: err?.code, message: err?.message, hint: err?.hint }, error);
  const status = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual({ state: status.state, bridge: status.services.bridge }, {
    state: "asleep",
    bridge: started.services.bridge,
  });
});

Deno.test("lnk agent start --json keeps the code of the error the bridge failed with, through its error line (never its log)", async () => {
  await using home = await tempHome();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${closed.addr.port}/v1`;
  closed.close(); // the bridge's start of the harness fails CONFIG_INVALID, two processes down
  await runJson(["agent", "create", "work", "--harness", "link", "--model-url", url], home);
  const result = await runCli(["agent", "start", "--json"], home);
  result.stderr = result.stderr.replace(/^(Moved agent "work" to ports .*\n)+/, "");
  assert.deepEqual({ ...result, stdout: JSON.parse(result.stdout) }, {
    code: 1,
    stdout: {
      error: {
        code: "CONFIG_INVALID",
        message: `Cannot start agent "work": Cannot wake agent "work": Cannot pick a model at "${url}": ` +
          "none is named and none is listed there",
        hint: "Name the model with --model",
      },
    },
    stderr: "",
  });
});

Deno.test("lnk agent start says why the agent could not wake, with the harness's own hint, and leaves nothing running", async () => {
  await using home = await tempHome();
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${closed.addr.port}/v1`;
  closed.close(); // a model server that is not there: Link Harness cannot pick a model at start
  await runJson(["agent", "create", "work", "--harness", "link", "--model-url", url], home);
  const result = await runCli(["agent", "start"], home);
  // Tests side by side may hold this home's first ports: a move is said, then the failure.
  result.stderr = result.stderr.replace(/^(Moved agent "work" to ports .*\n)+/, "");
  assert.deepEqual(result, {
    code: 1,
    stdout: "",
    stderr: `error: Cannot start agent "work": Cannot wake agent "work": Cannot pick a model at "${url}": ` +
      "none is named and none is listed there\n  hint: Name the model with --model\n",
  });
  const status = await runJson<Status>(["agent", "status"], home);
  assert.equal(status.state, "stopped");
  assert.deepEqual(await processesNaming(status.id), []);
});
