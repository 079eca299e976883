import {
  type AgentKey,
  atomicWrite,
  decodeKey,
  encodeKey,
  type LinkPaths,
  newAgentKey,
} from "../base/mod.ts";

/**
 * Makes the agent's key for this start and binds it in the keyring (BRG-7): the folder 0700,
 * the file 0600, both hidden from every sandbox.
 */
export async function bindKey(paths: LinkPaths, id: string): Promise<AgentKey> {
  await Deno.mkdir(paths.keys, { recursive: true, mode: 0o700 });
  await Deno.chmod(paths.keys, 0o700);
  const key = newAgentKey();
  await atomicWrite(paths.keyFile(id), `${encodeKey(key)}\n`, { mode: 0o600 });
  return key;
}

/** The agent's bound key, or undefined when it is not running (unbound). */
export async function readKey(paths: LinkPaths, id: string): Promise<AgentKey | undefined> {
  try {
    return decodeKey(await Deno.readTextFile(paths.keyFile(id)));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** Unbinds the key at stop and remove, so a leaked key dies with the start. */
export async function unbindKey(paths: LinkPaths, id: string): Promise<void> {
  await Deno.remove(paths.keyFile(id)).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}
