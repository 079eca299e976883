import type { QueuedReply } from "./reply_control.ts";
import { completionBody, streamPayloads, type WireContext } from "./wire.ts";

const encoder = new TextEncoder();

/** Turns a queued reply into the Response the fake sends, honouring its hold, stall and pace. */
export async function respond(entry: QueuedReply, ctx: WireContext, stream: boolean): Promise<Response> {
  const reply = entry.reply;
  if (reply.hold) {
    try {
      await entry.gate.wait();
    } catch {
      entry.finish();
      return new Response("fake model closing", { status: 503 });
    }
  }
  switch (reply.kind) {
    case "error": {
      entry.finish();
      const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      const type = typeof reply.body === "string" ? "text/plain" : "application/json";
      return new Response(body, {
        status: reply.status,
        headers: { "content-type": type, ...reply.headers },
      });
    }
    case "garbage":
      return paced(entry, [reply.body], { "content-type": reply.contentType }, reply.status, false);
    case "stream_error":
      if (!stream) {
        const body = JSON.stringify({ error: { message: reply.message, code: reply.code } });
        return paced(entry, [body], { "content-type": "application/json" }, 200, false);
      }
      break;
    case "cut_off":
      if (!stream) {
        const full = completionBody({ kind: "text", text: reply.text }, ctx);
        const half = full.slice(0, Math.floor(full.length / 2));
        return paced(entry, [half], { "content-type": "application/json" }, 200, reply.abrupt);
      }
      break;
    default:
      if (!stream) {
        return paced(entry, [completionBody(reply, ctx)], { "content-type": "application/json" }, 200, false);
      }
  }
  const frames = streamPayloads(reply, ctx).map((payload) => `data: ${payload}\n\n`);
  const abrupt = reply.kind === "cut_off" && reply.abrupt;
  return paced(
    entry,
    frames,
    { "content-type": "text/event-stream", "cache-control": "no-cache" },
    200,
    abrupt,
  );
}

function paced(
  entry: QueuedReply,
  frames: string[],
  headers: Record<string, string>,
  status: number,
  abrupt: boolean,
): Response {
  let cancelled = false;
  const { paced, stallAfter } = entry.reply;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      (async () => {
        try {
          for (const [i, frame] of frames.entries()) {
            if (paced || (stallAfter !== undefined && i >= stallAfter)) await entry.gate.wait();
            if (cancelled) return;
            controller.enqueue(encoder.encode(frame));
          }
          if (abrupt) controller.error("fake model cut the connection");
          else controller.close();
        } catch {
          if (!cancelled) controller.close();
        } finally {
          entry.finish();
        }
      })();
    },
    cancel() {
      cancelled = true;
      entry.disconnect();
      entry.gate.abort(new Error("client went away"));
    },
  });
  return new Response(body, { status, headers });
}
