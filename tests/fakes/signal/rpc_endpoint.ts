/**
 * The body of `POST /api/v1/rpc`: each request recorded, a fault a test injected answered instead of
 * its result (a JSON-RPC error for that request, or an HTTP answer for the whole body), the rest run.
 */
import { answerBody, type JsonRpcId, type JsonRpcRequest, RpcError } from "./json_rpc.ts";
import { type Daemon, DEREGISTERED_ERROR, rateLimitError, runMethod } from "./methods.ts";

/** One JSON-RPC request the client made (each of a batch apart), as the fake received it. */
export interface FakeSignalCall {
  method: string;
  params: Record<string, unknown>;
  /** undefined for a notification. */
  id: JsonRpcId | undefined;
  at: number;
  /** What the fake answered this request: its result or error, or the HTTP fault. */
  answer?: { result: unknown } | { error: unknown } | { status: number; body: string };
}

/** A fault to answer a call with instead of its result. */
export type FakeSignalFault =
  /** A JSON-RPC error object for this request. */
  | { error: { code: number; message: string; data?: unknown } }
  /** signal-cli's -5 rate-limit error, every recipient rate limited by Signal's servers for `seconds`. */
  | { rateLimited: number }
  /** The whole HTTP answer: this status (500, 503) and body. */
  | { status: number; body?: string }
  /** HTTP 200, `Content-Type: application/json`, and a body that is not JSON. */
  | { garbage: string };

/** signal-cli's answer to a send from an account Signal's servers no longer know (deregistered). */
export const DEREGISTERED: FakeSignalFault = { error: { ...DEREGISTERED_ERROR, data: null } };

/** What the endpoint needs of the fake. */
export interface RpcEndpoint {
  daemon: Daemon;
  /** Records `request` as a call (and wakes whoever waits for it). */
  record(request: JsonRpcRequest): FakeSignalCall;
  /** The fault queued for `method`, taken off its queue. */
  takeFault(method: string): FakeSignalFault | undefined;
}

/** Answers one body of `POST /api/v1/rpc`. */
export function answerRpc(text: string, endpoint: RpcEndpoint): Response {
  let httpFault: HttpAnswer | undefined;
  const answer = answerBody(text, (request) => {
    const call = endpoint.record(request);
    try {
      const result = runCall(endpoint, request);
      call.answer = { result };
      return result;
    } catch (err) {
      if (err instanceof HttpFault) {
        httpFault ??= err.answer;
        call.answer = { status: err.answer.status, body: err.answer.body };
        return null;
      }
      if (err instanceof RpcError) call.answer = { error: err.error };
      throw err;
    }
  });
  if (httpFault) {
    const headers = httpFault.json ? { "content-type": "application/json" } : undefined;
    return new Response(httpFault.body, { status: httpFault.status, headers });
  }
  if (answer === undefined) return new Response(null, { status: 201 });
  return Response.json(answer);
}

interface HttpAnswer {
  status: number;
  body: string;
  json: boolean;
}

class HttpFault extends Error {
  constructor(readonly answer: HttpAnswer) {
    super(`HTTP ${answer.status}`);
  }
}

function runCall(endpoint: RpcEndpoint, request: JsonRpcRequest): unknown {
  const fault = endpoint.takeFault(request.method);
  if (fault && "error" in fault) {
    throw new RpcError(fault.error.code, fault.error.message, fault.error.data ?? null);
  }
  if (fault && "rateLimited" in fault) {
    throw rateLimitError(endpoint.daemon, request.params, fault.rateLimited);
  }
  if (fault && "garbage" in fault) throw new HttpFault({ status: 200, body: fault.garbage, json: true });
  if (fault) throw new HttpFault({ status: fault.status, body: fault.body ?? "", json: false });
  return runMethod(endpoint.daemon, request.method, request.params);
}
