// Imports nothing: the help of each command that takes these flags loads this file alone, never
// the sandbox spec's schemas (which would add some 30 ms to every `lnk` start).
/**
 * The grant flags `lnk sandbox run`, `lnk agent allow` and `lnk agent deny` share (GRT-4): each
 * may repeat but --network-mode.
 */
export const GRANT_FLAGS = {
  multiple: [
    "read",
    "write",
    "files",
    "host",
    "tcp",
    "lan-host",
    "port",
    "command",
    "tool",
    "browser-host",
    "write-protected",
  ],
  string: ["network-mode"],
} as const;

/** The usage line of the grant flags. */
export const GRANT_USAGE =
  "[--read <path>] [--write <path>] [--files <folder>=<none|read|write>] [--host <h>] " +
  "[--tcp <host>:<port>] [--network-mode proxy|host] [--lan-host <h>] [--port <n>] [--command <prog>] " +
  "[--tool <name>] [--browser-host <h>] [--write-protected <path>]";

/** Grant flags as parsed: each list as given on the command line. */
export type GrantFlags = Partial<Record<(typeof GRANT_FLAGS.multiple)[number], readonly string[]>> & {
  readonly "network-mode"?: string;
};

/** Picks the grant flags out of parsed flag values. */
export function grantFlagsFrom(values: Readonly<Record<string, unknown>>): GrantFlags {
  const flags: Record<string, unknown> = {};
  for (const name of GRANT_FLAGS.multiple) {
    const value = values[name];
    if (Array.isArray(value) && value.length) flags[name] = value.map(String);
  }
  if (typeof values["network-mode"] === "string") flags["network-mode"] = values["network-mode"];
  return flags as GrantFlags;
}
