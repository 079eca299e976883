import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type EndpointConn,
  type EndpointHandler,
  Http1Connection,
  readText,
  serveEndpoint,
} from "../../../connections/mod.ts";

async function served(handler: EndpointHandler): Promise<{ path: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-endpoint-" });
  const path = join(dir, "endpoint.sock");
  const server = await serveEndpoint({ path }, handler);
  return {
    path,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function connect(path: string): Promise<Http1Connection> {
  return new Http1Connection(await Deno.connect({ transport: "unix", path }));
}

async function get(http: Http1Connection, path: string): Promise<{ status: number; text: string }> {
  const res = await http.request({ method: "GET", path, headers: {} });
  return { status: res.status, text: await readText(res.body) };
}

Deno.test("serveEndpoint() answers requests in turn on a kept-alive connection, telling the handler which connection each came on", async () => {
  const seen = new Map<EndpointConn, number>();
  await using server = await served((req, conn) => {
    if (!seen.has(conn)) seen.set(conn, seen.size);
    return new Response(`${new URL(req.url).pathname} on ${seen.get(conn)}`);
  });
  const first = await connect(server.path);
  const second = await connect(server.path);
  try {
    assert.deepEqual(await get(first, "/a"), { status: 200, text: "/a on 0" });
    assert.deepEqual(await get(second, "/b"), { status: 200, text: "/b on 1" });
    assert.deepEqual(await get(first, "/c"), { status: 200, text: "/c on 0" });
    assert.deepEqual(await get(second, "/d"), { status: 200, text: "/d on 1" });
  } finally {
    first.close();
    second.close();
  }
});

Deno.test("serveEndpoint() streams an answer as the handler writes it", async () => {
  const gate = Promise.withResolvers<void>();
  await using server = await served(() =>
    new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("first\n"));
          await gate.promise;
          controller.enqueue(new TextEncoder().encode("second\n"));
          controller.close();
        },
      }),
    )
  );
  const http = await connect(server.path);
  try {
    const res = await http.request({ method: "GET", path: "/stream", headers: {} });
    const pieces = res.body[Symbol.asyncIterator]();
    assert.equal(new TextDecoder().decode((await pieces.next()).value), "first\n");
    gate.resolve();
    assert.equal(new TextDecoder().decode((await pieces.next()).value), "second\n");
    assert.equal((await pieces.next()).done, true);
  } finally {
    http.close();
  }
});

Deno.test("serveEndpoint() aborts a request's signal when its caller leaves before the answer, and ends its connection's", async () => {
  const aborted = Promise.withResolvers<void>();
  const closed = Promise.withResolvers<void>();
  await using server = await served(async (req, conn) => {
    conn.closed.addEventListener("abort", () => closed.resolve());
    req.signal.addEventListener("abort", () => aborted.resolve());
    await aborted.promise;
    return new Response("too late");
  });
  const conn = await Deno.connect({ transport: "unix", path: server.path });
  await conn.write(new TextEncoder().encode("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n"));
  conn.close();
  await aborted.promise;
  await closed.promise;
});

Deno.test("serveEndpoint() reads chunked bodies, and past a body the handler left unread to the next request", async () => {
  await using server = await served(async (req) => {
    if (new URL(req.url).pathname === "/ignore") return new Response("ignored", { status: 401 });
    return new Response(`got ${await req.text()}`);
  });
  const conn = await Deno.connect({ transport: "unix", path: server.path });
  try {
    const request = "POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello" +
      "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
    await conn.write(new TextEncoder().encode(request));
    let text = "";
    const buf = new Uint8Array(4096);
    while (!text.includes("got abcde")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    assert.match(text, /^HTTP\/1\.1 401 Unauthorized\r\n/);
    assert.match(text, /\r\n7\r\nignored\r\n0\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    assert.match(text, /got abcde/);
  } finally {
    conn.close();
  }
});

Deno.test("serveEndpoint() answers a request it cannot read 400 and closes, reaching no handler", async () => {
  let reached = false;
  await using server = await served(() => {
    reached = true;
    return new Response("no");
  });
  for (
    const request of [
      "GARBAGE\r\n\r\n",
      "GET http://elsewhere/ HTTP/1.1\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: 3, 4\r\n\r\n",
      // The grammar's own suite (tests/http1/) tries the rest; these show its refusals reach the server.
      "GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n",
      "GET / HTTP/1.1\nHost: x\n\n",
      "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    ]
  ) {
    const conn = await Deno.connect({ transport: "unix", path: server.path });
    await conn.write(new TextEncoder().encode(request));
    const answer = await new Response(conn.readable).text();
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/, request);
    assert.match(answer, /Connection: close\r\n/);
  }
  assert.equal(reached, false);
});
