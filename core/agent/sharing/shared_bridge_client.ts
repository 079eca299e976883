import type { z } from "zod";
import { errorFromAnswer, LinkError, type LinkPaths, ROLE_LOGS_HINT } from "../../base/mod.ts";
import { BridgesSnapshot, SyncAnswer } from "./bridges_answer.ts";
import { sharedBridgeSocketPath } from "./shared_bridge_service.ts";

/** What the shared bridge says of itself, or undefined when nothing answers at its socket. */
export async function askSharedBridge(paths: LinkPaths): Promise<BridgesSnapshot | undefined> {
  return await call(paths, "GET", "/bridges", undefined, BridgesSnapshot);
}

/**
 * Has the shared bridge read its list again now and say where the agent stands, woken first when
 * asked; undefined when nothing answers at its socket.
 */
export async function syncSharedBridge(
  paths: LinkPaths,
  request: { agent?: string; wake?: boolean },
): Promise<SyncAnswer | undefined> {
  return await call(paths, "POST", "/sync", request, SyncAnswer);
}

/**
 * Resolves when the shared bridge goes (it ended, or was killed), or the signal aborts: a long
 * request it never answers, which its end breaks (how an agent in a terminal sees it gone).
 */
export async function sharedBridgeGone(paths: LinkPaths, signal: AbortSignal): Promise<void> {
  const client = Deno.createHttpClient({ proxy: { transport: "unix", path: sharedBridgeSocketPath(paths) } });
  try {
    const res = await fetch("http://bridges/watch", { client, signal });
    await res.body?.pipeTo(new WritableStream());
  } catch {
    /* gone, or stopped waiting */
  } finally {
    client.close();
  }
}

async function call<T>(
  paths: LinkPaths,
  method: string,
  route: string,
  body: unknown,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const client = Deno.createHttpClient({ proxy: { transport: "unix", path: sharedBridgeSocketPath(paths) } });
  try {
    let res: Response;
    try {
      res = await fetch(`http://bridges${route}`, {
        client,
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: body === undefined ? undefined : { "content-type": "application/json" },
      });
    } catch {
      return undefined; // nothing listens there
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const answer = schema.safeParse(parsed);
    if (!res.ok) {
      const said = errorFromAnswer(res.status, text);
      throw new LinkError(said.code, `Cannot ask the shared bridge: ${said.message}`, {
        hint: said.hint ?? ROLE_LOGS_HINT,
        cause: said,
      });
    }
    if (!answer.success) {
      throw new LinkError("SERVICE_FAILED", "Cannot ask the shared bridge: it answered off its protocol", {
        hint: ROLE_LOGS_HINT,
        cause: answer.error,
      });
    }
    return answer.data;
  } finally {
    client.close();
  }
}
