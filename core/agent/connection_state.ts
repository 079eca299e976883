import { z } from "zod";
import { atomicWrite, joinPath, type LinkPaths, readTextIfExists } from "../base/mod.ts";

/**
 * Where a connection the bridge carries stands, as its carrier last said (`state.json` in the
 * connection's folder): polling or connected, reconnecting, or failed with why.
 */
export const ConnectionState = z.strictObject({
  state: z.enum(["polling", "connected", "reconnecting", "failed"]),
  why: z.string().optional(),
  at: z.string(),
  /** When it came to this state, when that was before `at` (reconnecting since). */
  since: z.string().optional(),
});
export type ConnectionState = z.infer<typeof ConnectionState>;

function stateFile(paths: LinkPaths, agentId: string, connection: string): string {
  return joinPath(paths.connectionDir(agentId, connection), "state.json");
}

/** Keeps what a carrier says of its connection, for `lnk agent status`. */
export async function writeConnectionState(
  paths: LinkPaths,
  agentId: string,
  connection: string,
  state: ConnectionState,
): Promise<void> {
  await Deno.mkdir(paths.connectionDir(agentId, connection), { recursive: true, mode: 0o700 });
  await atomicWrite(stateFile(paths, agentId, connection), JSON.stringify(state), { mode: 0o600 });
}

/** What the carrier last said of a connection, or undefined when it never ran or the file is not one. */
export async function readConnectionState(
  paths: LinkPaths,
  agentId: string,
  connection: string,
): Promise<ConnectionState | undefined> {
  const text = await readTextIfExists(stateFile(paths, agentId, connection));
  if (text === undefined) return undefined;
  try {
    return ConnectionState.safeParse(JSON.parse(text)).data;
  } catch {
    return undefined;
  }
}
