/** One event of a Server-Sent Events stream, as far as Link reads one. */
export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a Server-Sent Events stream (the daemon's GET /api/v1/events) a line at a time: `onLine`
 * hears every line, a keep-alive comment (`:`) too, so a watchdog can tell a live stream from a
 * silent one; each whole event goes to `onEvent`, awaited before the next line is read.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  handlers: { onLine(): void; onEvent(event: StreamEvent): Promise<void> },
): Promise<void> {
  let buffer = "";
  let current: { id?: string; event?: string; data: string[] } = { data: [] };
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    handlers.onLine();
    buffer += chunk;
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      if (line === "") {
        if (current.data.length > 0) {
          await handlers.onEvent({
            id: current.id,
            event: current.event ?? "message",
            data: current.data.join("\n"),
          });
        }
        current = { data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") current.data.push(value);
      else if (field === "event") current.event = value;
      else if (field === "id") current.id = value;
    }
  }
}
