import { z } from "zod";
import { errorAnswer } from "./acp_request.ts";
import type { ServedAgent } from "./served_agent.ts";

/** The route where kept answers are handed over (TRN-5, U-14). */
export const RECOVER_PATH = "/_link/recover";
/** The route where their delivery is acknowledged, which deletes them (TRN-6). */
export const RECOVER_ACK_PATH = "/_link/recover/ack";
/** The longest a caller may wait for a kept answer in one ask. */
export const RECOVER_WAIT_MAX_MS = 15 * 60_000;

const AckBody = z.strictObject({ ids: z.array(z.string()).max(1000) });

/**
 * `GET /_link/recover[?conversation=<thread>][&wait=<ms>&known=<id,…>]`: the answers kept for the
 * agent, oldest first, as `[{id, conversation, answer, requests, error, at}]`. With `wait`, it
 * waits until an answer not in `known` is kept in the conversation, or the conversation has
 * nothing left to answer: how a chat whose message joined a running turn takes that turn's answer
 * (LOC-6). Nothing is deleted here: only an ack does.
 */
export async function recoverRoute(
  served: ServedAgent,
  req: Request,
  next: Record<string, string>,
  hold: () => () => void,
): Promise<Response> {
  const url = new URL(req.url, "http://endpoint");
  const conversation = url.searchParams.get("conversation") ?? undefined;
  const wait = Math.min(Number(url.searchParams.get("wait") ?? 0) || 0, RECOVER_WAIT_MAX_MS);
  const known = new Set((url.searchParams.get("known") ?? "").split(",").filter(Boolean));
  const { kept } = served.turns.agent;
  let list = await kept.list(conversation);
  if (wait > 0 && conversation !== undefined) {
    using _held = { [Symbol.dispose]: hold() };
    const deadline = served.turns.agent.clock.now() + wait;
    while (!list.some((k) => !known.has(k.id)) && !req.signal.aborted && !served.turns.stopped) {
      if (await served.turns.idle(conversation)) {
        list = await kept.list(conversation);
        break;
      }
      const left = deadline - served.turns.agent.clock.now();
      if (left <= 0) break;
      const stop = new AbortController();
      const signal = AbortSignal.any([req.signal, stop.signal]);
      const poll = Math.min(left, served.turns.agent.turns.renewMs);
      await Promise.race([kept.changed(signal), served.turns.waitForChange(conversation, poll, signal)]);
      stop.abort();
      list = await kept.list(conversation);
    }
  }
  return Response.json(list, { headers: next });
}

/** `POST /_link/recover/ack {ids}`: the answers were sent; they are deleted. */
export async function recoverAckRoute(
  served: ServedAgent,
  req: Request,
  next: Record<string, string>,
): Promise<Response> {
  const body = AckBody.safeParse(await req.json().catch(() => undefined));
  if (!body.success) {
    return errorAnswer(400, { code: "INVALID", message: 'the body is not {"ids": [...]}' }, next);
  }
  const acked = await served.turns.agent.kept.ack(body.data.ids);
  return Response.json({ acked }, { headers: next });
}
