import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { type FakeSignal, serveFakeSignal } from "../../fakes/fake_signal.ts";
import { sharedHome } from "../../support/shared_bridge.ts";
import { processesNaming, runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";

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
