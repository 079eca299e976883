/** The connections Link knows by name (CON-1): the core's list, the one place that names them (CON-3). */
export const CONNECTIONS = ["telegram", "slack", "discord", "signal"] as const;

/** One of CONNECTIONS. */
export type ConnectionName = typeof CONNECTIONS[number];

/** Tells whether a word names a connection Link knows. */
export function isConnectionName(word: string): word is ConnectionName {
  return (CONNECTIONS as readonly string[]).includes(word);
}

/** The connections Link carries: all it knows. */
export const CARRIED: readonly ConnectionName[] = CONNECTIONS;

/** How long a pairing code holds (CON-6): ten minutes. */
export const PAIRING_MS = 10 * 60_000;
