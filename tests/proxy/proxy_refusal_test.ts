import assert from "node:assert/strict";
import { Secret, setLogSink } from "../../core/base/mod.ts";
import { proxyBaseUrl } from "../../proxy/mod.ts";
import {
  basicAuth,
  fakeResolver,
  fakeUpstream,
  rawExchange,
  recordingDial,
  SECRET,
  startProxy,
  statusAndReason,
} from "../support/proxy.ts";

const AUTH = `Proxy-Authorization: ${basicAuth(SECRET.reveal())}\r\n`;

function baseRequest(port: number, path: string, host = `127.0.0.1:${port}`): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
}

Deno.test("serveProxy() refuses the base-URL form without the secret (secret-missing, SBX-19)", async () => {
  const { dialled, dial } = recordingDial();
  await using proxy = await startProxy({ dial });
  const answer = await rawExchange({ port: proxy.port! }, baseRequest(proxy.port!, "/https/example.com/"));
  assert.deepEqual(statusAndReason(answer), ["HTTP/1.1 403 Forbidden", "secret-missing"]);
  assert.match(
    answer,
    /\r\n\r\nLink's proxy refused the request: Cannot forward the request: its path does not start/,
  );
  assert.deepEqual(dialled, []);
});

Deno.test("serveProxy() refuses a wrong secret without repeating it (secret-wrong)", async () => {
  const { dialled, dial } = recordingDial();
  await using proxy = await startProxy({ dial });
  const answer = await rawExchange(
    { port: proxy.port! },
    baseRequest(proxy.port!, "/_link/s/guessed-secret-value/https/example.com/"),
  );
  assert.deepEqual(statusAndReason(answer), ["HTTP/1.1 403 Forbidden", "secret-wrong"]);
  assert.ok(!answer.includes("guessed-secret-value"));
  assert.deepEqual(dialled, []);
});

Deno.test("serveProxy() refuses the previous start's secret after a restart (secret-wrong, SBX-19)", async () => {
  await using upstream = fakeUpstream();
  const old = new Secret("old-secret-0123456789abcdef");
  const first = await startProxy({ secret: old, dial: recordingDial(upstream.port).dial });
  const before = await fetch(proxyBaseUrl(first.port!, old, "https://example.com/"));
  assert.equal(before.status, 200);
  await before.body?.cancel();
  await first.close();
  await using second = await startProxy({ dial: recordingDial(upstream.port).dial });
  const oldUrl = proxyBaseUrl(second.port!, old, "https://example.com/");
  const after = await fetch(oldUrl);
  assert.deepEqual([after.status, after.headers.get("link-refused")], [403, "secret-wrong"]);
  await after.body?.cancel();
  using client = Deno.createHttpClient({
    proxy: {
      url: `http://127.0.0.1:${second.port}`,
      basicAuth: { username: "link", password: old.reveal() },
    },
  });
  const forward = await fetch("http://example.com/", { client });
  assert.deepEqual([forward.status, forward.headers.get("link-refused")], [407, "secret-wrong"]);
  await forward.body?.cancel();
  assert.equal(upstream.calls.length, 1);
});

Deno.test("serveProxy() asks a forward-proxy caller without Proxy-Authorization to authenticate (secret-missing, 407)", async () => {
  const { dialled, dial } = recordingDial();
  await using proxy = await startProxy({ dial });
  const absolute = await rawExchange(
    { port: proxy.port! },
    "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n",
  );
  assert.deepEqual(statusAndReason(absolute), [
    "HTTP/1.1 407 Proxy Authentication Required",
    "secret-missing",
  ]);
  assert.match(absolute, /\r\nProxy-Authenticate: Basic realm="link"\r\n/);
  const connect = await rawExchange(
    { port: proxy.port! },
    "CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n",
  );
  assert.deepEqual(statusAndReason(connect), [
    "HTTP/1.1 407 Proxy Authentication Required",
    "secret-missing",
  ]);
  const wrong = await rawExchange(
    { port: proxy.port! },
    `CONNECT example.com:443 HTTP/1.1\r\nProxy-Authorization: ${basicAuth("nope")}\r\n\r\n`,
  );
  assert.deepEqual(statusAndReason(wrong), ["HTTP/1.1 407 Proxy Authentication Required", "secret-wrong"]);
  assert.deepEqual(dialled, []);
});

Deno.test("serveProxy() refuses a Host that is not its own address, against DNS rebinding (wrong-host)", async () => {
  const { dialled, dial } = recordingDial();
  await using proxy = await startProxy({ dial });
  const path = `/_link/s/${SECRET.reveal()}/https/example.com/`;
  const answers = await Promise.all([
    rawExchange({ port: proxy.port! }, baseRequest(proxy.port!, path, `rebound.example:${proxy.port}`)),
    rawExchange({ port: proxy.port! }, baseRequest(proxy.port!, path, "127.0.0.1:1")),
    rawExchange({ port: proxy.port! }, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`),
  ]);
  assert.deepEqual(answers.map(statusAndReason), Array(3).fill(["HTTP/1.1 403 Forbidden", "wrong-host"]));
  assert.deepEqual(dialled, []);
});

Deno.test("serveProxy() refuses private, link-local and loopback targets in every form without dialling (address-forbidden)", async () => {
  const { dialled, dial } = recordingDial();
  const { asked, resolve } = fakeResolver();
  await using proxy = await startProxy({ dial, resolve });
  const s = SECRET.reveal();
  const answers = await Promise.all([
    rawExchange(
      { port: proxy.port! },
      baseRequest(proxy.port!, `/_link/s/${s}/http/169.254.169.254/latest/meta-data`),
    ),
    rawExchange(
      { port: proxy.port! },
      baseRequest(proxy.port!, `/_link/s/${s}/https/[::ffff:127.0.0.1]:443/`),
    ),
    rawExchange({ port: proxy.port! }, `GET http://10.0.0.1/ HTTP/1.1\r\n${AUTH}Connection: close\r\n\r\n`),
    rawExchange({ port: proxy.port! }, `GET http://0x7f.1:80/ HTTP/1.1\r\n${AUTH}Connection: close\r\n\r\n`),
    rawExchange({ port: proxy.port! }, `CONNECT 127.0.0.1:22 HTTP/1.1\r\n${AUTH}\r\n`),
    rawExchange({ port: proxy.port! }, `CONNECT [fe80::1]:443 HTTP/1.1\r\n${AUTH}\r\n`),
    rawExchange({ port: proxy.port! }, `CONNECT rebound.example:443 HTTP/1.1\r\n${AUTH}\r\n`),
  ]);
  assert.deepEqual(
    answers.map(statusAndReason),
    Array(7).fill(["HTTP/1.1 403 Forbidden", "address-forbidden"]),
  );
  assert.deepEqual(dialled, []);
  assert.deepEqual(asked, ["rebound.example"]);
});

Deno.test("serveProxy() refuses hosts and ports outside the grants before resolving them (host-not-allowed, port-not-allowed)", async () => {
  const { dialled, dial } = recordingDial();
  const { asked, resolve } = fakeResolver();
  await using proxy = await startProxy({
    dial,
    resolve,
    policy: { hosts: ["api.openai.com"], tcp: ["github.com:22"] },
  });
  const answers = await Promise.all([
    rawExchange({ port: proxy.port! }, `CONNECT example.com:443 HTTP/1.1\r\n${AUTH}\r\n`),
    rawExchange({ port: proxy.port! }, `CONNECT github.com:2222 HTTP/1.1\r\n${AUTH}\r\n`),
    rawExchange({ port: proxy.port! }, `CONNECT api.openai.com:8443 HTTP/1.1\r\n${AUTH}\r\n`),
  ]);
  assert.deepEqual(answers.map(statusAndReason), [
    ["HTTP/1.1 403 Forbidden", "host-not-allowed"],
    ["HTTP/1.1 403 Forbidden", "host-not-allowed"],
    ["HTTP/1.1 403 Forbidden", "port-not-allowed"],
  ]);
  assert.deepEqual([dialled, asked], [[], []]);
});

Deno.test("serveProxy() answers 502 when the checked public address cannot be reached (upstream-failed)", async () => {
  const { dialled, dial } = recordingDial();
  await using proxy = await startProxy({ dial });
  const answer = await rawExchange({ port: proxy.port! }, `CONNECT example.com:443 HTTP/1.1\r\n${AUTH}\r\n`);
  assert.deepEqual(statusAndReason(answer), ["HTTP/1.1 502 Bad Gateway", "upstream-failed"]);
  assert.deepEqual(dialled, [["93.184.216.34", 443]]);
});

Deno.test("serveProxy() refuses a request it cannot frame safely (bad-request)", async () => {
  await using proxy = await startProxy();
  const smuggled = await rawExchange(
    { port: proxy.port! },
    `POST http://example.com/ HTTP/1.1\r\n${AUTH}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
  );
  const garbage = await rawExchange({ port: proxy.port! }, "HELLO\r\n\r\n");
  // The grammar's tests try every malformed input (tests/http1/); these show its refusals reach the caller.
  const folded = await rawExchange(
    { port: proxy.port! },
    `GET http://example.com/ HTTP/1.1\r\n${AUTH}X-A: a\r\n b\r\n\r\n`,
  );
  const bareLf = await rawExchange({ port: proxy.port! }, `GET http://example.com/ HTTP/1.1\n${AUTH}\r\n`);
  assert.deepEqual(
    [smuggled, garbage, folded, bareLf].map(statusAndReason),
    Array(4).fill(["HTTP/1.1 400 Bad Request", "bad-request"]),
  );
  assert.match(
    folded,
    /\r\n\r\nLink's proxy refused the request: Cannot read the request: a field line is folded/,
  );
});

Deno.test("serveProxy() never writes the secret to its log", async () => {
  const lines: string[] = [];
  const restore = setLogSink((line) => lines.push(line));
  try {
    await using upstream = fakeUpstream();
    await using proxy = await startProxy({ dial: recordingDial(upstream.port).dial });
    const s = SECRET.reveal();
    await rawExchange({ port: proxy.port! }, baseRequest(proxy.port!, `/_link/s/${s}/https/example.com/`));
    await rawExchange({ port: proxy.port! }, baseRequest(proxy.port!, `/_link/s/${s}/https/10.0.0.1/`));
    await rawExchange(
      { port: proxy.port! },
      `GET http://example.com/ HTTP/1.1\r\n${AUTH}Connection: close\r\n\r\n`,
    );
  } finally {
    restore();
  }
  assert.deepEqual(lines.map((l) => JSON.parse(l).msg), [
    "Proxy listening",
    "Request forwarded",
    "Request refused",
    "Request forwarded",
    "Proxy stopped",
  ]);
  assert.ok(lines.every((l) => !l.includes(SECRET.reveal()) && !l.includes(btoa(`link:${SECRET.reveal()}`))));
});
