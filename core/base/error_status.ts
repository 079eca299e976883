import type { ErrorCode } from "./errors.ts";
import { LinkError } from "./errors.ts";
import { errorFromWire, errorWire } from "./error_wire.ts";

/**
 * The HTTP status an error answers with where one of Link's processes answers another over HTTP
 * (an endpoint, a control socket). The body says the code; the status says it to HTTP.
 */
const STATUS: Record<ErrorCode, number> = {
  USAGE: 400,
  INVALID: 400,
  BUSY: 429,
  NOT_A_TERMINAL: 400,
  PROOF_FAILED: 401,
  REFUSED: 403,
  SANDBOX_REFUSED: 403,
  SYMLINK_REFUSED: 403,
  AGENT_NOT_FOUND: 404,
  UNSUPPORTED: 404,
  AGENT_BUSY: 409,
  AGENT_EXISTS: 409,
  AGENT_RUNNING: 409,
  CONFLICT: 409,
  CONFIG_INVALID: 500,
  INTERNAL: 500,
  PROVIDER_ERROR: 502,
  TURN_FAILED: 502,
  CLONE_FAILED: 502,
  AGENT_NOT_RUNNING: 503,
  HARNESS_MISSING: 503,
  PORT_UNAVAILABLE: 503,
  SANDBOX_UNAVAILABLE: 503,
  SERVICE_FAILED: 503,
  TIMEOUT: 504,
};

/** Back: the code of an error answer whose body is not the one shape (a harness Link does not control). */
const CODE: Record<number, ErrorCode> = {
  400: "INVALID",
  401: "PROOF_FAILED",
  403: "REFUSED",
  404: "UNSUPPORTED",
  409: "CONFLICT",
  429: "BUSY",
  500: "INTERNAL",
  502: "PROVIDER_ERROR",
  503: "SERVICE_FAILED",
  504: "TIMEOUT",
};

/** The HTTP status an error with this code answers with. */
export function errorStatus(code: ErrorCode): number {
  return STATUS[code];
}

/** The code an error answer with this status and no body of the one shape stands for. */
export function errorCodeOfStatus(status: number): ErrorCode {
  return CODE[status] ?? (status >= 500 ? "SERVICE_FAILED" : "REFUSED");
}

/** An error as an HTTP answer: the one shape, with its code's status unless the route fixes one. */
export function errorResponse(err: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  const body = errorWire(err);
  return Response.json(body, { status: init.status ?? errorStatus(body.error.code), headers: init.headers });
}

/**
 * The error an HTTP error answer carries: the one shape read back with its code, else one of its
 * status's code with the start of the body as its message.
 */
export function errorFromAnswer(status: number, text: string): LinkError {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const read = errorFromWire(value);
  if (read) return read;
  const said = text.trim().slice(0, 300);
  return new LinkError(errorCodeOfStatus(status), said || `it answered ${status}`);
}
