import { LinkError, readTextIfExists } from "../base/mod.ts";

/** Where Debian and its kin name the machine's zone. */
const ETC_TIMEZONE = "/etc/timezone";

/** Whether the zone is one this runtime knows (an IANA name such as "Europe/Paris", or "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The machine's time zone, an agent's when its spec names none (U-38): `TZ` when it names a known
 * zone, else /etc/timezone, else the zone the runtime found (/etc/localtime), else "UTC".
 */
export async function systemTimeZone(
  env: { get(name: string): string | undefined },
  options: { etcTimezone?: string } = {},
): Promise<string> {
  // POSIX allows TZ=":Europe/Paris"; the colon only says "a file name".
  const fromEnv = env.get("TZ")?.replace(/^:/, "");
  if (fromEnv && isTimeZone(fromEnv)) return fromEnv;
  const fromFile = (await readTextIfExists(options.etcTimezone ?? ETC_TIMEZONE))?.split("\n")[0]?.trim();
  if (fromFile && isTimeZone(fromFile)) return fromFile;
  const found = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return found && isTimeZone(found) ? found : "UTC";
}

/**
 * An agent's time zone: its spec's `[run] time_zone`, or the machine's when it names none. A zone
 * it names that is not known is refused, naming the spec's file.
 */
export async function agentTimeZone(
  env: { get(name: string): string | undefined },
  named: string | undefined,
  specPath: string,
): Promise<string> {
  if (named === undefined) return await systemTimeZone(env);
  if (isTimeZone(named)) return named;
  throw new LinkError("CONFIG_INVALID", `Cannot schedule in time zone "${named}": it is not a known zone`, {
    hint: `Fix [run] time_zone in "${specPath}" (a name such as "Europe/Paris"), then start the agent again`,
  });
}
