import assert from "node:assert/strict";
import { chatBody } from "../../../../core/harness/model/mod.ts";

Deno.test("chatBody() leaves out what is not set and asks for usage when streaming", () => {
  const request = { model: "m", messages: [{ role: "user" as const, content: "hi" }], tools: [] };
  assert.equal(
    chatBody(request, { stream: false }),
    '{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":false}',
  );
  assert.equal(
    chatBody({ ...request, maxTokens: 10, temperature: 0 }, { stream: true }),
    '{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":10,"temperature":0,"stream":true,"stream_options":{"include_usage":true}}',
  );
});
