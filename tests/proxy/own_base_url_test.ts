import assert from "node:assert/strict";
import { proxyBaseUrl, proxyEnv, proxyUrl } from "../../proxy/mod.ts";
import {
  fakeResolver,
  fakeUpstream,
  rawExchange,
  recordingDial,
  SECRET,
  startProxy,
  statusAndReason,
} from "../support/proxy.ts";

Deno.test("serveProxy() reads a base-URL request sent through HTTP_PROXY to itself as the base-URL form (SBX-19)", async () => {
  await using upstream = fakeUpstream(() => new Response("completions"));
  const { dialled, dial } = recordingDial(upstream.port);
  await using proxy = await startProxy({ dial, resolve: fakeResolver().resolve });
  const target = proxyBaseUrl(proxy.port!, SECRET, "https://api.openai.com/v1/chat/completions");
  // What fetch does with HTTP_PROXY set: the absolute URI of the proxy's own address, to the proxy.
  const response = await rawExchange(
    { hostname: "127.0.0.1", port: proxy.port! },
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(statusAndReason(response)[0], "HTTP/1.1 200 OK");
  assert.match(response, /completions$/);
  assert.deepEqual(dialled, [["104.18.7.192", 443]]);
  assert.equal(upstream.calls[0]!.path, "/v1/chat/completions");
});

Deno.test("serveProxy() still refuses an absolute request to its own address without the secret in the path", async () => {
  await using proxy = await startProxy();
  const response = await rawExchange(
    { hostname: "127.0.0.1", port: proxy.port! },
    `GET http://127.0.0.1:${proxy.port}/_link/s/wrong-secret/https/api.openai.com/ HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\n\r\n`,
  );
  assert.deepEqual(statusAndReason(response), ["HTTP/1.1 403 Forbidden", "secret-wrong"]);
});

Deno.test("a Deno fetch with the proxy's variables set reaches the base-URL form", async () => {
  await using upstream = fakeUpstream(() => new Response("via env"));
  await using proxy = await startProxy({
    dial: recordingDial(upstream.port).dial,
    resolve: fakeResolver().resolve,
  });
  const env = proxyEnv(proxyUrl(proxy.port!, SECRET));
  using client = Deno.createHttpClient({ proxy: { url: env.HTTP_PROXY! } });
  const res = await fetch(proxyBaseUrl(proxy.port!, SECRET, "https://api.openai.com/v1/models"), { client });
  assert.deepEqual([res.status, await res.text()], [200, "via env"]);
});
