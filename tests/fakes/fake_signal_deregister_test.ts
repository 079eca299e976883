import assert from "node:assert/strict";
import { serveFakeSignal } from "./fake_signal.ts";

async function rpc(url: string, method: string, params: Record<string, unknown>) {
  const response = await fetch(`${url}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", method, params, id: 1 }),
  });
  return await response.json();
}

Deno.test("deregister() on a daemon of one account: each send answers signal-cli's 401, the stream stays until it shuts down", async () => {
  await using signal = await serveFakeSignal();
  const ada = signal.person("Ada");
  const events = await fetch(`${signal.url}/api/v1/events`);
  signal.deregister();
  const error = {
    code: -32603,
    message: "Failed to send message: [401] Authorization failed! (AuthorizationFailedException) " +
      "(UnexpectedErrorException)",
    data: null,
  };
  assert.deepEqual((await rpc(signal.url, "send", { recipient: [ada.number], message: "hi" })).error, error);
  assert.deepEqual((await rpc(signal.url, "sendTyping", { recipient: [ada.number] })).error, error);
  assert.deepEqual(signal.sent(ada), []);
  assert.equal(signal.streams.open, 1);
  await signal.goDown();
  await events.body?.cancel();
});

Deno.test("deregister() on a daemon of several accounts drops the account: its streams end, it is listed no more, requests naming it refused", async () => {
  await using signal = await serveFakeSignal({ multiAccount: true, otherAccounts: ["+15550000200"] });
  const ada = signal.person("Ada");
  const query = `?account=${encodeURIComponent(signal.account)}`;
  const events = await fetch(`${signal.url}/api/v1/events${query}`);
  signal.deregister();
  await events.text(); // its body ends
  assert.equal(signal.streams.open, 0);
  assert.deepEqual((await rpc(signal.url, "listAccounts", {})).result, [{ number: "+15550000200" }]);
  assert.deepEqual(
    (await rpc(signal.url, "send", { account: signal.account, recipient: [ada.number], message: "hi" }))
      .error,
    { code: -32602, message: "Specified account does not exist", data: null },
  );
  const refused = await fetch(`${signal.url}/api/v1/events${query}`);
  assert.deepEqual([refused.status, await refused.text()], [400, ""]);
});
