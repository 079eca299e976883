/**
 * A reader of Server-Sent Events written for the fake signal-cli's tests from the spec's line
 * grammar (fields `name:value`, one optional space after the colon, `:` comments, a blank line ends
 * an event), so the fake's stream is read the way a browser's EventSource reads it.
 */

/** Reads comments and events off one stream. */
export interface SseReader extends AsyncDisposable {
  /** The next comment or event; undefined once the stream ended or broke. */
  next(): Promise<SseItem | undefined>;
  /** The next `receive` event's data, parsed, skipping comments; undefined once the stream ended. */
  nextEvent(): Promise<unknown>;
}

export type SseItem = { comment: string } | { event: string; data: string };

/** Reads `body` as Server-Sent Events. */
export function readEvents(body: ReadableStream<Uint8Array>): SseReader {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let done = false;
  const line = async (): Promise<string | undefined> => {
    while (!buffer.includes("\n")) {
      if (done) return undefined;
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) done = true;
      else buffer += chunk.value;
    }
    const end = buffer.indexOf("\n");
    const text = buffer.slice(0, end);
    buffer = buffer.slice(end + 1);
    return text;
  };
  /** The next comment or event; undefined once the stream ended or broke. */
  const next = async (): Promise<SseItem | undefined> => {
    const fields: Record<string, string> = {};
    for (;;) {
      const text = await line();
      if (text === undefined) return undefined;
      if (text.startsWith(":")) {
        if (Object.keys(fields).length === 0) return { comment: text.slice(1) };
        continue;
      }
      if (text === "") {
        if (Object.keys(fields).length === 0) continue;
        return { event: fields.event ?? "message", data: fields.data ?? "" };
      }
      const colon = text.indexOf(":");
      const name = colon < 0 ? text : text.slice(0, colon);
      const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
      fields[name] = name === "data" && fields.data !== undefined ? `${fields.data}\n${value}` : value;
    }
  };
  /** The next event's data, parsed, skipping keep-alive comments. */
  const nextEvent = async (): Promise<unknown> => {
    for (;;) {
      const item = await next();
      if (item === undefined) return undefined;
      if ("event" in item) {
        if (item.event !== "receive") {
          throw new Error(`Cannot read event "${item.event}": not a receive event`);
        }
        return JSON.parse(item.data);
      }
    }
  };
  return {
    next,
    nextEvent,
    async [Symbol.asyncDispose]() {
      await reader.cancel().catch(() => {});
    },
  };
}
