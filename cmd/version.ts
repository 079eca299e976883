import { CHECKOUT_DIR, LOCK_PATH, readTextIfExists, sha256Hex } from "../core/base/mod.ts";
import config from "../deno.json" with { type: "json" };
import type { Io } from "./command.ts";

/** What ran, for a report: Link's version, Deno's, and the hash of the lock that pinned every package. */
export interface VersionInfo {
  link: string;
  deno: string;
  /** sha256 of deno.lock, hex; undefined when it cannot be read. */
  lock?: string;
  /** The checkout it runs from; undefined when compiled. */
  checkout?: string;
}

/** Link's version and what it runs on. */
export async function versionInfo(): Promise<VersionInfo> {
  const lock = await readTextIfExists(LOCK_PATH).catch(() => undefined);
  return {
    link: config.version,
    deno: Deno.version.deno,
    ...(lock === undefined ? {} : { lock: sha256Hex(lock) }),
    ...(Deno.build.standalone ? {} : { checkout: CHECKOUT_DIR }),
  };
}

/** `lnk --version [--json]`. */
export async function printVersion(io: Io, json: boolean): Promise<number> {
  const info = await versionInfo();
  if (json) io.print(info);
  else {
    io.print([
      `lnk ${info.link}${info.checkout ? ` (from ${info.checkout})` : " (compiled)"}`,
      `deno ${info.deno}`,
      `deno.lock sha256 ${info.lock ?? "unknown: it cannot be read"}`,
    ].join("\n"));
  }
  return 0;
}
