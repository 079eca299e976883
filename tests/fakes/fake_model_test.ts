import assert from "node:assert/strict";
import { serveFakeModel } from "./fake_model.ts";

function post(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test": "yes" },
    body: JSON.stringify(body),
  });
}

function dataLines(text: string): unknown[] {
  return text.split("\n\n").filter(Boolean).map((frame) => {
    const data = frame.replace(/^data: /, "");
    return data === "[DONE]" ? data : JSON.parse(data);
  });
}

Deno.test("serveFakeModel() records each request with its headers, body and arrival times", async () => {
  await using model = await serveFakeModel();
  const before = performance.now();
  const epoch = Date.now();
  await (await post(model.url, { model: "m", messages: [], stream: false })).body?.cancel();
  const got = await model.nextRequest();
  assert.equal(got.headers["x-test"], "yes");
  assert.deepEqual(got.body, { model: "m", messages: [], stream: false });
  assert.equal(got.rawBody, '{"model":"m","messages":[],"stream":false}');
  assert.ok(got.receivedAt >= before && got.firstByteAt >= got.receivedAt, JSON.stringify(got));
  assert.ok(got.receivedAtEpoch >= epoch);
  assert.equal(model.requests.length, 1);
});

Deno.test("serveFakeModel() sends a streamed usage chunk only when stream_options.include_usage asks", async () => {
  await using model = await serveFakeModel({ defaultText: "hi there" });
  const plain = dataLines(await (await post(model.url, { model: "m", messages: [], stream: true })).text());
  const withUsage = dataLines(
    await (await post(model.url, {
      model: "m",
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    })).text(),
  );
  const usages = (frames: unknown[]) =>
    frames.filter((f) => typeof f === "object" && f !== null && "usage" in f);
  assert.equal(usages(plain).length, 0);
  assert.equal(usages(withUsage).length, 1);
  assert.deepEqual([plain.at(-1), withUsage.at(-1)], ["[DONE]", "[DONE]"]);
  const whole = await (await post(model.url, { model: "m", messages: [], stream: false })).json();
  assert.deepEqual(whole.choices[0].message, { role: "assistant", content: "hi there" });
  assert.deepEqual(Object.keys(whole.usage), ["prompt_tokens", "completion_tokens", "total_tokens"]);
});

Deno.test("serveFakeModel() holds a reply until the test releases it", async () => {
  await using model = await serveFakeModel();
  const held = model.reply("late", { hold: true });
  const answering = post(model.url, { model: "m", messages: [], stream: false });
  const request = await held.taken;
  assert.equal(request, await model.nextRequest());
  held.release();
  const whole = await (await answering).json();
  assert.equal(whole.choices[0].message.content, "late");
  await held.done;
});

Deno.test("serveFakeModel() lists its models at GET /v1/models, counted as probes", async () => {
  await using model = await serveFakeModel({ models: ["a", "b"] });
  const list = await (await fetch(`${model.url}/models`)).json();
  assert.deepEqual(list.data.map((m: { id: string }) => m.id), ["a", "b"]);
  assert.deepEqual([model.probes.length, model.requests.length], [1, 0]);
});

Deno.test("serveFakeModel() closes with a reply still held", async () => {
  const model = await serveFakeModel();
  const held = model.reply("never", { hold: true });
  const answering = post(model.url, { model: "m", messages: [], stream: true });
  await held.taken;
  await model[Symbol.asyncDispose]();
  const response = await answering;
  assert.equal(response.status, 503);
  await response.body?.cancel();
});

Deno.test("serveFakeModel() answers a request picked by replyWhen with its reply, whatever the order, the queue the rest", async () => {
  await using model = await serveFakeModel();
  const asking = (text: string) => ({
    model: "m",
    stream: false,
    messages: [{ role: "user", content: text }],
  });
  const saysB = (r: { body?: unknown }) =>
    JSON.stringify((r.body as { messages?: unknown })?.messages ?? []).includes("for B");
  model.reply("queued");
  model.replyWhen(saysB, { kind: "text", text: "picked" });
  const answer = async (text: string) => {
    const body = await (await post(model.url, asking(text))).json() as {
      choices: { message: { content: string } }[];
    };
    return body.choices[0]!.message.content;
  };
  assert.deepEqual([await answer("for A"), await answer("for B")], ["queued", "picked"]);
});
