/**
 * The Web API's HTTP as Slack speaks it: parameters from a form or JSON body (and the query), the
 * token from `Authorization: Bearer` or a `token` parameter, every answer HTTP 200 but a rate limit's
 * 429 with `Retry-After` in seconds, and the faults a test injects.
 */

/** A fault to answer a call with instead of its result. */
export type FakeSlackFault =
  /** `{"ok":false,"error":…}` with HTTP 200, as every Web API error comes. */
  | { error: string }
  /** HTTP 429 with `Retry-After: <seconds>` and `{"ok":false,"error":"ratelimited"}`. */
  | { rateLimited: number }
  /** Another HTTP status (500, 503) with a body that is not the API's. */
  | { status: number; body?: string };

/** What the fake answered a call: HTTP status and JSON body (or text), and Retry-After for a 429. */
export interface SlackAnswer {
  status: number;
  body: unknown;
  retryAfter?: number;
}

/** `{"ok":false,"error":…}`. */
export function failed(error: string): SlackAnswer {
  return { status: 200, body: { ok: false, error } };
}

export function faultAnswer(fault: FakeSlackFault): SlackAnswer {
  if ("error" in fault) return failed(fault.error);
  if ("rateLimited" in fault) {
    return { status: 429, body: { ok: false, error: "ratelimited" }, retryAfter: fault.rateLimited };
  }
  return { status: fault.status, body: fault.body ?? "" };
}

export function responseOf(answer: SlackAnswer): Response {
  if (answer.retryAfter !== undefined) {
    return Response.json(answer.body, {
      status: answer.status,
      headers: { "retry-after": String(answer.retryAfter) },
    });
  }
  if (typeof answer.body === "string") return new Response(answer.body, { status: answer.status });
  return Response.json(answer.body, { status: answer.status });
}

/** The token a request carries, "" when none. */
export function tokenOf(req: Request, params: Record<string, unknown>): string {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  return bearer ?? (typeof params.token === "string" ? params.token : "");
}

export async function paramsOf(req: Request, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    const body = await req.json().catch(() => undefined);
    if (body !== null && typeof body === "object" && !Array.isArray(body)) Object.assign(params, body);
  } else if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const form = await req.formData();
    for (const [key, value] of form) params[key] = typeof value === "string" ? value : value.name;
  } else {
    await req.body?.cancel();
  }
  return params;
}
