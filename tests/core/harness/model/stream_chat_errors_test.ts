import assert from "node:assert/strict";
import { isLinkError, LinkError, Secret, setLogSink } from "../../../../core/base/mod.ts";
import {
  type ChatEvent,
  type ChatRequest,
  type ProviderFailure,
  providerFailureOf,
  streamChat,
  type StreamChatOptions,
} from "../../../../core/harness/model/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { FakeClock } from "../../../support/fake_clock.ts";

const HELLO: ChatRequest = { model: "fake-model", messages: [{ role: "user", content: "Say hello" }] };

interface Failed {
  code: string;
  message: string;
  hint: string | undefined;
  failure: ProviderFailure | undefined;
  texts: string[];
}

/** Runs a call to its end; returns the PROVIDER_ERROR it threw, and the text that came before. */
async function failureOf(options: StreamChatOptions, request = HELLO): Promise<Failed> {
  const texts: string[] = [];
  try {
    for await (const event of streamChat(request, options) as AsyncIterable<ChatEvent>) {
      if (event.type === "text") texts.push(event.text);
    }
  } catch (err) {
    if (!isLinkError(err)) throw err;
    return { code: err.code, message: err.message, hint: err.hint, failure: providerFailureOf(err), texts };
  }
  assert.fail("the call did not fail");
}

/** Keeps the model logger's lines, so a test can read what `lnk agent logs` would show. */
function captureLogs(): { lines: Record<string, unknown>[] } & Disposable {
  const lines: Record<string, unknown>[] = [];
  const restore = setLogSink((line) => lines.push(JSON.parse(line)));
  return { lines, [Symbol.dispose]: restore };
}

const LOGS_HINT = "Run `lnk agent logs` to see the provider's own words";

Deno.test("streamChat() turns a refused key (401) into a message for a person, the provider's words logged (MDL-2)", async () => {
  using logs = captureLogs();
  await using model = await serveFakeModel({ key: "sk-right" });
  const got = await failureOf({ baseUrl: model.url, key: new Secret("sk-wrong") });
  assert.deepEqual(got, {
    code: "PROVIDER_ERROR",
    message: "Your agent could not answer: the provider refused the key",
    hint: "Check the model provider's key, then send the message again",
    failure: { kind: "refused_key", status: 401, providerMessage: "Incorrect API key provided" },
    texts: [],
  });
  assert.deepEqual(logs.lines.map(({ time: _t, ...rest }) => rest), [{
    level: "warn",
    scope: "model",
    msg: "The model provider failed",
    kind: "refused_key",
    status: 401,
    providerMessage: "Incorrect API key provided",
    said: "Your agent could not answer: the provider refused the key",
  }]);
});

Deno.test("streamChat() treats 403 as a refused key and keeps the key out of the provider's words", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyError(403, { error: { message: "Key sk-leaky is not allowed here" } });
  const got = await failureOf({ baseUrl: model.url, key: new Secret("sk-leaky") });
  assert.deepEqual(got.failure, {
    kind: "refused_key",
    status: 403,
    providerMessage: "Key [redacted] is not allowed here",
  });
  assert.equal(got.message, "Your agent could not answer: the provider refused the key");
});

Deno.test("streamChat() reports 429 as rate limiting, with Retry-After", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyError(429, { error: { message: "Rate limit reached" } }, { "retry-after": "7" });
  const got = await failureOf({ baseUrl: model.url });
  assert.deepEqual([got.message, got.hint, got.failure], [
    "Your agent could not answer: the provider is limiting requests",
    "Wait a minute, then send the message again",
    { kind: "rate_limited", status: 429, providerMessage: "Rate limit reached", retryAfterMs: 7000 },
  ]);
});

Deno.test("streamChat() reports a 5xx as the provider failing, with its body's words", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyError(503, "upstream overloaded");
  const got = await failureOf({ baseUrl: model.url });
  assert.deepEqual([got.message, got.hint, got.failure], [
    "Your agent could not answer: the provider failed (HTTP 503)",
    LOGS_HINT,
    { kind: "provider_failed", status: 503, providerMessage: "upstream overloaded" },
  ]);
});

Deno.test("streamChat() reports a 404 as no such model, and another 4xx as a rejected request", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyError(404, { error: { message: "The model `nope` does not exist" } });
  model.replyError(400, { error: "messages must not be empty" });
  const notFound = await failureOf({ baseUrl: model.url });
  const bad = await failureOf({ baseUrl: model.url });
  assert.deepEqual([notFound.message, notFound.failure], [
    "Your agent could not answer: the provider has no such model at this address (HTTP 404)",
    { kind: "not_found", status: 404, providerMessage: "The model `nope` does not exist" },
  ]);
  assert.deepEqual([bad.message, bad.failure], [
    "Your agent could not answer: the provider rejected the request (HTTP 400)",
    { kind: "bad_request", status: 400, providerMessage: "messages must not be empty" },
  ]);
});

Deno.test("streamChat() times out when no byte comes within the deadline", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  const clock = new FakeClock();
  const held = model.reply("too late", { hold: true });
  const failing = failureOf({ baseUrl: model.url, clock, timeoutMs: 30_000 });
  await held.taken;
  await clock.waitForSleepers();
  await clock.advance(30_000);
  const got = await failing;
  assert.deepEqual([got.message, got.failure], [
    "Your agent could not answer: the provider sent nothing within 30 s",
    { kind: "timeout" },
  ]);
  held.release();
});

Deno.test("streamChat() times out when headers come but no byte of the body does", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  const clock = new FakeClock();
  const silent = model.reply("never sent", { stallAfter: 0 });
  const failing = failureOf({ baseUrl: model.url, clock, timeoutMs: 10_000, stallMs: 99_000 });
  await silent.taken;
  await clock.waitForSleepers();
  await clock.advance(10_000);
  assert.deepEqual((await failing).failure, { kind: "timeout" });
});

Deno.test("streamChat() gives up on an answer that stalls mid-stream", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  const clock = new FakeClock();
  model.reply("one two three four", { stallAfter: 3 });
  const iterator = streamChat(HELLO, { baseUrl: model.url, clock, stallMs: 20_000 })[Symbol.asyncIterator]();
  assert.deepEqual((await iterator.next()).value, { type: "text", text: "one " });
  assert.deepEqual((await iterator.next()).value, { type: "text", text: "two " });
  const next = iterator.next().then(() => undefined, (e: unknown) => e);
  await clock.waitForSleepers();
  await clock.advance(20_000);
  const err = await next;
  assert.ok(err instanceof LinkError);
  assert.deepEqual([err.code, err.message, providerFailureOf(err)], [
    "PROVIDER_ERROR",
    "Your agent could not answer: the provider stopped mid-answer for 20 s",
    { kind: "stalled" },
  ]);
});

Deno.test("streamChat() calls an HTML page garbage", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyGarbage("<html><body>502 Bad Gateway</body></html>");
  const got = await failureOf({ baseUrl: model.url });
  assert.deepEqual([got.message, got.hint, got.failure], [
    "Your agent could not answer: the provider's reply is not a chat completion",
    LOGS_HINT,
    { kind: "garbage", providerMessage: "text/html: <html><body>502 Bad Gateway</body></html>" },
  ]);
});

Deno.test("streamChat() calls an event stream whose data is not JSON garbage", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyGarbage("data: {not json at all\n\n", { contentType: "text/event-stream" });
  model.replyGarbage("<!doctype html>\n<p>oops</p>\n", { contentType: "text/event-stream" });
  model.replyGarbage('{"unexpected": true}', { contentType: "application/json" });
  assert.deepEqual((await failureOf({ baseUrl: model.url })).failure, {
    kind: "garbage",
    providerMessage: "{not json at all",
  });
  assert.deepEqual((await failureOf({ baseUrl: model.url })).failure, {
    kind: "garbage",
    providerMessage: "<!doctype html>",
  });
  assert.deepEqual((await failureOf({ baseUrl: model.url })).failure, {
    kind: "garbage",
    providerMessage: '{"unexpected": true}',
  });
});

Deno.test("streamChat() reports a stream that ends before [DONE] or a finish as cut off", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyCutOff("This answer will never finish its sentence");
  const got = await failureOf({ baseUrl: model.url });
  assert.deepEqual(got, {
    code: "PROVIDER_ERROR",
    message: "Your agent could not answer: the provider's reply was cut off",
    hint: LOGS_HINT,
    failure: { kind: "cut_off", providerMessage: "The stream ended before [DONE] or a finish reason" },
    texts: ["This ", "answer ", "will ", "never "],
  });
});

Deno.test("streamChat() reports a dropped connection mid-stream as cut off", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyCutOff("Half of this", { abrupt: true });
  const got = await failureOf({ baseUrl: model.url });
  assert.deepEqual([got.message, got.failure?.kind], [
    "Your agent could not answer: the provider's reply was cut off",
    "cut_off",
  ]);
});

Deno.test("streamChat() reports an error the provider sends mid-stream", async () => {
  using _logs = captureLogs();
  await using model = await serveFakeModel();
  model.replyStreamError("Provider returned error", { text: "Start of" });
  const got = await failureOf({ baseUrl: model.url });
  assert.deepEqual([got.message, got.failure, got.texts], [
    "Your agent could not answer: the provider failed mid-answer",
    { kind: "provider_failed", providerMessage: "Provider returned error" },
    ["Start "],
  ]);
});

Deno.test("streamChat() reports a provider nobody listens for as unreachable, with no URL in its words", async () => {
  using _logs = captureLogs();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const got = await failureOf({ baseUrl: `http://127.0.0.1:${port}/_link/s/proxy-secret/v1` });
  assert.equal(got.message, "Your agent could not answer: the provider could not be reached");
  assert.equal(got.failure?.kind, "unreachable");
  assert.ok(!got.failure?.providerMessage?.includes("proxy-secret"), got.failure?.providerMessage);
});

Deno.test("streamChat() stops when its signal aborts, throwing the signal's reason", async () => {
  await using model = await serveFakeModel();
  const control = model.reply("one two three", { stallAfter: 2 });
  const abort = new AbortController();
  const iterator = streamChat(HELLO, { baseUrl: model.url, signal: abort.signal })[Symbol.asyncIterator]();
  assert.deepEqual((await iterator.next()).value, { type: "text", text: "one " });
  const next = iterator.next();
  abort.abort(new Error("cancelled by the person"));
  await assert.rejects(next, { message: "cancelled by the person" });
  await control.done;
});
