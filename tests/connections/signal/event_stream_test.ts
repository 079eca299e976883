import assert from "node:assert/strict";
import { readEventStream, type StreamEvent } from "../../../connections/signal/event_stream.ts";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

Deno.test("readEventStream() reads signal-cli's events across chunks, hears keep-alives, and skips comments", async () => {
  const events: StreamEvent[] = [];
  let lines = 0;
  await readEventStream(
    streamOf([
      ":\n",
      "id:1-1\nevent:receive\nda",
      'ta:{"a":1}\n\n:\n',
      "event: receive\r\ndata: one\r\ndata: two\r\n\r\n",
      "data\n\n",
      "event:receive\ndata:{}",
    ]),
    {
      onLine: () => lines++,
      onEvent: (e) => {
        events.push(e);
        return Promise.resolve();
      },
    },
  );
  assert.deepEqual(events, [
    { id: "1-1", event: "receive", data: '{"a":1}' },
    { id: undefined, event: "receive", data: "one\ntwo" },
    { id: undefined, event: "message", data: "" },
  ]);
  assert.equal(lines, 6);
});
