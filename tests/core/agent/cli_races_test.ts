/**
 * `lnk` commands on one agent at once, as real processes started together (issue 9, item 12):
 * creates of one name, creates of many, starts of one agent.
 */
import assert from "node:assert/strict";
import { decodeKey } from "../../../core/base/mod.ts";
import { agentContext, blockPorts, listAgents, loadSettings } from "../../../core/agent/mod.ts";
import { openEndpoint } from "../../../connections/mod.ts";
import { type CliResult, runJson, runLnk, tempHome } from "../../support/mod.ts";

type Settings = { id: string; name: string; ports: { endpoint: number; block: number } };

function errorCode(result: CliResult): string | undefined {
  return result.code === 0
    ? undefined
    : (JSON.parse(result.stdout) as { error: { code: string } }).error.code;
}

Deno.test("attack: ten `lnk agent create same` at once make one agent with one folder; the other nine are refused", async () => {
  await using home = await tempHome();
  const runs = await Promise.all(
    Array.from(
      { length: 10 },
      () => runLnk(["agent", "create", "same", "--harness", "mini", "--json"], home),
    ),
  );
  assert.deepEqual(runs.map(errorCode).sort(), [...Array(9).fill("AGENT_EXISTS"), undefined]);
  const agents = await listAgents(agentContext(home.env, { home: home.path }));
  assert.deepEqual(agents.map((a) => a.name), ["same"]);
  const folders = await Array.fromAsync(Deno.readDir(home.paths.agentFolders));
  assert.deepEqual(folders.map((f) => f.name), ["same"]);
  const states = await Array.fromAsync(Deno.readDir(home.paths.agentsState));
  assert.equal(states.filter((e) => e.isDirectory && !e.name.startsWith(".")).length, 1);
});

Deno.test("attack: five creates of five agents at once each get a block of ports of their own (PRT-3)", async () => {
  await using home = await tempHome();
  const runs = await Promise.all(
    ["a1", "a2", "a3", "a4", "a5"].map((name) =>
      runLnk(["agent", "create", name, "--harness", "mini", "--json"], home)
    ),
  );
  assert.deepEqual(runs.map((r) => [r.code, r.stderr]), Array(5).fill([0, ""]));
  const made = runs.map((r) => JSON.parse(r.stdout) as Settings);
  const ports = made.flatMap((a) => blockPorts(a.ports.block));
  assert.equal(new Set(ports).size, 50, `blocks overlap: ${made.map((a) => a.ports.block).join(", ")}`);
});

Deno.test("attack: five `lnk agent start` at once, each moving off a taken port, leave it running once, on the ports its settings say", async () => {
  await using home = await tempHome();
  const created = await runJson<Settings>(["agent", "create", "work", "--harness", "mini"], home);
  // Another program holds its port: each start would move the agent to a block of its own (PRT-4).
  using _squatter = Deno.listen({ hostname: "127.0.0.1", port: created.ports.endpoint });
  const runs = await Promise.all(Array.from({ length: 5 }, () => runLnk(["agent", "start"], home)));
  const started = runs.filter((r) => r.code === 0 && r.stdout.startsWith('Started "work"\n'));
  assert.equal(started.length, 1, runs.map((r) => r.stdout + r.stderr).join("\n---\n"));
  for (const other of runs.filter((r) => r !== started[0])) {
    const busy =
      /^error: Cannot start agent "work": it is starting \(another `lnk agent start` runs, pid \d+\)\n/;
    assert.ok(
      (other.code === 1 && busy.test(other.stderr) &&
        other.stderr.endsWith(
          "  hint: Wait for that command to end, then run `lnk agent status` to see how it went\n",
        )) ||
        (other.code === 0 && other.stderr === 'Agent "work" is running already\n'),
      `${other.code}: ${other.stdout}${other.stderr}`,
    );
  }
  const settings = await loadSettings(home.paths, created.id);
  assert.notEqual(settings.ports.endpoint, created.ports.endpoint);
  const status = await runJson<{ state: string; ports: Settings["ports"] }>(["agent", "status"], home);
  assert.deepEqual({ state: status.state, ports: status.ports }, { state: "running", ports: settings.ports });
  // The door on the port the settings say answers for the agent: it proves its key.
  const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(settings.id)));
  await using endpoint = await openEndpoint(
    { port: settings.ports.endpoint },
    { agentId: settings.id, agentName: "work", key },
  );
  assert.ok(endpoint);
  await runJson(["agent", "stop"], home);
});

Deno.test("a start and a stop at once run one after the other: the agent ends running or stopped, never half", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const [start, stop] = await Promise.all([
    runLnk(["agent", "start"], home),
    runLnk(["agent", "stop"], home),
  ]);
  assert.equal(start.code, 0, start.stderr);
  assert.deepEqual(stop, { code: 0, stdout: 'Stopped "work"\n', stderr: "" });
  type Status = { state: string; services: { agent: { running: boolean }; bridge: { running: boolean } } };
  const status = await runJson<Status>(["agent", "status"], home);
  const up = status.state === "running";
  assert.deepEqual(
    { state: status.state, agent: status.services.agent.running, bridge: status.services.bridge.running },
    { state: up ? "running" : "stopped", agent: up, bridge: up },
  );
  await runJson(["agent", "stop"], home);
});
