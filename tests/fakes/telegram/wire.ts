/** The fake Telegram's wire: its methods, Telegram's own error words, answers and parameters. */
import type { FakeTelegramFault, TgError } from "./types.ts";

export const METHODS = [
  "getMe",
  "logOut",
  "close",
  "getUpdates",
  "setWebhook",
  "deleteWebhook",
  "getWebhookInfo",
  "sendMessage",
  "editMessageText",
  "sendChatAction",
  "setMessageReaction",
  "deleteMessage",
  "getChat",
] as const;
export type Method = typeof METHODS[number];
export const METHOD_BY_LOWER = new Map<string, Method>(METHODS.map((m) => [m.toLowerCase(), m]));

/** Telegram's limit on a message's text, in UTF-16 code units after entities are parsed. */
export const TELEGRAM_TEXT_LIMIT = 4096;

export const CONFLICT =
  "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
export const NOT_MODIFIED =
  "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

export class ApiFailure extends Error {
  constructor(readonly error: TgError) {
    super(error.description);
  }
}

export function badRequest(what: string): ApiFailure {
  return new ApiFailure({ error_code: 400, description: `Bad Request: ${what}` });
}

export type JsonAnswer = { kind: "json"; status: number; body: unknown };
export type Answer =
  | JsonAnswer
  | { kind: "garbage"; status: number; text: string; contentType: string }
  | { kind: "drop" };

export function okAnswer(result: unknown): JsonAnswer {
  return { kind: "json", status: 200, body: { ok: true, result } };
}

export function errorAnswer(error: TgError): JsonAnswer {
  const body: Record<string, unknown> = {
    ok: false,
    error_code: error.error_code,
    description: error.description,
  };
  if (error.parameters) body.parameters = error.parameters;
  return { kind: "json", status: error.error_code, body };
}

export function faultAnswer(fault: FakeTelegramFault): Answer {
  if ("drop" in fault) return { kind: "drop" };
  if ("garbage" in fault) {
    return {
      kind: "garbage",
      status: fault.status ?? 502,
      text: fault.garbage,
      contentType: fault.contentType ?? "text/html",
    };
  }
  return errorAnswer(fault);
}

export function responseOf(answer: Exclude<Answer, { kind: "drop" }>): Response {
  if (answer.kind === "garbage") {
    return new Response(answer.text, {
      status: answer.status,
      headers: { "content-type": answer.contentType },
    });
  }
  return Response.json(answer.body, { status: answer.status });
}

// ---- parameters

export async function paramsOf(req: Request, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  if (req.method === "GET" || req.method === "HEAD") return params;
  if (type.startsWith("application/json")) {
    try {
      const body = await req.json();
      if (body !== null && typeof body === "object" && !Array.isArray(body)) Object.assign(params, body);
    } catch {
      // Telegram reads a body it cannot parse as no parameters.
    }
  } else if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    const form = await req.formData();
    for (const [key, value] of form) params[key] = typeof value === "string" ? value : value.name;
  } else {
    await req.body?.cancel();
  }
  return params;
}

export function stringParam(p: Record<string, unknown>, name: string): string | undefined {
  const value = p[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : String(value);
}

export function intParam(p: Record<string, unknown>, name: string): number | undefined {
  const value = p[name];
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

export function boolParam(p: Record<string, unknown>, name: string): boolean {
  const value = p[name];
  return value === true || value === "true" || value === "1" || value === "True";
}

/** A parameter the Bot API takes JSON-serialized: parsed when it came as a string. */
export function jsonParam(p: Record<string, unknown>, name: string): unknown {
  const value = p[name];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
