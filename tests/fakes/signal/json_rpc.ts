/**
 * JSON-RPC 2.0 on `POST /api/v1/rpc` as signal-cli 0.14.6 reads it (`JsonRpcReader`,
 * `SignalJsonRpcCommandHandler`): one request or a batch per body; each answer
 * `{"jsonrpc":"2.0","result":…,"id":…}` or `{"jsonrpc":"2.0","error":{"code","message","data"},"id":…}`
 * with HTTP 200; a body of notifications only (no `id`) answered `201` with no body. Its error codes:
 * JSON-RPC's own (-32700 parse, -32600 invalid request, -32601 "Method not implemented", -32602
 * invalid params, -32603 internal) and signal-cli's (-1 user error, -3 IO, -4 untrusted key,
 * -5 rate limit, -6 captcha rejected).
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const USER_ERROR = -1;
export const IO_ERROR = -3;
export const UNTRUSTED_KEY_ERROR = -4;
export const RATELIMIT_ERROR = -5;
export const CAPTCHA_REJECTED_ERROR = -6;

/** A JSON-RPC error object as signal-cli writes it (`data` is null unless the command wrote a result). */
export interface JsonRpcError {
  code: number;
  message: string;
  data: unknown;
}

/** One JSON-RPC answer. */
export type JsonRpcAnswer =
  | { jsonrpc: "2.0"; result: unknown; id: JsonRpcId }
  | { jsonrpc: "2.0"; error: JsonRpcError; id: JsonRpcId };

export type JsonRpcId = string | number | null;

/** One request as read from the body. */
export interface JsonRpcRequest {
  method: string;
  params: Record<string, unknown> | undefined;
  /** undefined for a notification. */
  id: JsonRpcId | undefined;
}

/** Thrown by a method to answer with a JSON-RPC error. */
export class RpcError extends Error {
  readonly error: JsonRpcError;
  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.error = { code, message, data };
  }
}

/** Runs one request; its result, or throws RpcError. */
export type RunRequest = (request: JsonRpcRequest) => unknown;

/** Answers a body: what to send back as JSON, or undefined for no body (201). */
export function answerBody(text: string, run: RunRequest): JsonRpcAnswer | JsonRpcAnswer[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    return errorAnswer(new RpcError(PARSE_ERROR, `Unexpected character: ${(err as Error).message}`), null);
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return errorAnswer(new RpcError(INVALID_REQUEST, "invalid request"), null);
    const answers = body.map((item) => answerOne(item, run)).filter((a) => a !== undefined);
    return answers.length > 0 ? answers : undefined;
  }
  if (body === null || typeof body !== "object") {
    const type = body === null ? "NULL" : typeof body === "number" ? "NUMBER" : typeof body;
    return errorAnswer(new RpcError(INVALID_REQUEST, `unexpected type: ${type.toUpperCase()}`), null);
  }
  return answerOne(body, run);
}

function answerOne(item: unknown, run: RunRequest): JsonRpcAnswer | undefined {
  const id = idOf(item);
  let request: JsonRpcRequest;
  try {
    request = requestOf(item);
  } catch (err) {
    if (err instanceof RpcError) return errorAnswer(err, id ?? null);
    throw err;
  }
  try {
    const result = run(request);
    return request.id === undefined ? undefined : { jsonrpc: "2.0", result, id: request.id };
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    return request.id === undefined ? undefined : errorAnswer(err, request.id);
  }
}

function requestOf(item: unknown): JsonRpcRequest {
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    throw new RpcError(INVALID_REQUEST, "invalid request");
  }
  const fields = item as Record<string, unknown>;
  if (fields.jsonrpc !== "2.0") throw new RpcError(INVALID_REQUEST, "only jsonrpc version 2.0 is supported");
  if (typeof fields.method !== "string") throw new RpcError(INVALID_REQUEST, "method field must be set");
  const params = fields.params ?? undefined;
  if (params !== undefined && (typeof params !== "object" || Array.isArray(params))) {
    throw new RpcError(
      INVALID_REQUEST,
      "Cannot deserialize value of type `java.util.LinkedHashMap<java.lang.String,java.lang.Object>` from Array value",
    );
  }
  return { method: fields.method, params: params as Record<string, unknown> | undefined, id: idOf(item) };
}

function idOf(item: unknown): JsonRpcId | undefined {
  if (item === null || typeof item !== "object" || !("id" in item)) return undefined;
  const id = (item as { id: unknown }).id;
  return typeof id === "string" || typeof id === "number" || id === null ? id : undefined;
}

function errorAnswer(err: RpcError, id: JsonRpcId): JsonRpcAnswer {
  return { jsonrpc: "2.0", error: err.error, id };
}
