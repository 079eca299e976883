import { z } from "zod";
import { atomicWrite, type Clock, joinPath, type LinkPaths, readTextIfExists, Secret } from "../base/mod.ts";

/** How long a rolled secret's previous value is still taken (WHK-7). */
export const OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * A hook's folder in the agent's state, `~/.lnk/agents/<id>/webhooks/<name>/`: its secret, the
 * previous one with its expiry, and the ids it took. No sandbox sees `~/.lnk`; the files are the
 * user's alone (0600), read only by the bridge and `lnk agent webhook`.
 */
export function hookDir(paths: LinkPaths, agentId: string, name: string): string {
  return joinPath(paths.agentState(agentId), "webhooks", name);
}

const Previous = z.strictObject({ secret: z.string().min(1), expires: z.iso.datetime() });

/** A new secret: 32 random bytes as hex. */
export function newSecret(): Secret {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return new Secret(Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
}

/** Keeps a hook's secret, the previous one kept with its expiry when `previous` is given. */
export async function writeSecret(
  dir: string,
  secret: Secret,
  previous?: { secret: Secret; expires: number },
): Promise<void> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  if (previous) {
    const kept = { secret: previous.secret.reveal(), expires: new Date(previous.expires).toISOString() };
    await atomicWrite(joinPath(dir, "previous.json"), `${JSON.stringify(kept)}\n`, { mode: 0o600 });
  }
  await atomicWrite(joinPath(dir, "secret"), `${secret.reveal()}\n`, { mode: 0o600 });
}

/** The hook's current secret, or undefined when it has none. */
export async function readSecret(dir: string): Promise<Secret | undefined> {
  const text = (await readTextIfExists(joinPath(dir, "secret")))?.trim();
  return text ? new Secret(text) : undefined;
}

/** The previous secret a roll left, while it has not expired (WHK-7). */
export async function readPrevious(dir: string, clock: Clock): Promise<Secret | undefined> {
  const text = await readTextIfExists(joinPath(dir, "previous.json"));
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined; // a file cut short is no previous secret: the current one still works
  }
  const kept = Previous.safeParse(json);
  if (!kept.success || Date.parse(kept.data.expires) <= clock.now()) return undefined;
  return new Secret(kept.data.secret);
}

/** The secrets a post may be signed with now: the current one, then a previous one not expired. */
export async function secretsOf(dir: string, clock: Clock): Promise<Secret[]> {
  const current = await readSecret(dir);
  const previous = await readPrevious(dir, clock);
  return [current, previous].filter((s): s is Secret => s !== undefined);
}

/** Ends a roll's overlap (`roll --done`): the previous secret is refused from now. */
export async function forgetPrevious(dir: string): Promise<boolean> {
  try {
    await Deno.remove(joinPath(dir, "previous.json"));
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}
