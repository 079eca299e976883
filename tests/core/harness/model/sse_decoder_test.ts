import assert from "node:assert/strict";
import { SseDecoder } from "../../../../core/harness/model/sse_decoder.ts";

Deno.test("SseDecoder joins events split anywhere, CRLF or LF, skipping comments", () => {
  const decoder = new SseDecoder();
  const pieces = [
    ": OPENROUTER PROCESSING\r\n\r",
    '\ndata: {"a"',
    ":1}\r\n\r\nda",
    "ta: x\ndata: y\n\nevent: ping\nid: 3\n\n",
  ];
  const events = pieces.flatMap((p) => decoder.push(p).events);
  assert.deepEqual(events, ['{"a":1}', "x\ny"]);
  assert.deepEqual(decoder.end(), { events: [] });
});

Deno.test("SseDecoder counts an event left without its blank line at the end", () => {
  const decoder = new SseDecoder();
  assert.deepEqual(decoder.push("data: [DONE]"), { events: [] });
  assert.deepEqual(decoder.end(), { events: ["[DONE]"] });
});

Deno.test("SseDecoder reports a line that is no SSE field", () => {
  const decoder = new SseDecoder();
  assert.deepEqual(decoder.push("data: 1\n\n<html>\n"), { events: ["1"], badLine: "<html>" });
});
