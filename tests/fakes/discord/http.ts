/**
 * Discord's REST HTTP as the fake speaks it: the bot token from `Authorization: Bot …`, a JSON body
 * (or a multipart form's `payload_json`), answers as JSON with the rate-limit headers, 429s with
 * `Retry-After` in whole seconds as Discord sends it, and the faults a test injects.
 */
import { apiError, type RestAnswer } from "./rest.ts";

/** A fault to answer a call with instead of its result. */
export type FakeDiscordFault =
  /** 429 `{"message":"You are being rate limited.","retry_after":…,"global":…}` with Retry-After. */
  | { rateLimited: number; global?: boolean }
  /** Discord's error body `{"message","code"}` with `status`. */
  | { status: number; code: number; message: string }
  /** Another status (500, 502, or 200 with garbage) with a body that is not JSON. */
  | { status: number; body?: string }
  /** The call is done, and its answer never reaches the bot: held until the bot goes (a cut after Discord acted). */
  | { unanswered: true };

/** An answer with the headers it goes with. */
export interface HttpAnswer extends RestAnswer {
  headers: Record<string, string>;
}

/** The 429 body and headers for `seconds`. */
export function rateLimited(
  seconds: number,
  global: boolean,
  headers: Record<string, string>,
): HttpAnswer {
  return {
    status: 429,
    body: { message: "You are being rate limited.", retry_after: Math.round(seconds * 1000) / 1000, global },
    headers: {
      ...headers,
      "retry-after": String(Math.max(1, Math.ceil(seconds))),
      "x-ratelimit-scope": global ? "global" : "user",
      ...(global ? { "x-ratelimit-global": "true" } : {}),
    },
  };
}

export function responseOf(answer: HttpAnswer): Response {
  const headers = new Headers(answer.headers);
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  if (typeof answer.body === "string") {
    headers.set("content-type", "text/html");
    return new Response(answer.body, { status: answer.status, headers });
  }
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}

/** The bot token a request carries, "" when none. */
export function tokenOf(req: Request): string {
  return /^Bot\s+(\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
}

/** The JSON body of a request (a multipart form's `payload_json`), undefined when none. */
export async function bodyOf(req: Request): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) return await req.json().catch(() => undefined);
  if (type.startsWith("multipart/form-data")) {
    const form = await req.formData().catch(() => undefined);
    const json = form?.get("payload_json");
    return typeof json === "string" ? JSON.parse(json) : undefined;
  }
  await req.body?.cancel();
  return undefined;
}

/** The answer a fault gives in place of the call's; `exhaust` empties the route's bucket for a 429. */
export function faultAnswer(
  fault: Exclude<FakeDiscordFault, { unanswered: true }>,
  exhaust: (seconds: number) => Record<string, string>,
): HttpAnswer {
  if ("rateLimited" in fault) {
    const global = fault.global ?? false;
    return rateLimited(fault.rateLimited, global, global ? {} : exhaust(fault.rateLimited));
  }
  if ("code" in fault) return { ...apiError(fault.status, fault.code, fault.message), headers: {} };
  return { status: fault.status, body: fault.body ?? "<html><body>Bad Gateway</body></html>", headers: {} };
}
