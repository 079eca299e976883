import assert from "node:assert/strict";
import { Secret } from "../../core/base/mod.ts";
import { proxyBaseUrl } from "../../proxy/mod.ts";
import {
  basicAuth,
  fakeResolver,
  fakeUpstream,
  recordingDial,
  SECRET,
  startProxy,
} from "../support/proxy.ts";

Deno.test("serveProxy() forwards the base-URL form to an allowed host, dialling the checked address (SBX-19)", async () => {
  await using upstream = fakeUpstream(() => new Response("models", { headers: { "x-from": "upstream" } }));
  const { dialled, dial } = recordingDial(upstream.port);
  const { asked, resolve } = fakeResolver();
  await using proxy = await startProxy({ dial, resolve });
  const res = await fetch(proxyBaseUrl(proxy.port!, SECRET, "https://api.openai.com/v1/models?limit=2"), {
    headers: { "x-caller": "harness" },
  });
  assert.deepEqual([res.status, res.headers.get("x-from"), await res.text()], [200, "upstream", "models"]);
  assert.deepEqual(dialled, [["104.18.7.192", 443]]);
  assert.deepEqual(asked, ["api.openai.com"]);
  assert.equal(upstream.calls.length, 1);
  const call = upstream.calls[0]!;
  assert.deepEqual([call.method, call.path, call.headers.host, call.headers["x-caller"]], [
    "GET",
    "/v1/models?limit=2",
    "api.openai.com",
    "harness",
  ]);
});

Deno.test("serveProxy() carries request bodies of known length and chunked ones", async () => {
  await using upstream = fakeUpstream((req) => new Response(`got ${req.headers.get("content-type")}`));
  await using proxy = await startProxy({ dial: recordingDial(upstream.port).dial });
  const url = proxyBaseUrl(proxy.port!, SECRET, "http://example.com/upload");
  const sized = await fetch(url, { method: "POST", body: "a=1", headers: { "content-type": "text/plain" } });
  assert.equal(await sized.text(), "got text/plain");
  const stream = ReadableStream.from(["part one, ", "part two"].map((s) => new TextEncoder().encode(s)));
  const chunked = await fetch(url, { method: "PUT", body: stream, headers: { "content-type": "text/x" } });
  assert.equal(await chunked.text(), "got text/x");
  assert.deepEqual(upstream.calls.map((c) => [c.method, c.body]), [["POST", "a=1"], [
    "PUT",
    "part one, part two",
  ]]);
});

Deno.test("serveProxy() adds a known provider's key upstream while the caller holds only the placeholder (SBX-16)", async () => {
  await using upstream = fakeUpstream();
  const { dialled, dial } = recordingDial(upstream.port);
  const keys = [{
    host: "api.openai.com",
    header: "authorization",
    value: new Secret("sk-real-key"),
    placeholder: "link-placeholder",
  }];
  await using proxy = await startProxy({ dial, keys });
  const sent = { authorization: "Bearer link-placeholder" };
  for (
    const target of [
      "https://api.openai.com/v1/chat",
      "http://api.openai.com/v1/chat",
      "https://example.com/",
    ]
  ) {
    await (await fetch(proxyBaseUrl(proxy.port!, SECRET, target), { headers: sent })).text();
  }
  assert.deepEqual(sent, { authorization: "Bearer link-placeholder" });
  assert.deepEqual(upstream.calls.map((c) => c.headers.authorization), [
    "Bearer sk-real-key",
    // Never in plain text, and never to a host the key is not for.
    "Bearer link-placeholder",
    "Bearer link-placeholder",
  ]);
  assert.deepEqual(dialled, [["104.18.7.192", 443], ["104.18.7.192", 80], ["93.184.216.34", 443]]);
});

Deno.test("serveProxy() passes a streamed response through chunk by chunk", async () => {
  const next = Promise.withResolvers<void>();
  const encoder = new TextEncoder();
  await using upstream = fakeUpstream(() =>
    new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(encoder.encode("data: first\n\n"));
          await next.promise;
          controller.enqueue(encoder.encode("data: second\n\n"));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    )
  );
  await using proxy = await startProxy({ dial: recordingDial(upstream.port).dial });
  const res = await fetch(proxyBaseUrl(proxy.port!, SECRET, "https://api.openai.com/v1/chat/completions"));
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  // The first event arrives while the upstream still holds back the second.
  assert.deepEqual(await reader.read(), { done: false, value: "data: first\n\n" });
  next.resolve();
  assert.deepEqual(await reader.read(), { done: false, value: "data: second\n\n" });
  assert.deepEqual(await reader.read(), { done: true, value: undefined });
});

Deno.test("serveProxy() forwards the absolute-URI form with the secret as the proxy password", async () => {
  await using upstream = fakeUpstream(() => new Response("forwarded"));
  const { dialled, dial } = recordingDial(upstream.port);
  await using proxy = await startProxy({ dial });
  using client = Deno.createHttpClient({
    proxy: {
      url: `http://127.0.0.1:${proxy.port}`,
      basicAuth: { username: "link", password: SECRET.reveal() },
    },
  });
  const res = await fetch("http://example.com/hello?x=1", { client });
  assert.deepEqual([res.status, await res.text()], [200, "forwarded"]);
  assert.deepEqual(dialled, [["93.184.216.34", 80]]);
  const call = upstream.calls[0]!;
  assert.deepEqual([call.path, call.headers.host, call.headers["proxy-authorization"]], [
    "/hello?x=1",
    "example.com",
    undefined,
  ]);
});

Deno.test("serveProxy() tunnels CONNECT bytes both ways to a tcp grant (SBX-11)", async () => {
  // A loopback fake of an SSH-like server: speaks first, then answers each read in upper case.
  const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const served = (async () => {
    const conn = await server.accept();
    await conn.write(new TextEncoder().encode("SSH-2.0-fake\n"));
    let received = "";
    const buffer = new Uint8Array(1024);
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      const text = new TextDecoder().decode(buffer.subarray(0, n));
      received += text;
      await conn.write(new TextEncoder().encode(text.toUpperCase()));
    }
    conn.close();
    return received;
  })();
  const { dialled, dial } = recordingDial(server.addr.port);
  await using proxy = await startProxy({ dial, policy: { tcp: ["github.com:22"] } });
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: proxy.port! });
  const head = `CONNECT github.com:22 HTTP/1.1\r\nHost: github.com:22\r\nProxy-Authorization: ${
    basicAuth(SECRET.reveal())
  }\r\n\r\n`;
  // Bytes sent right behind the head reach the server too.
  await conn.write(new TextEncoder().encode(`${head}ssh-2.0-client\n`));
  await conn.closeWrite();
  const answer = await new Response(conn.readable).text();
  server.close();
  assert.deepEqual(answer, "HTTP/1.1 200 Connection Established\r\n\r\nSSH-2.0-fake\nSSH-2.0-CLIENT\n");
  assert.deepEqual(await served, "ssh-2.0-client\n");
  assert.deepEqual(dialled, [["140.82.121.4", 22]]);
});
