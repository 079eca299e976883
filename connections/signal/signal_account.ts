import { z } from "zod";

/**
 * Where the person's own signal-cli daemon answers (`signal-cli daemon --http 127.0.0.1:<port>`)
 * and the agent's number, when the daemon serves several accounts.
 */
export interface SignalAccount {
  daemonUrl: string;
  number?: string;
}

/** The daemon's error codes Link tells apart (signal-cli-jsonrpc(5), JSON-RPC 2.0). */
export const METHOD_NOT_FOUND = -32601;

/** A JSON-RPC answer, as far as Link reads one. */
const RpcAnswer = z.looseObject({
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
});

/** A call the daemon answered with a JSON-RPC error, or did not answer as signal-cli does. */
export class SignalRpcError extends Error {
  override name = "SignalRpcError";
  /** The JSON-RPC error code; undefined when the answer was not JSON-RPC at all. */
  readonly rpcCode: number | undefined;
  /** The HTTP status, when the daemon answered one other than 200. */
  readonly status: number | undefined;
  constructor(message: string, options: { rpcCode?: number; status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.rpcCode = options.rpcCode;
    this.status = options.status;
  }
}

/** The daemon's address without a trailing slash. */
export function daemonBase(account: SignalAccount): string {
  return account.daemonUrl.replace(/\/+$/, "");
}

let nextId = 1;

/**
 * One JSON-RPC call to the daemon (POST /api/v1/rpc), with the account named when one is given:
 * resolves with its result. A JSON-RPC error or an answer that is not JSON-RPC throws
 * SignalRpcError; a daemon that does not answer throws fetch's error.
 */
export async function signalRpc(
  account: SignalAccount,
  method: string,
  options: { params?: Record<string, unknown>; signal?: AbortSignal } = {},
): Promise<unknown> {
  const params = { ...options.params, ...(account.number ? { account: account.number } : {}) };
  const res = await fetch(`${daemonBase(account)}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    signal: options.signal,
  });
  const text = await res.text();
  if (res.status !== 200) {
    throw new SignalRpcError(`The daemon answered ${method} with HTTP ${res.status}`, { status: res.status });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new SignalRpcError(`The daemon answered ${method} with something other than JSON`, { cause: err });
  }
  const answer = RpcAnswer.safeParse(body);
  if (!answer.success) {
    throw new SignalRpcError(`The daemon answered ${method} with something other than JSON-RPC`);
  }
  if (answer.data.error) {
    const { code, message } = answer.data.error;
    throw new SignalRpcError(`The daemon refused ${method}: ${message}`, { rpcCode: code });
  }
  return answer.data.result;
}

/** A foreign error as a reason to log or show: its message and its cause's. */
export function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const inner = err.cause instanceof Error && err.cause.message !== err.message
    ? `: ${err.cause.message}`
    : "";
  return `${err.message}${inner}`;
}
