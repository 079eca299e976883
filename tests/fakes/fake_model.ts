/**
 * A fake OpenAI-compatible model provider on 127.0.0.1, port 0: POST /v1/chat/completions
 * (streamed as SSE or as one JSON body) and GET /v1/models. A test scripts its replies in a
 * queue, paces or holds them, and reads back every request it got.
 */
import { type FakeModelRequest, QueuedReply, type ReplyControl } from "./model/reply_control.ts";
import { respond } from "./model/respond.ts";
import type { FakeEmbeddings } from "./fake_embeddings.ts";
import {
  estimateTokens,
  type FakeToolCall,
  type FakeUsage,
  type ReplyTiming,
  type ScriptedReply,
} from "./model/scripted_reply.ts";

export type { FakeModelRequest, FakeToolCall, FakeUsage, ReplyControl, ReplyTiming, ScriptedReply };

/** How a fake model server starts. */
export interface FakeModelOptions {
  /** The models GET /v1/models lists; ["fake-model"] unless told. */
  models?: string[];
  /** The text answered when the queue is empty. */
  defaultText?: string;
  /** When set, a request without `Authorization: Bearer <key>` gets OpenAI's 401. */
  key?: string;
  /** When set, POST /v1/embeddings is answered by it (tests/fakes/fake_embeddings.ts). */
  embeddings?: FakeEmbeddings;
}

/** Options of a text reply. */
export type TextReplyOptions = ReplyTiming & {
  chunks?: string[];
  usage?: FakeUsage;
  finishReason?: string;
  reasoning?: string;
};

/** A running fake model server. */
export interface FakeModel extends AsyncDisposable {
  /** The base URL, ending in /v1. */
  readonly url: string;
  /** Every chat request so far, oldest first. */
  readonly requests: FakeModelRequest[];
  /** Every GET /v1/models so far (local detection's probes). */
  readonly probes: FakeModelRequest[];
  /** The next chat request this method has not returned yet, waiting for it if need be. */
  nextRequest(): Promise<FakeModelRequest>;
  /** Queues any scripted reply. */
  push(reply: ScriptedReply): ReplyControl;
  /**
   * Keeps a reply for the first request `when` picks, ahead of the queue: for several agents or
   * conversations asking at once, each answered by what it asked, whatever order they come in.
   */
  replyWhen(when: (request: FakeModelRequest) => boolean, reply: ScriptedReply): ReplyControl;
  /**
   * Answers each request nothing kept or queued picks with what `answer` makes of it (undefined:
   * the default text): a model whose every turn follows one rule, as two agents told to answer
   * each other for ever are.
   */
  replyEach(answer: (request: FakeModelRequest) => ScriptedReply | undefined): void;
  /** Queues a text answer. */
  reply(text: string, options?: TextReplyOptions): ReplyControl;
  /** Queues an answer that calls one tool. */
  replyToolCall(name: string, args: unknown, options?: ReplyTiming & { id?: string }): ReplyControl;
  /** Queues an answer that calls several tools, arguments cut into `argPieces` chunks each. */
  replyToolCalls(
    calls: FakeToolCall[],
    options?: ReplyTiming & { text?: string; argPieces?: number; usage?: FakeUsage },
  ): ReplyControl;
  /** Queues an HTTP error: `body` is sent as JSON unless it is a string. */
  replyError(status: number, body?: unknown, headers?: Record<string, string>): ReplyControl;
  /** Queues a 200 whose body is neither SSE nor a completion. */
  replyGarbage(
    body?: string,
    options?: ReplyTiming & { contentType?: string; status?: number },
  ): ReplyControl;
  /** Queues a reply that ends before its finish and [DONE]; `abrupt` drops the connection. */
  replyCutOff(text?: string, options?: ReplyTiming & { abrupt?: boolean }): ReplyControl;
  /** Queues a stream that starts, then carries an `{"error": …}` chunk (as OpenRouter does). */
  replyStreamError(message: string, options?: ReplyTiming & { text?: string; code?: number }): ReplyControl;
}

/** Starts a fake model server; `await using model = await serveFakeModel()`. */
export function serveFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const models = options.models ?? ["fake-model"];
  const queue: QueuedReply[] = [];
  const picked: { when: (request: FakeModelRequest) => boolean; entry: QueuedReply }[] = [];
  const live = new Set<QueuedReply>();
  const requests: FakeModelRequest[] = [];
  const probes: FakeModelRequest[] = [];
  let cursor = 0;
  let each: ((request: FakeModelRequest) => ScriptedReply | undefined) | undefined;
  let waiters: (() => void)[] = [];
  let seq = 0;

  async function handler(req: Request): Promise<Response> {
    const record = await recordOf(req);
    const path = record.path;
    if (req.method === "GET" && path === "/v1/models") {
      probes.push(record);
      const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" }));
      return Response.json({ object: "list", data });
    }
    if (req.method === "POST" && path === "/v1/embeddings" && options.embeddings) {
      return await options.embeddings.handle(
        new Request(req.url, { method: "POST", headers: req.headers, body: record.rawBody }),
      );
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return Response.json({ error: { message: `Unknown path ${path}` } }, { status: 404 });
    }
    requests.push(record);
    for (const wake of waiters.splice(0)) wake();
    if (options.key !== undefined && record.headers["authorization"] !== `Bearer ${options.key}`) {
      return Response.json({
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      }, { status: 401 });
    }
    const pick = picked.findIndex((p) => p.when(record));
    const ruled = () => {
      const made = each?.(record);
      return made ? new QueuedReply(made) : undefined;
    };
    const entry = (pick >= 0 ? picked.splice(pick, 1)[0]!.entry : queue.shift()) ?? ruled() ??
      new QueuedReply({ kind: "text", text: options.defaultText ?? "Hello from the fake model" });
    live.add(entry);
    entry.done.then(() => live.delete(entry));
    entry.take(record);
    const body = (record.body ?? {}) as Record<string, unknown>;
    const streamOptions = (body.stream_options ?? {}) as Record<string, unknown>;
    const ctx = {
      id: `chatcmpl-fake-${++seq}`,
      model: typeof body.model === "string" ? body.model : models[0] ?? "fake-model",
      created: Math.floor(record.receivedAtEpoch / 1000),
      promptTokens: estimateTokens(record.rawBody),
      includeUsage: streamOptions.include_usage === true,
    };
    return await respond(entry, ctx, body.stream === true);
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const queued = (reply: ScriptedReply): ReplyControl => {
    const entry = new QueuedReply(reply);
    queue.push(entry);
    return entry;
  };

  const fake: FakeModel = {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    probes,
    nextRequest() {
      const next = requests[cursor];
      if (next) {
        cursor++;
        return Promise.resolve(next);
      }
      const { promise, resolve } = Promise.withResolvers<void>();
      waiters.push(resolve);
      return promise.then(() => fake.nextRequest());
    },
    push: queued,
    replyWhen(when, reply) {
      const entry = new QueuedReply(reply);
      picked.push({ when, entry });
      return entry;
    },
    replyEach(answer) {
      each = answer;
    },
    reply: (text, o = {}) => queued({ kind: "text", text, ...o }),
    replyToolCall: (name, args, o = {}) => {
      const { id, ...timing } = o;
      return queued({ kind: "tool_calls", calls: [{ name, args, id }], ...timing });
    },
    replyToolCalls: (calls, o = {}) => queued({ kind: "tool_calls", calls, ...o }),
    replyError: (status, body = { error: { message: `HTTP ${status}` } }, headers) =>
      queued({ kind: "error", status, body, headers }),
    replyGarbage: (body = "<html><body>502 Bad Gateway</body></html>", o = {}) =>
      queued({
        ...o,
        kind: "garbage",
        body,
        contentType: o.contentType ?? "text/html",
        status: o.status ?? 200,
      }),
    replyCutOff: (text = "This answer will never finish its", o = {}) =>
      queued({ ...o, kind: "cut_off", text, abrupt: o.abrupt ?? false }),
    replyStreamError: (message, o = {}) =>
      queued({ ...o, kind: "stream_error", text: o.text ?? "Partly", message, code: o.code ?? 502 }),
    async [Symbol.asyncDispose]() {
      for (const entry of [...queue, ...picked.map((p) => p.entry), ...live]) {
        entry.gate.abort(new Error("fake model closing"));
      }
      waiters = [];
      await server.shutdown();
    },
  };
  return Promise.resolve(fake);
}

async function recordOf(req: Request): Promise<FakeModelRequest> {
  const receivedAt = performance.now();
  const receivedAtEpoch = Date.now();
  let firstByteAt: number | undefined;
  const parts: Uint8Array[] = [];
  if (req.body) {
    for await (const part of req.body) {
      firstByteAt ??= performance.now();
      parts.push(part);
    }
  }
  const rawBody = new TextDecoder().decode(await new Blob(parts as BlobPart[]).arrayBuffer());
  let body: unknown;
  try {
    body = rawBody ? JSON.parse(rawBody) : undefined;
  } catch {
    body = undefined;
  }
  return {
    method: req.method,
    path: new URL(req.url).pathname,
    headers: Object.fromEntries(req.headers),
    rawBody,
    body,
    receivedAt,
    receivedAtEpoch,
    firstByteAt: firstByteAt ?? receivedAt,
    disconnected: false,
  };
}
