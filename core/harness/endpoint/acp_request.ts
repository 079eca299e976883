import { z } from "zod";
import { type ErrorCode, errorResponse, LinkError } from "../../base/mod.ts";

/** A JSON-RPC 2.0 request (or notification) to the endpoint's `/acp`. */
export const AcpRequest = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.number(), z.string()]).optional(),
  method: z.string(),
  params: z.looseObject({}).default({}),
});
export type AcpRequest = z.infer<typeof AcpRequest>;

/** Link's keys in `_meta` (ARCHITECTURE.md section 7, TRN-12). */
export const LinkMeta = z.looseObject({
  "link.local/thread": z.string().regex(/^[a-z0-9_-]+:.+$/i).optional(),
  "link.local/hops": z.number().int().min(0).optional(),
  "link.local/tools": z.array(z.string()).optional(),
  /** The caller's name for this message, so a kept answer finds its way back. */
  "link.local/request": z.string().min(1).max(200).optional(),
  /**
   * The caller acknowledges the answer once it has it whole: the answer is kept until then, its
   * ids in the result's `link.local/kept`, so a caller gone before the answer came (its socket's
   * close still on its way through the relays) finds it at its next message (LOC-5).
   */
  "link.local/receipt": z.boolean().optional(),
});
export type LinkMeta = z.infer<typeof LinkMeta>;

/** `session/new` params. */
export const SessionNewParams = z.looseObject({ _meta: LinkMeta.optional() });

/** `session/prompt` params: only the new message, never the thread's history (U-1). */
export const SessionPromptParams = z.looseObject({
  sessionId: z.string().min(1),
  prompt: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  _meta: LinkMeta.optional(),
});

/** `session/cancel` params. */
export const SessionCancelParams = z.looseObject({ sessionId: z.string().min(1) });

/**
 * An error answer in Link's one error shape (`{"error":{"code","message","hint"}}`), with the
 * route's status and the caller's next challenge.
 */
export function errorAnswer(
  status: number,
  error: { code: ErrorCode; message: string; hint?: string },
  headers: Record<string, string>,
): Response {
  return errorResponse(new LinkError(error.code, error.message, { hint: error.hint }), { status, headers });
}

/** JSON-RPC messages as one NDJSON body. */
export function ndjson(lines: unknown[], headers: Record<string, string>): Response {
  return new Response(lines.map((l) => `${JSON.stringify(l)}\n`).join(""), {
    headers: { "Content-Type": "application/x-ndjson", ...headers },
  });
}
