import { z } from "zod";
import { LinkError } from "../../core/base/mod.ts";
import type { ProvenEndpoint } from "../endpoint/ask_for.ts";

/** An answer the harness kept because its caller went (TRN-5, U-14), as `/_link/recover` lists it. */
export const RecoveredAnswer = z.looseObject({
  id: z.string(),
  conversation: z.string(),
  answer: z.string(),
  requests: z.array(z.string()).default([]),
  error: z.boolean().default(false),
});
export type RecoveredAnswer = z.infer<typeof RecoveredAnswer>;

/**
 * Asks the harness for the answers it keeps in a thread (`GET /_link/recover`). With `waitMs`,
 * the harness waits until one not in `known` is kept, or the thread has nothing left to answer.
 */
export async function listKept(
  endpoint: ProvenEndpoint,
  thread: string,
  options: { waitMs?: number; known?: readonly string[] } = {},
): Promise<RecoveredAnswer[]> {
  const query = new URLSearchParams({ conversation: thread });
  if (options.waitMs) query.set("wait", String(options.waitMs));
  if (options.known?.length) query.set("known", options.known.join(","));
  const res = await endpoint.request("GET", `/_link/recover?${query}`);
  if (res.status === 404) return []; // a harness without recover keeps nothing
  const parsed = z.array(RecoveredAnswer).safeParse(parseJson(res.text));
  if (res.status !== 200 || !parsed.success) {
    throw new LinkError("SERVICE_FAILED", `Cannot ask the agent for its kept answers: HTTP ${res.status}`, {
      hint: "See `lnk agent logs` for what the harness said",
    });
  }
  return parsed.data;
}

/** Tells the harness these answers were shown, so it lets them go (`POST /_link/recover/ack`, TRN-6). */
export async function ackKept(endpoint: ProvenEndpoint, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  const res = await endpoint.request("POST", "/_link/recover/ack", { ids });
  if (res.status !== 200) {
    throw new LinkError(
      "SERVICE_FAILED",
      `Cannot tell the agent its kept answers were shown: HTTP ${res.status}`,
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
