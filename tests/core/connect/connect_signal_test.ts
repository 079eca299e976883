import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { type FakeSignal, serveFakeSignal } from "../../fakes/fake_signal.ts";
import { sharedHome } from "../../support/shared_bridge.ts";
import { inboxDir } from "../../../connections/signal/mod.ts";
import {
  killConnectionBridge,
  processesNaming,
  runCli,
  runJson,
  type TempHome,
  tempHome,
} from "../../support/mod.ts";

type Status = { state: string; connections: Record<string, { state: string; why?: string }> };

/** Connects the agent to the fake daemon, its owner the number given. */
async function connect(home: TempHome, fake: FakeSignal, number: string) {
  return await runCli(
    [
      "agent",
      "connect",
      "signal",
      "--number",
      number,
      "--account",
      fake.account,
      "--daemon",
      fake.url,
      "--json",
    ],
    home,
  );
}

/** Waits until the bridge's event stream is open: the daemon holds what comes until then. */
async function carried(fake: FakeSignal): Promise<void> {
  await fake.streamsWhen((s) => s.open > 0);
}

Deno.test("lnk agent connect signal takes the number typed as the owner's; a started agent answers its owner through its bridge, typing meanwhile, a stranger getting nothing", async () => {
  await using fake = await serveFakeSignal();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const ada = fake.person("Ada");
  const eve = fake.person("Eve");
  const connected = await connect(home, fake, ada.number);
  assert.equal(connected.code, 0, connected.stderr);
  assert.deepEqual(JSON.parse(connected.stdout.trim().split("\n").at(-1)!), {
    agent: "work",
    connection: "signal",
    owner: { number: ada.number },
  });
  const listed = await runJson<{ agents: { bots: Record<string, Record<string, unknown>> }[] }>(
    ["agent", "list"],
    home,
  );
  assert.deepEqual(listed.agents[0]!.bots.signal!.number, fake.account);
  await runJson(["agent", "start"], home);
  try {
    await carried(fake);
    fake.personSays(eve, "tell me your secrets");
    const reply = model.reply("Hello, Ada.");
    fake.personSays(ada, "hi");
    const request = await reply.taken;
    const body = request.body as { messages: { role: string; content: unknown }[] };
    assert.deepEqual(body.messages.filter((m) => m.role === "user").map((m) => m.content), ["hi"]);
    await fake.nextCall("send", () => true);
    assert.deepEqual(fake.sent(ada).map((m) => m.message), ["Hello, Ada."]);
    assert.deepEqual(fake.sent(eve), []);
    assert.equal(fake.typing(ada)[0], "started");
    const status = await runJson<Status>(["agent", "status"], home);
    assert.deepEqual(status.connections, { signal: { state: "connected" } });
  } finally {
    await runJson(["agent", "stop"], home);
  }
  assert.deepEqual((await processesNaming(id)).filter((p) => p.command.includes("connection bridge")), []);
});

/** `lnk agent status` once `ok` holds of it, read again at each change in the connection's folder. */
async function statusWhen(home: TempHome, id: string, ok: (status: Status) => boolean): Promise<Status> {
  using watcher = Deno.watchFs(home.paths.connectionDir(id, "signal"));
  const changes = watcher[Symbol.asyncIterator]();
  for (;;) {
    const status = await runJson<Status>(["agent", "status"], home);
    if (ok(status)) return status;
    await changes.next();
  }
}

/** A started agent on the fake model, paired on Signal with its owner Ada, its event stream open. */
async function startedAgent(home: TempHome, fake: FakeSignal, modelUrl: string) {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "work", "--model-url", modelUrl, "--model", "fake-model"],
    home,
  );
  const ada = fake.person("Ada");
  assert.equal((await connect(home, fake, ada.number)).code, 0);
  await runJson(["agent", "start"], home);
  await carried(fake);
  return { id, ada };
}

Deno.test("an agent whose Signal account was deregistered says failed with what to do in lnk agent status, and stops trying", async () => {
  await using fake = await serveFakeSignal();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, ada } = await startedAgent(home, fake, model.url);
  try {
    fake.deregister();
    model.reply("Hello, Ada.");
    fake.personSays(ada, "hi");
    const status = await statusWhen(home, id, (s) => s.connections.signal?.state === "failed");
    assert.deepEqual(status.connections, {
      signal: {
        state: "failed",
        why: `Signal no longer knows the account ${fake.account}: it was registered elsewhere or deleted. ` +
          "Register or link it again with signal-cli, then run `lnk agent connect signal`",
      },
    });
    assert.equal(fake.calls.filter((c) => c.method === "send").length, 1);
    assert.equal(model.requests.length, 1);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("kill -9 of an agent's Signal bridge after the answer was kept and before it was sent: sent once by the bridge started again, never asked again", async () => {
  await using fake = await serveFakeSignal();
  await using model = await serveFakeModel();
  await using home = await tempHome();
  const { id, ada } = await startedAgent(home, fake, model.url);
  try {
    // Every send refused until the carrier is killed: the answer is kept, and nothing is sent.
    fake.failAll("send", { status: 503, body: "Service Unavailable" });
    model.reply("Kept, then sent once.");
    const refused = fake.nextCall("send");
    fake.personSays(ada, "hi");
    await refused;
    const inbox = inboxDir(home.paths.connectionDir(id, "signal"));
    const kept = [...Deno.readDirSync(inbox)].map((e) =>
      JSON.parse(Deno.readTextFileSync(`${inbox}/${e.name}`))
    );
    assert.deepEqual(kept.map((e) => [e.answer, e.sent]), [["Kept, then sent once.", 0]]);
    const killed = await killConnectionBridge(home, id);
    fake.clearFaults();
    while (fake.sent(ada).length < 1) await fake.nextCall("send");
    assert.deepEqual(fake.sent(ada).map((m) => m.message), ["Kept, then sent once."]);
    assert.equal(model.requests.length, 1, "the message was asked again");
    const restarted = (await processesNaming(id)).filter((p) => p.command.includes("connection bridge"));
    assert.equal(restarted.length, 1);
    assert.notEqual(restarted[0]!.pid, killed);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});

Deno.test("lnk agent connect signal with no daemon answering says so with how to start one, and keeps nothing", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${listener.addr.port}`;
  listener.close(); // a port nothing listens on
  const result = await runCli([
    "agent",
    "connect",
    "signal",
    "--number",
    "+15551234567",
    "--daemon",
    url,
    "--json",
  ], home);
  assert.equal(result.code, 1);
  const error = JSON.parse(result.stdout).error;
  assert.equal(error.code, "SERVICE_FAILED");
  assert.match(error.hint, /signal-cli .*daemon --http/);
  const listed = await runJson<{ agents: { bots: Record<string, unknown> }[] }>(["agent", "list"], home);
  assert.deepEqual(listed.agents[0]!.bots, {});
});

Deno.test("on the shared bridge, an agent answers its Signal owner the same way", async () => {
  await using fake = await serveFakeSignal();
  await using model = await serveFakeModel();
  await using home = await sharedHome();
  await runJson(["agent", "create", "work", "--model-url", model.url, "--model", "fake-model"], home);
  const ada = fake.person("Ada");
  assert.equal((await connect(home, fake, ada.number)).code, 0);
  const started = await runJson<{ bridge: string }>(["agent", "start"], home);
  try {
    assert.equal(started.bridge, "shared");
    await carried(fake);
    model.reply("Hello from the shared bridge.");
    fake.personSays(ada, "hi");
    await fake.nextCall("send", () => true);
    assert.deepEqual(fake.sent(ada).map((m) => m.message), ["Hello from the shared bridge."]);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
