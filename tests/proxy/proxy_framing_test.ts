import assert from "node:assert/strict";
import { fakeUpstream, rawExchange, recordingDial, SECRET, startProxy } from "../support/proxy.ts";

/** A loopback upstream that answers every connection with `answer` as raw bytes, then closes. */
function rawUpstream(answer: string) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const heads: string[] = [];
  const serving = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(4096);
      const n = await conn.read(buffer);
      heads.push(new TextDecoder().decode(buffer.subarray(0, n ?? 0)));
      await conn.write(new TextEncoder().encode(answer));
      conn.close();
    }
  })();
  return {
    port: listener.addr.port,
    heads,
    async [Symbol.asyncDispose]() {
      listener.close();
      await serving.catch(() => {});
    },
  };
}

const path = (target: string) => `/_link/s/${SECRET.reveal()}/${target}`;

Deno.test("serveProxy() re-chunks a body its upstream ends by closing, for an HTTP/1.1 caller", async () => {
  await using upstream = rawUpstream("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close");
  await using proxy = await startProxy({ dial: recordingDial(upstream.port).dial });
  const host = `127.0.0.1:${proxy.port}`;
  const answer = await rawExchange(
    { port: proxy.port! },
    `GET ${path("http/example.com/old")} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(
    answer,
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" +
      "b\r\nuntil close\r\n0\r\n\r\n",
  );
  assert.equal(
    upstream.heads[0],
    "GET /old HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n",
  );
});

Deno.test("serveProxy() answers pipelined requests on one connection, keeping HEAD's length and 204's emptiness", async () => {
  await using upstream = fakeUpstream((req) =>
    new URL(req.url).pathname === "/empty"
      ? new Response(null, { status: 204 })
      : new Response("twelve bytes")
  );
  await using proxy = await startProxy({ dial: recordingDial(upstream.port).dial });
  const host = `Host: 127.0.0.1:${proxy.port}\r\n`;
  const answer = await rawExchange(
    { port: proxy.port! },
    `HEAD ${path("https/example.com/a")} HTTP/1.1\r\n${host}\r\n` +
      `GET ${path("https/example.com/empty")} HTTP/1.1\r\n${host}\r\n` +
      `GET ${path("https/example.com/b")} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`,
  );
  const type = "content-type: text/plain;charset=UTF-8\r\n";
  assert.equal(
    answer.replace(/date: [^\r]*\r\n/g, ""),
    `HTTP/1.1 200 OK\r\n${type}Content-Length: 12\r\nConnection: keep-alive\r\n\r\n` +
      "HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n" +
      `HTTP/1.1 200 OK\r\n${type}Content-Length: 12\r\nConnection: close\r\n\r\ntwelve bytes`,
  );
  assert.deepEqual(upstream.calls.map((c) => [c.method, c.path]), [["HEAD", "/a"], ["GET", "/empty"], [
    "GET",
    "/b",
  ]]);
});

Deno.test("serveProxy() answers 100 Continue itself and sends the body on", async () => {
  await using upstream = fakeUpstream((_req, call) => new Response(`got ${call.body}`));
  await using proxy = await startProxy({ dial: recordingDial(upstream.port).dial });
  const conn = await Deno.connect({ port: proxy.port! });
  const head = `POST ${path("https/example.com/up")} HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\n` +
    "Content-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
  const buffer = new Uint8Array(64);
  const n = await conn.read(buffer);
  assert.equal(new TextDecoder().decode(buffer.subarray(0, n!)), "HTTP/1.1 100 Continue\r\n\r\n");
  await conn.write(new TextEncoder().encode("data"));
  const rest = await new Response(conn.readable).text();
  assert.ok(rest.startsWith("HTTP/1.1 200 OK\r\n") && rest.endsWith("\r\n\r\ngot data"));
  assert.equal(upstream.calls[0]!.headers.expect, undefined);
});
