import type { z } from "zod";
import { LinkError, type LinkPaths } from "../../base/mod.ts";
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
    if (!res.ok || !answer.success) {
      throw new LinkError(
        "SERVICE_FAILED",
        `Cannot ask the shared bridge: it answered ${res.status} ${text.slice(0, 200)}`,
        {
          hint: "Run `lnk agent logs` to see what it said",
        },
      );
    }
    return answer.data;
  } finally {
    client.close();
  }
}
