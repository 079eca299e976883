import assert from "node:assert/strict";
import { join } from "node:path";
import { decodeKey } from "../../../core/base/mod.ts";
import { services } from "../../../core/agent/mod.ts";
import { openEndpoint } from "../../../connections/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

type Status = {
  name: string;
  id: string;
  state: string;
  sandbox: string;
  harness: string;
  ports: { endpoint: number; block: number };
  services: { agent: { running: boolean; pid?: number }; bridge: { running: boolean; pid?: number } };
  reason?: string;
};

Deno.test("lnk agent start runs the bridge and the agent as real processes; stop ends them", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const started = await runJson<Status>(["agent", "start"], home);
  assert.equal(started.state, "running");
  assert.equal(started.sandbox, "on");
  const pids = [started.services.agent.pid!, started.services.bridge.pid!];
  const [agentPid, bridgePid] = pids;
  const bridgeLine = await Deno.readTextFile(`/proc/${bridgePid}/cmdline`);
  assert.match(bridgeLine, new RegExp(`agent\\x00bridge\\x00--agent\\x00${started.id}`));
  // The bridge runs the agent itself (PRC-13): its sandbox is the bridge's child, the harness in it.
  const agentLine = await Deno.readTextFile(`/proc/${agentPid}/cmdline`);
  assert.match(agentLine, /^[^\0]*bwrap\0.*\0harness\0mini\0--socket\0/);
  const parent = /^PPid:\s+(\d+)/m.exec(await Deno.readTextFile(`/proc/${agentPid}/status`))?.[1];
  assert.equal(Number(parent), bridgePid);
  const status = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual(status.services, started.services);
  const stopped = await runJson<Status>(["agent", "stop"], home);
  assert.equal(stopped.state, "stopped");
  for (const pid of pids) assert.equal(await services.processAlive(pid), false);
});

Deno.test("the agent's key is made at each start in a 0700 folder as a 0600 file, and gone at stop (BRG-7)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "start"], home);
  const keyPath = home.paths.keyFile(id);
  assert.equal((await Deno.stat(home.paths.keys)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(keyPath)).mode! & 0o777, 0o600);
  const first = await Deno.readTextFile(keyPath);
  assert.equal(decodeKey(first).length, 32);
  await runJson(["agent", "stop"], home);
  await assert.rejects(Deno.stat(keyPath), Deno.errors.NotFound);
  await runJson(["agent", "start"], home);
  assert.notEqual(await Deno.readTextFile(keyPath), first);
  await runJson(["agent", "stop"], home);
});

Deno.test("a message reaches the harness through the door after the endpoint proves the key (BRG-1)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  const status = await runJson<Status>(["agent", "start"], home);
  const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
  await using endpoint = await openEndpoint({ port: status.ports.endpoint }, {
    agentId: id,
    agentName: "work",
    key,
  });
  const session = await endpoint.call("session/new", {
    cwd: "/",
    mcpServers: [],
    _meta: { "link.local/thread": "link:main" },
  });
  assert.deepEqual(session.result, { sessionId: "link:main" });
  const chunks: string[] = [];
  const answer = await endpoint.call(
    "session/prompt",
    { sessionId: "link:main", prompt: [{ type: "text", text: "hello" }] },
    (u) => chunks.push(String((u.content as { text: string }).text)),
  );
  assert.deepEqual(answer.result, { stopReason: "end_turn" });
  assert.deepEqual(chunks, ["mini: ", "hello"]);
});

Deno.test("a caller with the wrong key learns nothing: the endpoint's proof fails and nothing is sent (PRT-6)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  const status = await runJson<Status>(["agent", "start"], home);
  const wrong = crypto.getRandomValues(new Uint8Array(32));
  await assert.rejects(
    openEndpoint({ port: status.ports.endpoint }, { agentId: id, agentName: "work", key: wrong }),
    { name: "LinkError", code: "PROOF_FAILED" },
  );
});

Deno.test("a program squatting the agent's port is never handed a message: its proof fails (PRT-6)", async () => {
  using squatter = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const got: string[] = [];
  const serving = (async () => {
    for await (const conn of squatter) {
      const buf = new Uint8Array(4096);
      const n = await conn.read(buf);
      got.push(new TextDecoder().decode(buf.subarray(0, n ?? 0)));
      await conn.write(
        new TextEncoder().encode("HTTP/1.1 200 OK\r\nLink-Proof: 00\r\nContent-Length: 0\r\n\r\n"),
      );
      const more = await conn.read(buf);
      if (more !== null) got.push("MORE");
      conn.close();
      break;
    }
  })();
  const key = crypto.getRandomValues(new Uint8Array(32));
  await assert.rejects(
    openEndpoint({ port: squatter.addr.port }, { agentId: "abc", agentName: "work", key }),
    {
      code: "PROOF_FAILED",
    },
  );
  await serving;
  assert.equal(got.length, 1);
  assert.match(got[0]!, /^GET \/_link\/proof HTTP\/1.1/);
  assert.doesNotMatch(got[0]!, /session\/prompt/);
});

Deno.test("a port taken by another program at start moves the agent to a random block below 32768, and says so (PRT-4)", async () => {
  await using home = await tempHome();
  const created = await runJson<Status>(["agent", "create", "work", "--harness", "mini"], home);
  using _taken = Deno.listen({ hostname: "127.0.0.1", port: created.ports.endpoint });
  const result = await runCli(["agent", "start", "--json"], home);
  assert.equal(result.code, 0, result.stderr);
  const status = JSON.parse(result.stdout) as Status;
  assert.notEqual(status.ports.endpoint, created.ports.endpoint);
  assert.ok(status.ports.block + 9 < 32768 && status.ports.block % 10 === 0);
  assert.equal(
    result.stderr,
    `Moved agent "work" to ports ${status.ports.block}-${
      status.ports.block + 9
    }: port ${created.ports.endpoint} is taken by another program\n`,
  );
  const saved = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual(saved.ports, status.ports);
  assert.equal(saved.state, "running");
});

Deno.test("main moves too when another program holds its harness's default port (PRT-4)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "main", "--harness", "mini"], home);
  let squat: Deno.TcpListener | undefined;
  try {
    squat = Deno.listen({ hostname: "127.0.0.1", port: 18801 });
  } catch { /* someone holds it already: the start must move either way */ }
  try {
    const status = await runJson<Status>(["agent", "start"], home);
    assert.notEqual(status.ports.endpoint, 18801);
    assert.ok(status.ports.endpoint >= 20000 && status.ports.endpoint < 32768);
  } finally {
    squat?.close();
  }
});

Deno.test("status reports a service that died, never shows it running", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const started = await runJson<Status>(["agent", "start"], home);
  Deno.kill(started.services.agent.pid!, "SIGKILL");
  const backend = services.detachedBackend(home.paths);
  await services.waitForExit(started.services.agent.pid!, 5000);
  const status = await runJson<Status>(["agent", "status"], home);
  assert.equal(status.state, "died");
  assert.match(status.reason!, /^its harness stopped unbidden/);
  const text = await runCli(["agent", "status"], home);
  assert.match(text.stdout, /: DIED \(its harness stopped unbidden/);
  await backend.stop(services.serviceNames("agent", started.id));
});

Deno.test("lnk agent logs shows both services' log lines, labelled", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "start"], home);
  await runJson(["agent", "stop"], home);
  const logs = await runCli(["agent", "logs"], home);
  assert.equal(logs.code, 0);
  assert.match(logs.stdout, /^bridge: .*"msg":"Door open"/m);
  // The bridge runs the agent itself: its lines, and the harness's, are in the bridge's log.
  assert.match(logs.stdout, /^bridge: .*"msg":"Agent started"/m);
  assert.match(logs.stdout, /^bridge: .*"msg":"Agent stopped"/m);
});

Deno.test("starting a running agent says so and changes nothing", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const first = await runJson<Status>(["agent", "start"], home);
  const again = await runCli(["agent", "start", "--json"], home);
  assert.equal(again.code, 0);
  assert.equal(again.stderr, 'Agent "work" is running already\n');
  assert.deepEqual(JSON.parse(again.stdout).services, first.services);
});

Deno.test("a harness that is not installed is refused at start with a hint", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const settingsPath = home.paths.settingsToml(id);
  await Deno.writeTextFile(
    settingsPath,
    (await Deno.readTextFile(settingsPath)).replace('harness = "link"', 'harness = "nosuch"'),
  );
  const result = await runCli(["agent", "start"], home);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /Cannot start agent "work": harness "nosuch" is not installed\n {2}hint: Install its adapter \(lnk-nosuch/,
  );
  await assert.rejects(Deno.stat(join(home.paths.keys, id)), Deno.errors.NotFound);
});

Deno.test("lnk agent start --foreground runs the agent in this session until the wait is stopped", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  const controller = new AbortController();
  const ready = Promise.withResolvers<void>();
  const running = runCli(["agent", "start", "--foreground"], home, {
    signal: controller.signal,
    onNote: (text) => text.includes("runs in the foreground") && ready.resolve(),
  });
  await ready.promise;
  const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
  const status = await runJson<{ ports: { endpoint: number } }>(["agent", "status"], home);
  {
    await using endpoint = await openEndpoint({ port: status.ports.endpoint }, {
      agentId: id,
      agentName: "work",
      key,
    });
    assert.deepEqual(
      (await endpoint.call("session/new", { _meta: { "link.local/thread": "link:x" } })).result,
      { sessionId: "link:x" },
    );
  }
  controller.abort();
  const result = await running;
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'Stopped "work"\n');
  await assert.rejects(Deno.stat(home.paths.keyFile(id)), Deno.errors.NotFound);
});

Deno.test("lnk agent chat send reaches the mini harness, which keeps no answers (ADP-16)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "start"], home);
  const result = await runCli(["agent", "chat", "send", "hello there"], home);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout.trim(), "mini: hello there");
});
