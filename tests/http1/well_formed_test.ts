/**
 * What the HTTP/1.1 grammar takes, and what it reads from it, the same both ways it reads (pulled
 * from a connection, fed as bytes pass), however the bytes are split.
 */
import assert from "node:assert/strict";
import { latin1 } from "../../http1/mod.ts";
import { type Message, pullMessages, pushMessages, splits, wire } from "./_support.ts";

/** Reads `text` every way, checks the two readers agree on the heads, and returns the messages pulled. */
async function readEveryWay(kind: "request" | "response", text: string, method = "GET"): Promise<Message[]> {
  let first: Message[] | undefined;
  for (const parts of splits(wire(text))) {
    const pulled = await pullMessages(kind, parts, method);
    const fed = pushMessages(kind, parts, method);
    assert.deepEqual(fed.heads, pulled.map((m) => m.head), `${parts.length} pieces`);
    if (first) assert.deepEqual(pulled, first, `${parts.length} pieces`);
    first ??= pulled;
  }
  return first!;
}

Deno.test("the HTTP/1.1 grammar reads pipelined requests with a body of each framing, split anywhere", async () => {
  const text = "POST /a HTTP/1.1\r\nHost: agent\r\nContent-Length: 5\r\n\r\nhello" +
    "POST /b?x=1 HTTP/1.1\r\nHost: agent\r\nTransfer-Encoding: chunked\r\n\r\n" +
    "3\r\nabc\r\n1A;name=value\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n\r\nab\r\n0\r\nDigest: x\r\n\r\n" +
    "GET * HTTP/1.0\r\n\r\n";
  assert.deepEqual(await readEveryWay("request", text), [
    {
      head: {
        method: "POST",
        target: "/a",
        version: "HTTP/1.1",
        headers: [["Host", "agent"], ["Content-Length", "5"]],
      },
      body: "hello",
    },
    {
      head: {
        method: "POST",
        target: "/b?x=1",
        version: "HTTP/1.1",
        headers: [["Host", "agent"], ["Transfer-Encoding", "chunked"]],
      },
      body: "abc0\r\n\r\nHTTP/1.1 200 OK\r\n\r\nab",
    },
    { head: { method: "GET", target: "*", version: "HTTP/1.0", headers: [] }, body: "" },
  ]);
});

Deno.test("the HTTP/1.1 grammar keeps a field's bytes as they came, obs-text and its case included, trimming only SP and HTAB", async () => {
  const [message] = await readEveryWay(
    "request",
    "GET / HTTP/1.1\r\nX-Name:  \t caf\xe9 \x80\xa0\xff \t\r\nx-EMPTY:\r\nX-Inner: a \t b\r\n\r\n",
  );
  assert.deepEqual(message!.head.headers, [["X-Name", "caf\xe9 \x80\xa0\xff"], ["x-EMPTY", ""], [
    "X-Inner",
    "a \t b",
  ]]);
  assert.deepEqual([...latin1(message!.head.headers[0]![1])], [
    0x63,
    0x61,
    0x66,
    0xe9,
    0x20,
    0x80,
    0xa0,
    0xff,
  ]);
});

Deno.test("the HTTP/1.1 grammar skips empty lines before a request line (RFC 9112 §2.2)", async () => {
  const messages = await readEveryWay(
    "request",
    "\r\n\r\nGET / HTTP/1.1\r\n\r\n\r\nGET /2 HTTP/1.1\r\n\r\n\r\n",
  );
  assert.deepEqual(messages.map((m) => "method" in m.head && m.head.target), ["/", "/2"]);
});

Deno.test("the HTTP/1.1 grammar reads chunk sizes in any case with leading zeros, extensions of every form, and trailers", async () => {
  const body = '0005;a;b=c ; d = e\t;q="x;\\"y\\\\ z"\r\nhello\r\n' +
    "00000000000a\r\n0123456789\r\n" + '1;ext="\xe9"\r\n!\r\n' +
    "000;last\r\nTrailer: x\r\nOther:y\r\n\r\n";
  const [message] = await readEveryWay(
    "request",
    `POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n${body}`,
  );
  assert.equal(message!.body, "hello0123456789!");
});

Deno.test("the HTTP/1.1 grammar takes a chunk of 2^48 - 1 bytes as its size", () => {
  const fed = pushMessages("request", [
    wire("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffff\r\nabc"),
  ]);
  assert.deepEqual([fed.done, fed.inMessage], [0, true]);
});

Deno.test("the HTTP/1.1 grammar takes a Content-Length repeated with the same digits, in a list or in two fields", async () => {
  const messages = await readEveryWay(
    "request",
    "POST / HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\nabcPOST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\nde",
  );
  assert.deepEqual(messages.map((m) => m.body), ["abc", "de"]);
});

Deno.test("the HTTP/1.1 grammar frames a request coded beneath chunked as chunked, empty list elements dropped", async () => {
  const [message] = await readEveryWay(
    "request",
    'POST / HTTP/1.1\r\nTransfer-Encoding: gzip;level="9", , Chunked\r\n\r\n2\r\nzz\r\n0\r\n\r\n',
  );
  assert.equal(message!.body, "zz");
});

Deno.test("the HTTP/1.1 grammar reads a status line with no reason, or an empty one", async () => {
  const messages = await readEveryWay(
    "response",
    "HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nxHTTP/1.0 404 \r\nContent-Length: 0\r\n\r\nHTTP/1.1 599 Any \t reason\xe9\r\n\r\nrest",
  );
  assert.deepEqual(messages, [
    { head: { version: "HTTP/1.1", status: 200, reason: "", headers: [["Content-Length", "1"]] }, body: "x" },
    { head: { version: "HTTP/1.0", status: 404, reason: "", headers: [["Content-Length", "0"]] }, body: "" },
    { head: { version: "HTTP/1.1", status: 599, reason: "Any \t reason\xe9", headers: [] }, body: "rest" },
  ]);
});

Deno.test("the HTTP/1.1 grammar takes a line of 16 KiB, CR LF included, and 200 field lines", async () => {
  const target = `/${"a".repeat(16 * 1024 - "GET / HTTP/1.1\r\n".length)}`;
  const fields = "X: a\r\n".repeat(200);
  const [message] = await readEveryWay("request", `GET ${target} HTTP/1.1\r\n${fields}\r\n`);
  assert.deepEqual(["method" in message!.head && message!.head.target.length, message!.head.headers.length], [
    target.length,
    200,
  ]);
});

Deno.test("the HTTP/1.1 grammar reads a response until the connection ends, and nothing after a tunnel begins", async () => {
  assert.deepEqual(
    (await readEveryWay("response", "HTTP/1.1 200 OK\r\n\r\nsome HTTP/1.1 200 OK\r\n\r\n")).map((m) =>
      m.body
    ),
    ["some HTTP/1.1 200 OK\r\n\r\n"],
  );
  const switched = await readEveryWay(
    "response",
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: ws\r\n\r\n\x81\x02hi",
  );
  assert.deepEqual(switched.map((m) => [m.head, m.body]), [[
    { version: "HTTP/1.1", status: 101, reason: "Switching Protocols", headers: [["Upgrade", "ws"]] },
    "",
  ]]);
  const tunnel = await readEveryWay(
    "response",
    "HTTP/1.1 200 Connection Established\r\n\r\n\x16\x03\x01",
    "CONNECT",
  );
  assert.deepEqual(tunnel.map((m) => m.body), [""]);
});
