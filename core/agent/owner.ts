import type { Machine } from "./machine.ts";

/**
 * The stand-in owner of an agent nobody signed in for (U-8): this machine and this user. Once
 * signed in, the next start replaces it with `acct-<id>` (IDN-5).
 */
export function standInOwner(machine: Machine): string {
  return `local-${machine.id}-${Deno.uid() ?? 0}`;
}
