import { errorFromAnswer, joinPath, LinkError, type LinkPaths } from "../base/mod.ts";

/** An owner as a file or service name holds it: `local-<machine>-<uid>` or `acct-<id>`. */
export function ownerWord(owner: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,80}$/.test(owner)) {
    throw new LinkError("CONFIG_INVALID", `Cannot run memory for owner "${owner}": not a plain name`, {
      hint: "An owner is local-<machine>-<uid> or acct-<id>; check the agent's settings.toml",
    });
  }
  return owner;
}

/** The owner's memory service socket, in `~/.lnk/run/`, which no sandbox sees (MEM-2). */
export function memoryServiceSocketPath(paths: LinkPaths, owner: string): string {
  return joinPath(paths.run, `memory-${ownerWord(owner)}.sock`);
}

/**
 * Asks the owner's memory service at a route (GET without a body, POST with one); its error
 * answer is thrown with its code. Throws SERVICE_FAILED when nothing answers.
 */
export async function askMemoryService(
  paths: LinkPaths,
  owner: string,
  route: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const client = Deno.createHttpClient({
    proxy: { transport: "unix", path: memoryServiceSocketPath(paths, owner) },
  });
  try {
    const res = await fetch(`http://memory${route}`, {
      client,
      method: body === undefined ? "GET" : "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      signal,
    }).catch((err) => {
      throw new LinkError("SERVICE_FAILED", `Cannot reach the memory service of owner "${owner}"`, {
        hint: "It runs while an agent with memory on is awake; start one with `lnk agent start`",
        cause: err,
      });
    });
    const text = await res.text();
    if (!res.ok) throw errorFromAnswer(res.status, text);
    return JSON.parse(text);
  } finally {
    client.close();
  }
}
