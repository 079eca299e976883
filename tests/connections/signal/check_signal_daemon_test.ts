import assert from "node:assert/strict";
import { checkSignalDaemon } from "../../../connections/signal/mod.ts";

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
