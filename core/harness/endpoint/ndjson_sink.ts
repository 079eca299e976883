import type { TurnResult, TurnSink } from "../turns/turn_sink.ts";

const encoder = new TextEncoder();

/** The error meta key marking the sentence that says the agent could not answer. */
export const ERROR_META = "link.local/error";
/** The result's meta key listing the ids of the answers kept until the caller acknowledges them. */
export const KEPT_META = "link.local/kept";

/**
 * A turn's answer streamed on the request that started it: ACP `session/update` notifications,
 * one JSON line each, then the prompt's result. When the caller goes away (the server cancels the
 * body) the turn runs on and `waiting` turns false, so its answer is kept (LOC-6).
 */
export class NdjsonSink implements TurnSink {
  readonly response: Response;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  #id: number | string | null;
  #sessionId: string;
  #onEnd: (() => void) | undefined;
  readonly acknowledges: boolean;

  constructor(
    id: number | string | null,
    sessionId: string,
    options: { headers: Record<string, string>; onEnd?: () => void; acknowledges?: boolean },
  ) {
    this.acknowledges = options.acknowledges === true;
    this.#id = id;
    this.#sessionId = sessionId;
    this.#onEnd = options.onEnd;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.#controller = controller),
      cancel: () => void (this.#open = false),
    });
    this.response = new Response(body, {
      headers: { "Content-Type": "application/x-ndjson", ...options.headers },
    });
  }

  get waiting(): boolean {
    return this.#open;
  }

  text(text: string, error = false): void {
    this.#update({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text },
      ...(error ? { _meta: { [ERROR_META]: true } } : {}),
    });
  }

  toolCall(call: { id: string; name: string; arguments: string }): void {
    this.#update({
      sessionUpdate: "tool_call",
      toolCallId: call.id,
      title: call.name,
      kind: "other",
      status: "in_progress",
      rawInput: call.arguments,
    });
  }

  toolResult(id: string, ok: boolean): void {
    this.#update({ sessionUpdate: "tool_call_update", toolCallId: id, status: ok ? "completed" : "failed" });
  }

  end(result: TurnResult): void {
    this.#onEnd?.();
    this.#onEnd = undefined;
    const { error, kept, ...rest } = result;
    const meta = { ...(error ? { [ERROR_META]: error } : {}), ...(kept ? { [KEPT_META]: kept } : {}) };
    this.#send({
      jsonrpc: "2.0",
      id: this.#id,
      result: Object.keys(meta).length ? { ...rest, _meta: meta } : rest,
    });
    if (!this.#open) return;
    this.#open = false;
    try {
      this.#controller.close();
    } catch { /* the caller went */ }
  }

  #update(update: Record<string, unknown>): void {
    this.#send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: this.#sessionId, update } });
  }

  #send(message: unknown): void {
    if (!this.#open) return;
    try {
      this.#controller.enqueue(encoder.encode(`${JSON.stringify(message)}\n`));
    } catch {
      this.#open = false;
    }
  }
}
