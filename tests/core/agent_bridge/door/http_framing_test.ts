import assert from "node:assert/strict";
import { trackHttpFraming } from "../../../../core/agent_bridge/door/mod.ts";

/** One step of a connection: bytes one way (or the agent's side ending), and whether an answer is still coming after it. */
type Step = { client: string; busy: boolean } | { server: string; busy: boolean } | {
  serverEnds: true;
  busy: boolean;
};

const encoder = new TextEncoder();

function feed(tracker: ReturnType<typeof trackHttpFraming>, step: Step, text?: string): void {
  if ("serverEnds" in step) return tracker.serverEnded();
  if ("client" in step) tracker.fromClient(encoder.encode(text ?? step.client));
  else tracker.fromServer(encoder.encode(text ?? step.server));
}

function bytesOf(step: Step): string {
  return "client" in step ? step.client : "server" in step ? step.server : "";
}

/**
 * Replays the steps whole, byte by byte, and with each step split in two at every offset:
 * a step part-way through is always busy (a message has begun and not ended), and after each
 * whole step the tracker says what the step expects.
 */
function replay(steps: Step[]): void {
  const whole = trackHttpFraming();
  const bytewise = trackHttpFraming();
  for (const [n, step] of steps.entries()) {
    feed(whole, step);
    assert.equal(whole.busy, step.busy, `after step ${n} whole`);
    const text = bytesOf(step);
    if (text === "") feed(bytewise, step);
    for (const [i, char] of [...text].entries()) {
      feed(bytewise, step, char);
      if (i < text.length - 1) assert.equal(bytewise.busy, true, `step ${n} byte ${i}`);
    }
    assert.equal(bytewise.busy, step.busy, `after step ${n} byte by byte`);
    for (let cut = 1; cut < text.length; cut++) {
      const split = trackHttpFraming();
      for (const earlier of steps.slice(0, n)) feed(split, earlier);
      feed(split, step, text.slice(0, cut));
      assert.equal(split.busy, true, `step ${n} cut at ${cut}`);
      feed(split, step, text.slice(cut));
      assert.equal(split.busy, step.busy, `step ${n} cut at ${cut}, whole`);
    }
  }
}

const GET = "GET /a HTTP/1.1\r\nHost: agent\r\n\r\n";
const OK_EMPTY = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";

Deno.test("trackHttpFraming() follows a body by Content-Length each way, then an idle keep-alive is not busy (PRC-11)", () => {
  replay([
    { client: "POST /x HTTP/1.1\r\nHost: agent\r\nContent-Length: 5\r\n\r\nhello", busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", busy: false },
    { client: GET, busy: true },
    { server: OK_EMPTY, busy: false },
  ]);
});

Deno.test("trackHttpFraming() follows chunks by their sizes, extensions and trailers, never their content", () => {
  const tricky = "0\r\n\r\nHTTP/1.1 200 OK\r\n\r\nab"; // 26 bytes that look like framing
  assert.equal(tricky.length, 0x1a);
  replay([
    { client: GET, busy: true },
    { server: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", busy: true },
    { server: "5;name=value\r\nhello\r\n", busy: true },
    { server: `1A\r\n${tricky}\r\n`, busy: true },
    { server: "0\r\nDigest: x\r\nOther: y\r\n\r\n", busy: false },
  ]);
});

Deno.test("trackHttpFraming() stays busy through a stalled chunked answer (PRC-11: no ceiling cuts one)", () => {
  replay([
    { client: GET, busy: true },
    { server: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n01234", busy: true },
  ]);
});

Deno.test("trackHttpFraming() counts a chunked request with trailers until its answer", () => {
  replay([
    {
      client: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n",
      busy: true,
    },
    { server: OK_EMPTY, busy: false },
  ]);
});

Deno.test("trackHttpFraming() waits past 1xx interim answers for the final one", () => {
  replay([
    { client: "POST /u HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", busy: true },
    { server: "HTTP/1.1 100 Continue\r\n\r\n", busy: true },
    { client: "abc", busy: true },
    { server: "HTTP/1.1 103 Early Hints\r\nLink: </s.css>\r\n\r\n", busy: true },
    { server: OK_EMPTY, busy: false },
  ]);
});

Deno.test("trackHttpFraming() reads no body after HEAD, 204 or 304", () => {
  replay([
    { client: "HEAD / HTTP/1.1\r\n\r\n", busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", busy: false },
    { client: GET, busy: true },
    { server: "HTTP/1.1 204 No Content\r\n\r\n", busy: false },
    { client: GET, busy: true },
    { server: "HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n", busy: false },
    { client: GET, busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", busy: false },
  ]);
});

Deno.test("trackHttpFraming() answers pipelined requests in order", () => {
  replay([
    { client: `${GET}${GET}HEAD /c HTTP/1.1\r\n\r\n`, busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", busy: true },
    { server: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", busy: false },
  ]);
});

Deno.test("trackHttpFraming() holds a close-delimited answer until the agent's side ends", () => {
  replay([
    { client: GET, busy: true },
    { server: "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nsome", busy: true },
    { server: " more HTTP/1.1 200 OK\r\n\r\n", busy: true },
    { serverEnds: true, busy: false },
  ]);
});

Deno.test("trackHttpFraming() counts an early answer busy until the request's body is sent", () => {
  replay([
    { client: "POST /big HTTP/1.1\r\nContent-Length: 10\r\n\r\n012", busy: true },
    { server: "HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n\r\n", busy: true },
    { client: "3456789", busy: false },
  ]);
});

Deno.test("trackHttpFraming() counts an upgrade as an answer in progress until close (U-36)", () => {
  replay([
    { client: "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", busy: true },
    { server: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x02hi", busy: true },
    { client: "\x81\x85anything", busy: true },
    { serverEnds: true, busy: true },
  ]);
});

Deno.test("trackHttpFraming() goes on framing after an upgrade the agent declines", () => {
  replay([
    { client: "GET / HTTP/1.1\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\n", busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", busy: false },
    { client: GET, busy: true },
    { server: OK_EMPTY, busy: false },
  ]);
});

Deno.test("trackHttpFraming() counts a CONNECT tunnel busy until close, and a refused one not", () => {
  replay([
    { client: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", busy: true },
    { server: "HTTP/1.1 200 Connection Established\r\n\r\n", busy: true },
    { client: "\x16\x03\x01\x02\x00", busy: true },
  ]);
  replay([
    { client: "CONNECT example.com:443 HTTP/1.1\r\n\r\n", busy: true },
    { server: "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", busy: false },
  ]);
});

Deno.test("trackHttpFraming() counts unframeable traffic as an answer in progress until close", () => {
  // The grammar's own suite (tests/http1/) tries each malformed input; here, the door's answer to
  // one refused at its first bytes and ones refused at their head's end: busy until close.
  for (
    const client of [
      "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
      "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
      "GET / HTTP/1.1\nHost: a\n\n",
    ]
  ) {
    const tracker = trackHttpFraming();
    tracker.fromClient(encoder.encode(client));
    tracker.fromServer(encoder.encode(OK_EMPTY));
    tracker.serverEnded();
    assert.equal(tracker.busy, true, JSON.stringify(client));
  }
  replay([
    { client: GET, busy: true },
    { server: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", busy: true },
    { serverEnds: true, busy: true },
  ]);
});

Deno.test("trackHttpFraming() skips empty lines between requests", () => {
  const tracker = trackHttpFraming();
  tracker.fromClient(encoder.encode("\r\n"));
  assert.equal(tracker.busy, false);
  replay([
    { client: "GET / HTTP/1.1\r\nHost: a\r\n\r\n\r\n", busy: true },
    { server: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx", busy: false },
  ]);
});

Deno.test("trackHttpFraming() is not busy before any byte, nor once the agent's side ended", () => {
  const tracker = trackHttpFraming();
  assert.equal(tracker.busy, false);
  tracker.fromClient(encoder.encode(GET));
  tracker.serverEnded();
  assert.equal(tracker.busy, false);
});

Deno.test("trackHttpFraming() says when the agent owes an answer, and tells each final answer with its request", () => {
  const answered: [number, string, string][] = [];
  const tracker = trackHttpFraming({
    answered: (status, req) => answered.push([status, req.method, req.target]),
  });
  const owed: boolean[] = [];
  const step = (side: "client" | "server", text: string) => {
    if (side === "client") tracker.fromClient(encoder.encode(text));
    else tracker.fromServer(encoder.encode(text));
    owed.push(tracker.owed);
  };
  step("client", "POST /acp HTTP/1.1\r\nContent-Length: 4\r\n\r\nab");
  step("client", "cd");
  step("server", "HTTP/1.1 100 Continue\r\n\r\n");
  step("server", "HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n\r\nno");
  step("client", "GET /_link/proof?x=1 HTTP/1.1\r\n\r\n");
  step("server", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
  step("server", "0\r\n\r\n");
  // The caller's time while its request comes; the agent's from its end to the answer's end.
  assert.deepEqual(owed, [false, true, true, false, true, true, false]);
  assert.deepEqual(answered, [[401, "POST", "/acp"], [200, "GET", "/_link/proof?x=1"]]);
});
