/**
 * The proxy's cap on connections and its deadline for a request's head (issue 9, item 10): a
 * sandbox that holds half-sent requests is refused at its own proxy, in the refusal's shape, and
 * every other agent's proxy and this proxy's honest callers go on.
 */
import assert from "node:assert/strict";
import { HEAD_DEADLINE_MS, IDLE_DEADLINE_MS, PROXY_MAX_CONNECTIONS } from "../../proxy/mod.ts";
import { FakeClock } from "../support/fake_clock.ts";
import { fakeUpstream, recordingDial, SECRET, startProxy, statusAndReason } from "../support/proxy.ts";

const encoder = new TextEncoder();

function honestRequest(port: number): string {
  return `GET /_link/s/${SECRET.reveal()}/http/example.com/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
    "Connection: close\r\n\r\n";
}

/** A connection to the proxy that was sent `text`, and everything it answers until it closes. */
async function openWith(port: number, text: string): Promise<{ conn: Deno.Conn; answer: Promise<string> }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  if (text) await conn.write(encoder.encode(text));
  return { conn, answer: new Response(conn.readable).text().catch(() => "") };
}

Deno.test("attack: 2,000 half-sent requests hold the proxy's 256 places at most; the rest are refused too-many-connections, the held ones cut at the head deadline, and an honest request then goes", async () => {
  await using upstream = fakeUpstream(() => new Response("hello"));
  const clock = new FakeClock();
  await using proxy = await startProxy({ clock, dial: recordingDial(upstream.port).dial });
  const port = proxy.port!;
  const opened = [];
  for (let i = 0; i < 2_000; i++) opened.push(await openWith(port, "GET /_link/s/"));
  const refused = opened.length - PROXY_MAX_CONNECTIONS;
  const settled: string[] = [];
  const allRefused = Promise.withResolvers<void>();
  for (const { answer } of opened) {
    void answer.then((text) => settled.push(text) === refused && allRefused.resolve());
  }
  await allRefused.promise;
  assert.deepEqual(
    new Set(settled.map((text) => statusAndReason(text).join(" "))),
    new Set([
      "HTTP/1.1 503 Service Unavailable too-many-connections",
    ]),
  );
  assert.match(
    settled[0]!,
    /\r\n\r\nLink's proxy refused the request: Cannot take the connection: the sandbox holds 256 connections/,
  );
  // Whenever each held one's first byte was read, its head is late by the end of both.
  await clock.advance(HEAD_DEADLINE_MS);
  await clock.advance(IDLE_DEADLINE_MS);
  const all = await Promise.all(opened.map(({ answer }) => answer));
  const held = all.filter((text) => !text.includes("too-many-connections"));
  assert.equal(held.length, PROXY_MAX_CONNECTIONS);
  for (const text of held) {
    assert.deepEqual(statusAndReason(text), ["HTTP/1.1 408 Request Timeout", "head-timeout"]);
  }
  const { answer } = await openWith(port, honestRequest(port));
  assert.match(await answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nhello$/);
});

Deno.test("attack: a request head dripped a byte a second is cut 10 s after its first byte (head-timeout)", async () => {
  const clock = new FakeClock();
  await using proxy = await startProxy({ clock });
  const port = proxy.port!;
  const head = honestRequest(port);
  // Its first bytes are sent before the proxy reads any: its head begins no earlier than the clock.
  const { conn, answer } = await openWith(port, head.slice(0, 3));
  let ended = false;
  void answer.then(() => ended = true);
  let seconds = 0;
  for (let at = 3; !ended && at < head.length - 1; at++) {
    await clock.advance(1_000);
    seconds++;
    if (!ended) await conn.write(encoder.encode(head[at]!)).catch(() => {});
  }
  assert.deepEqual(statusAndReason(await answer), ["HTTP/1.1 408 Request Timeout", "head-timeout"]);
  assert.ok(seconds >= HEAD_DEADLINE_MS / 1_000, `cut after ${seconds} s`);
  assert.ok(seconds < head.length - 4, "the head was never whole");
});

Deno.test("attack: a sandbox at its proxy's cap leaves another agent's proxy in the same process, and its own honest callers, answered", async () => {
  await using upstream = fakeUpstream(() => new Response("hello"));
  const dial = recordingDial(upstream.port).dial;
  const clock = new FakeClock();
  await using full = await startProxy({ clock, dial, maxConnections: 3 });
  await using other = await startProxy({ clock, dial });
  const held = [];
  for (let i = 0; i < 3; i++) held.push(await openWith(full.port!, ""));
  const extra = await openWith(full.port!, "");
  assert.deepEqual(statusAndReason(await extra.answer), [
    "HTTP/1.1 503 Service Unavailable",
    "too-many-connections",
  ]);
  const elsewhere = await openWith(other.port!, honestRequest(other.port!));
  assert.match(await elsewhere.answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*hello$/);
  // A held connection's own request, sent at once, is forwarded: its head comes within the deadline.
  await clock.advance(IDLE_DEADLINE_MS - 1);
  await held[0]!.conn.write(encoder.encode(honestRequest(full.port!)));
  assert.match(await held[0]!.answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*hello$/);
  // The idle ones are let go at the idle deadline, with no answer, and the cap has room again.
  await clock.advance(1);
  assert.deepEqual(await Promise.all(held.slice(1).map((h) => h.answer)), ["", ""]);
  const again = await openWith(full.port!, honestRequest(full.port!));
  assert.match(await again.answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*hello$/);
});
