import assert from "node:assert/strict";
import { webFetchTool } from "../../../../core/harness/tools/mod.ts";
import { FakeClock } from "../../../support/mod.ts";
import { serveFakeProxy } from "./_support.ts";
import { call, toolFixture } from "../../../support/tool_fixture.ts";

const SECRET = "s3cr3t-0123456789";
const fetchTool = webFetchTool();
const PAGE = `<!doctype html><html><head><title>A &amp; B</title><style>p{}</style></head>
<body><script>alert(1)</script><h1>Hello</h1><p>First <b>para</b>.</p>
<ul><li>one</li><li>two</li></ul><p>See <a href="/docs?x=1">the docs</a>.</p></body></html>`;

Deno.test("web_fetch goes through the proxy's base URL and reduces HTML to text", async () => {
  await using fx = await toolFixture();
  await using proxy = serveFakeProxy(SECRET, {
    "https/example.test/page?q=1": () =>
      new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  const result = await call(fetchTool, { url: "https://example.test/page?q=1#top" }, fx.ctx({}, { proxy }));
  assert.deepEqual(proxy.paths, ["https/example.test/page?q=1"]);
  assert.deepEqual(result, {
    content: "URL: https://example.test/page?q=1\nStatus: 200\nContent-Type: text/html; charset=utf-8\n\n" +
      "# A & B\n\n# Hello\n\nFirst para.\n\n- one\n- two\n\nSee [the docs](https://example.test/docs?x=1).",
    isError: false,
  });
});

Deno.test("web_fetch says plainly when the proxy refuses a host, and never shows the secret", async () => {
  await using fx = await toolFixture();
  await using proxy = serveFakeProxy(SECRET, {});
  const result = await call(fetchTool, { url: "http://blocked.test:8080/x" }, fx.ctx({}, { proxy }));
  assert.deepEqual(proxy.paths, ["http/blocked.test:8080/x"]);
  assert.deepEqual(result, {
    content: 'Cannot fetch "http://blocked.test:8080/x": Link\'s proxy refused it (host-not-allowed)\n' +
      'Link\'s proxy refused the request: Cannot forward the request: "blocked.test:8080" is not among the hosts',
    isError: true,
  });
  assert.equal(result.content.includes(SECRET), false);
});

Deno.test("web_fetch follows a redirect through the proxy", async () => {
  await using fx = await toolFixture();
  await using proxy = serveFakeProxy(SECRET, {
    "https/example.test/old": () =>
      new Response(null, { status: 301, headers: { location: "https://other.test/new" } }),
    "https/other.test/new": () =>
      new Response('{"ok":true}', { headers: { "content-type": "application/json" } }),
  });
  const result = await call(fetchTool, { url: "https://example.test/old" }, fx.ctx({}, { proxy }));
  assert.deepEqual(proxy.paths, ["https/example.test/old", "https/other.test/new"]);
  assert.deepEqual(result, {
    content: 'URL: https://other.test/new\nStatus: 200\nContent-Type: application/json\n\n{"ok":true}',
    isError: false,
  });
});

Deno.test("web_fetch caps text, does not show binary, and says an HTTP error", async () => {
  await using fx = await toolFixture();
  await using proxy = serveFakeProxy(SECRET, {
    "https/example.test/long": () =>
      new Response("x".repeat(5000), { headers: { "content-type": "text/plain" } }),
    "https/example.test/img": () =>
      new Response(new Uint8Array([137, 80, 0, 1]), { headers: { "content-type": "image/png" } }),
    "https/example.test/gone": () =>
      new Response("not here", { status: 404, headers: { "content-type": "text/plain" } }),
  });
  const ctx = fx.ctx({}, { proxy });
  assert.deepEqual(await call(fetchTool, { url: "https://example.test/long", max_chars: 1000 }, ctx), {
    content:
      `URL: https://example.test/long\nStatus: 200\nContent-Type: text/plain\n\n${"x".repeat(1000)}\n\n` +
      "[Cut at 1000 characters]",
    isError: false,
  });
  assert.deepEqual(await call(fetchTool, { url: "https://example.test/img" }, ctx), {
    content:
      "URL: https://example.test/img\nStatus: 200\nContent-Type: image/png\n\n(4 bytes of image/png; not shown as text)",
    isError: false,
  });
  assert.deepEqual(await call(fetchTool, { url: "https://example.test/gone" }, ctx), {
    content: "URL: https://example.test/gone\nStatus: 404\nContent-Type: text/plain\n\nnot here",
    isError: true,
  });
});

Deno.test("web_fetch refuses addresses that are not http(s) or hold a password", async () => {
  await using fx = await toolFixture();
  await using proxy = serveFakeProxy(SECRET, {});
  const ctx = fx.ctx({}, { proxy });
  assert.deepEqual(await call(fetchTool, { url: "file:///etc/passwd" }, ctx), {
    content: 'Cannot fetch "file:///etc/passwd": only http and https addresses can be fetched',
    isError: true,
  });
  assert.deepEqual(await call(fetchTool, { url: "https://me:pw@example.test/" }, ctx), {
    content: 'Cannot fetch "https://example.test": the address holds a user name or password\n' +
      "  hint: Fetch the address without them",
    isError: true,
  });
  assert.deepEqual(proxy.paths, []);
});

Deno.test("web_fetch gives up on a body that never ends at its timeout, driven by the clock", async () => {
  const clock = new FakeClock();
  await using fx = await toolFixture(clock);
  const arrived = Promise.withResolvers<void>();
  await using proxy = serveFakeProxy(SECRET, {
    "https/slow.test/": () => {
      arrived.resolve();
      // Headers and a first chunk, then nothing: the body never ends.
      const body = new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("partial")) });
      return new Response(body, { headers: { "content-type": "text/plain" } });
    },
  });
  const pending = call(fetchTool, { url: "https://slow.test/" }, fx.ctx({}, { proxy }));
  await arrived.promise;
  await clock.advance(30_000);
  assert.deepEqual(await pending, {
    content: 'Cannot fetch "https://slow.test/": no answer within 30 seconds',
    isError: true,
  });
});
