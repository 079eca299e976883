import { atomicWrite, joinPath, type LinkPaths, readTextIfExists, Secret } from "../base/mod.ts";

/**
 * A connection's secret (a bot's token is `bot-token`, CON-5) is a file of its own in the
 * connection's folder under ~/.lnk, which no sandbox sees (CON-12, CON-14): only the bridge and
 * `lnk agent connect` read it, and it is the user's alone.
 */
export function connectionSecretFile(
  paths: LinkPaths,
  agentId: string,
  connection: string,
  name: string,
): string {
  return joinPath(paths.connectionDir(agentId, connection), name);
}

/** A connection's secret as `lnk agent connect` kept it, or undefined. */
export async function readConnectionSecret(
  paths: LinkPaths,
  agentId: string,
  connection: string,
  name: string,
): Promise<Secret | undefined> {
  const text = (await readTextIfExists(connectionSecretFile(paths, agentId, connection, name)))?.trim();
  return text ? new Secret(text) : undefined;
}

/** Keeps a connection's secret, the user's alone. */
export async function writeConnectionSecret(
  paths: LinkPaths,
  agentId: string,
  connection: string,
  name: string,
  secret: Secret,
): Promise<void> {
  await Deno.mkdir(paths.connectionDir(agentId, connection), { recursive: true, mode: 0o700 });
  await atomicWrite(connectionSecretFile(paths, agentId, connection, name), `${secret.reveal()}\n`, {
    mode: 0o600,
  });
}
