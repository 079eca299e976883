import assert from "node:assert/strict";
import { bridgeErrorCode } from "../../link_bridge/mod.ts";
import { LineReader } from "../../link_bridge/line_reader.ts";

/** A source handing out fixed chunks, as a socket might split them. */
function chunks(...parts: string[]): { read(p: Uint8Array): Promise<number | null> } {
  const queue = parts.map((part) => new TextEncoder().encode(part));
  return {
    read(p) {
      const next = queue.shift();
      if (!next) return Promise.resolve(null);
      if (next.length > p.length) queue.unshift(next.subarray(p.length));
      p.set(next.subarray(0, p.length));
      return Promise.resolve(Math.min(next.length, p.length));
    },
  };
}

Deno.test("LineReader.readLine() joins a line split anywhere and keeps what follows it", async () => {
  const reader = new LineReader(chunks("pro", "of a b", " c d\nrest", " of it"));
  assert.equal(await reader.readLine(100), "proof a b c d");
  assert.deepEqual(new TextDecoder().decode(reader.takeRest()), "rest");
  assert.equal(await reader.readLine(100), undefined);
});

Deno.test("LineReader.readLine() answers a line longer than its limit as invalid", async () => {
  const reader = new LineReader(chunks("x".repeat(40), "y".repeat(40), "\n"));
  const err = await reader.readLine(64, "proof line").catch((e) => e);
  assert.deepEqual([err.code, bridgeErrorCode(err), err.message], [
    "INVALID",
    "invalid",
    "Cannot read the proof line: it is longer than 64 bytes",
  ]);
});

Deno.test("LineReader.readLine() answers bytes that are not UTF-8 as invalid", async () => {
  const reader = new LineReader({
    read(p) {
      p.set([0xff, 0xfe, 0x0a]);
      return Promise.resolve(3);
    },
  });
  const err = await reader.readLine(64).catch((e) => e);
  assert.deepEqual([err.code, bridgeErrorCode(err)], ["INVALID", "invalid"]);
});

Deno.test("LineReader.readLine() takes a line of its limit, newline included, and refuses one byte more", async () => {
  const reader = new LineReader(chunks(`${"x".repeat(63)}\n${"y".repeat(64)}\n`));
  assert.equal(await reader.readLine(64), "x".repeat(63));
  const err = await reader.readLine(64, "body").catch((e) => e);
  assert.deepEqual([bridgeErrorCode(err), err.message], [
    "invalid",
    "Cannot read the body: it is longer than 64 bytes",
  ]);
});
