import assert from "node:assert/strict";
import { type ByteSource, ConnReader, latin1Text, readRequestHead } from "../../http1/mod.ts";
import { pieces, wire } from "./_support.ts";

const text = (bytes: Uint8Array | null | undefined) => bytes ? latin1Text(bytes) : bytes;

Deno.test("ConnReader.readLine() joins a line split anywhere and keeps every byte after it", async () => {
  const reader = new ConnReader(pieces(["pro", "of a\r b", " c\nre", "st\n", "of it"].map(wire)));
  assert.equal(text(await reader.readLine({ limit: 100, end: "lf" })), "proof a\r b c");
  assert.equal(text(await reader.readLine({ limit: 100, end: "lf" })), "rest");
  await reader.fill();
  assert.equal(text(reader.takeRest()), "of it");
  assert.equal(await reader.readLine({ limit: 100, end: "lf" }), undefined);
});

Deno.test("ConnReader.readLine() takes a line of its limit, line end included, and refuses one byte more", async () => {
  const reader = new ConnReader(
    pieces([wire(`${"x".repeat(63)}\n${"y".repeat(40)}`), wire(`${"y".repeat(24)}\n`)]),
  );
  assert.equal((await reader.readLine({ limit: 64, end: "lf" }))?.length, 63);
  await assert.rejects(reader.readLine({ limit: 64, end: "lf" }), {
    name: "Http1Malformed",
    message: "a line is longer than 64 bytes",
  });
});

Deno.test("ConnReader.readLine() says undefined when the peer ends in the middle of a line", async () => {
  const reader = new ConnReader(pieces([wire("no end")]));
  assert.equal(await reader.readLine({ limit: 64, end: "lf" }), undefined);
});

Deno.test("ConnReader.readSome() gives what is buffered first, up to its max, then one read at a time", async () => {
  const reader = new ConnReader(pieces([wire("GET / HTTP/1.1\r\n\r\nbody"), wire("more")]));
  assert.equal((await readRequestHead(reader))?.target, "/");
  assert.equal(text(await reader.readSome(2)), "bo");
  assert.equal(text(await reader.readSome()), "dy");
  assert.equal(text(await reader.readSome()), "more");
  assert.equal(await reader.readSome(), null);
});

Deno.test("ConnReader keeps one read pending: the head after a peek waits on the peek's read", async () => {
  const gate = Promise.withResolvers<void>();
  let reads = 0;
  const bytes = wire("GET /later HTTP/1.1\r\n\r\n");
  const source: ByteSource = {
    async read(buffer) {
      if (++reads > 1) return null;
      await gate.promise;
      buffer.set(bytes);
      return bytes.length;
    },
  };
  const reader = new ConnReader(source);
  const peeked = reader.peek();
  const head = readRequestHead(reader);
  gate.resolve();
  assert.equal(await peeked, true);
  assert.equal((await head)?.target, "/later");
  assert.equal(reads, 1);
});

Deno.test("ConnReader reads a head larger than its buffer, and bodies through it, losing no byte", async () => {
  const head = `GET / HTTP/1.1\r\n${`X: ${"a".repeat(1000)}\r\n`.repeat(20)}\r\n`;
  const reader = new ConnReader(pieces([wire(`${head}tail`)]), 512);
  assert.equal((await readRequestHead(reader))?.headers.length, 20);
  assert.equal(text(await reader.readSome()), "tail");
});
