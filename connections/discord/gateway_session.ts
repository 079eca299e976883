import { z } from "zod";
import { atomicWrite, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";

const log = logger("discord");

/**
 * The gateway session a RESUME goes on with, as @discordjs/ws keeps it: its id, the address to
 * resume at, and the last seq. Kept in the connection's folder with the seq of the last dispatch
 * kept (never one read and not yet kept), so a restart resumes and Discord replays the rest.
 */
export const GatewaySession = z.looseObject({
  sessionId: z.string(),
  sequence: z.number().int(),
  shardId: z.number().int(),
  shardCount: z.number().int(),
  resumeURL: z.string(),
});
export type GatewaySession = z.infer<typeof GatewaySession>;

/** The file of the session in the connection's folder. */
export function sessionPath(stateDir: string): string {
  return joinPath(stateDir, "session.json");
}

/** The session kept, or null when there is none (or it cannot be read: the gateway identifies afresh). */
export async function readSession(stateDir: string): Promise<GatewaySession | null> {
  const text = await readTextIfExists(sessionPath(stateDir));
  if (text === undefined) return null;
  try {
    return GatewaySession.parse(JSON.parse(text));
  } catch {
    log.warn("Ignoring an unreadable Discord gateway session");
    return null;
  }
}

/** Keeps the session (or forgets it: null), written whole or not at all. */
export async function saveSession(stateDir: string, session: GatewaySession | null): Promise<void> {
  if (session) return await atomicWrite(sessionPath(stateDir), JSON.stringify(session), { mode: 0o600 });
  await Deno.remove(sessionPath(stateDir)).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}
