import { type Clock, isLinkError, logger, type Secret, SYSTEM_CLOCK } from "../../base/mod.ts";
import type { ChatEvent } from "./chat_event.ts";
import { completionEvents } from "./completion_events.ts";
import { chatBody, type ChatRequest } from "./messages.ts";
import { httpFailure, providerError, providerFailureOf } from "./provider_error.ts";
import { trimSlashes } from "./providers.ts";
import { sseEvents } from "./sse_events.ts";
import { beforeDeadline, TimedBody } from "./timed_body.ts";

const log = logger("model");

/** Where and how one chat call goes. */
export interface StreamChatOptions {
  /** The provider's base URL (through Link's proxy, inside a sandbox), ending before /chat/completions. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; left out when the proxy adds the key. */
  key?: Secret;
  /** More headers, such as OpenRouter's `X-Title`. */
  headers?: Record<string, string>;
  /** Stops the call: the iteration then throws the signal's reason. */
  signal?: AbortSignal;
  clock?: Clock;
  /** How long until the answer's first byte, from the call's start (60 s unless told). */
  timeoutMs?: number;
  /** The longest silence mid-answer (60 s unless told). */
  stallMs?: number;
  /** False asks for the whole answer at once; the events are the same (true unless told). */
  stream?: boolean;
}

/**
 * Calls the model with the OpenAI-compatible chat completions API and yields its answer as
 * events (text, reasoning, complete tool calls, usage, then finish). A provider's failure is
 * a LinkError "PROVIDER_ERROR" saying "Your agent could not answer: …", its details kept for
 * the logs (`providerFailureOf`) and logged here once. A server that answers a streamed request
 * with one JSON body is read as such.
 */
export async function* streamChat(
  request: ChatRequest,
  options: StreamChatOptions,
): AsyncGenerator<ChatEvent, void, undefined> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const stallMs = options.stallMs ?? 60_000;
  const stream = options.stream ?? true;
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) throw options.signal.reason;
  options.signal?.addEventListener("abort", stop, { once: true });
  let body: TimedBody | undefined;
  try {
    const firstByteBy = clock.now() + timeoutMs;
    const response = await beforeDeadline(
      send(request, options, stream, controller.signal),
      clock,
      timeoutMs,
      () => providerError({ kind: "timeout" }, { deadlineMs: timeoutMs }),
    );
    body = new TimedBody(response.body ?? new Blob([]).stream(), { clock, firstByteBy, timeoutMs, stallMs });
    if (!response.ok) {
      const text = await body.text(64 * 1024).catch(() => "");
      throw providerError(httpFailure(response.status, text, response.headers.get("retry-after")));
    }
    const format = await formatOf(response.headers.get("content-type") ?? "", body);
    yield* format === "sse" ? sseEvents(body) : completionEvents(body);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw logged(err, options.key);
  } finally {
    options.signal?.removeEventListener("abort", stop);
    controller.abort();
    await body?.cancel();
  }
}

async function send(request: ChatRequest, options: StreamChatOptions, stream: boolean, signal: AbortSignal) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: stream ? "text/event-stream" : "application/json",
    ...options.headers,
  };
  if (options.key) headers.authorization = `Bearer ${options.key.reveal()}`;
  try {
    return await fetch(`${trimSlashes(options.baseUrl)}/chat/completions`, {
      method: "POST",
      headers,
      body: chatBody(request, { stream }),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    // Deno's message names the URL, which may hold the proxy's secret: keep only the reason.
    const reason = err instanceof Error ? err.message.replace(/\bhttps?:\/\/\S+/g, "<url>") : String(err);
    throw providerError({ kind: "unreachable", providerMessage: reason });
  }
}

/** "sse" or "json" by the content type, else by the body's first characters; else garbage. */
async function formatOf(contentType: string, body: TimedBody): Promise<"sse" | "json"> {
  if (contentType.includes("event-stream")) return "sse";
  if (contentType.includes("json")) return "json";
  let head = "";
  while (head.trim() === "") {
    const piece = await body.next();
    if (piece === undefined) break;
    head += piece;
  }
  body.pushBack(head);
  const start = head.trimStart();
  if (start.startsWith("data:") || start.startsWith(":")) return "sse";
  if (start.startsWith("{")) return "json";
  throw providerError({ kind: "garbage", providerMessage: `${contentType}: ${start.slice(0, 2000)}` });
}

/** Takes the key out of the provider's words, and logs the failure for `lnk agent logs` (MDL-2). */
function logged(err: unknown, key: Secret | undefined): unknown {
  const failure = providerFailureOf(err);
  if (!failure) return err;
  if (key?.reveal() && failure.providerMessage) {
    failure.providerMessage = failure.providerMessage.replaceAll(key.reveal(), "[redacted]");
  }
  log.warn("The model provider failed", { ...failure, said: isLinkError(err) ? err.message : undefined });
  return err;
}
