import assert from "node:assert/strict";
import { checkSignalDaemon } from "../../../connections/signal/mod.ts";
import { serveFakeSignal, SIGNAL_CLI_VERSION } from "../../fakes/fake_signal.ts";

Deno.test("checkSignalDaemon() says nothing answers at an address where nothing listens", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  await assert.rejects(checkSignalDaemon({ daemonUrl: `http://127.0.0.1:${port}` }), {
    name: "LinkError",
    code: "SERVICE_FAILED",
    message: `Cannot reach a signal-cli daemon at "http://127.0.0.1:${port}": nothing answers`,
    hint:
      "Start the daemon as `signal-cli -a <number> daemon --http 127.0.0.1:<port> --receive-mode on-connection` and give its address",
  });
});

Deno.test("checkSignalDaemon() says a server that answers other than signal-cli's JSON-RPC is not the daemon", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("<html>"),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  await assert.rejects(checkSignalDaemon({ daemonUrl: url }), {
    name: "LinkError",
    code: "SERVICE_FAILED",
    message: `Cannot use the signal-cli daemon at "${url}": it answers, but not as signal-cli's JSON-RPC`,
  });
});

const REGISTER_HINT =
  "Register or link the number with signal-cli (`signal-cli -a <number> register`, then `verify`), then start the daemon as `signal-cli -a <number> daemon --http 127.0.0.1:<port> --receive-mode on-connection`";

Deno.test("checkSignalDaemon() of a daemon started with -a: the number given is the one it serves; none given is a usage error", async () => {
  await using fake = await serveFakeSignal({ account: "+15550001234" });
  assert.deepEqual(await checkSignalDaemon({ daemonUrl: fake.url, number: "+15550001234" }), {
    number: "+15550001234",
    version: SIGNAL_CLI_VERSION,
  });
  await assert.rejects(checkSignalDaemon({ daemonUrl: fake.url }), {
    name: "LinkError",
    code: "USAGE",
    message: `Cannot tell which number the signal-cli daemon at "${fake.url}" serves`,
    hint: "Give the agent's own Signal number (the daemon's account) with --account",
  });
  assert.deepEqual(fake.calls.map((c) => [c.method, c.params]), [
    ["version", {}],
    ["listAccounts", {}],
    ["version", {}],
    ["listAccounts", {}],
  ]);
});

Deno.test("checkSignalDaemon() of a daemon serving every account: its one number found, or the number given when it serves it", async () => {
  await using fake = await serveFakeSignal({ account: "+15550001234", multiAccount: true });
  const served = { number: "+15550001234", version: SIGNAL_CLI_VERSION };
  assert.deepEqual(await checkSignalDaemon({ daemonUrl: fake.url }), served);
  assert.deepEqual(await checkSignalDaemon({ daemonUrl: `${fake.url}/`, number: "+15550001234" }), served);
});

Deno.test("checkSignalDaemon() says a number the daemon does not serve, with how to register it", async () => {
  await using fake = await serveFakeSignal({ account: "+15550001234", multiAccount: true });
  await assert.rejects(checkSignalDaemon({ daemonUrl: fake.url, number: "+15559999999" }), {
    name: "LinkError",
    code: "SERVICE_FAILED",
    message:
      `Cannot use the Signal number "+15559999999": the signal-cli daemon at "${fake.url}" does not serve it`,
    hint: REGISTER_HINT,
  });
});

Deno.test("checkSignalDaemon() of a daemon serving several accounts asks which, naming them", async () => {
  await using fake = await serveFakeSignal({
    account: "+15550001234",
    multiAccount: true,
    otherAccounts: ["+15550005678"],
  });
  await assert.rejects(checkSignalDaemon({ daemonUrl: fake.url }), {
    name: "LinkError",
    code: "USAGE",
    message: `Cannot tell which number to use: the signal-cli daemon at "${fake.url}" serves several`,
    hint: "Give the agent's own Signal number with --account: one of +15550001234, +15550005678",
  });
  assert.deepEqual(await checkSignalDaemon({ daemonUrl: fake.url, number: "+15550001234" }), {
    number: "+15550001234",
    version: SIGNAL_CLI_VERSION,
  });
});

Deno.test("checkSignalDaemon() says a daemon refusing its calls with a JSON-RPC error", async () => {
  await using fake = await serveFakeSignal();
  fake.failNext("version", { error: { code: -32603, message: "Internal error" } });
  await assert.rejects(checkSignalDaemon({ daemonUrl: fake.url, number: fake.account }), {
    name: "LinkError",
    code: "SERVICE_FAILED",
    message:
      `Cannot check the signal-cli daemon at "${fake.url}": The daemon refused version: Internal error`,
  });
});
