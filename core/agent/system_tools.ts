import { joinPath, LinkError } from "../base/mod.ts";

/** A program of the system's that Link runs, and what it is for. */
export interface SystemTool {
  /** The program's name on the PATH. */
  readonly program: string;
  /** The package that brings it, by the name every package manager Link knows uses. */
  readonly pkg: string;
  readonly title: string;
}

/** What Link runs of the system's: bubblewrap for every sandbox, util-linux's setsid and setpriv. */
export const SYSTEM_TOOLS: readonly SystemTool[] = Object.freeze([
  { program: "bwrap", pkg: "bubblewrap", title: "bubblewrap (bwrap), which runs every sandbox" },
  { program: "setsid", pkg: "util-linux", title: "setsid (util-linux), which starts services" },
  { program: "setpriv", pkg: "util-linux", title: "setpriv (util-linux), which runs as another user" },
]);

/** The tools of `wanted` (all unless told) that no folder of the PATH holds. */
export async function missingTools(
  env: { get(name: string): string | undefined },
  wanted: readonly string[] = SYSTEM_TOOLS.map((t) => t.program),
): Promise<SystemTool[]> {
  const missing: SystemTool[] = [];
  for (const tool of SYSTEM_TOOLS.filter((t) => wanted.includes(t.program))) {
    if (!(await onPath(tool.program, env))) missing.push(tool);
  }
  return missing;
}

/** The program's path in the first folder of the PATH that holds it as something to run. */
export async function onPath(
  program: string,
  env: { get(name: string): string | undefined },
): Promise<string | undefined> {
  for (const dir of (env.get("PATH") ?? "").split(":")) {
    if (!dir.startsWith("/")) continue;
    const path = joinPath(dir, program);
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isFile && (info.mode ?? 0) & 0o111) return path;
  }
  return undefined;
}

/**
 * Refuses what would fail for want of the system's programs of `wanted`, saying which and
 * pointing at `lnk setup`: `what` is the action refused ("Cannot start agent ...").
 */
export async function requireTools(
  env: { get(name: string): string | undefined },
  what: string,
  wanted: readonly string[],
): Promise<void> {
  const missing = await missingTools(env, wanted);
  if (!missing.length) return;
  throw new LinkError(
    "SANDBOX_UNAVAILABLE",
    `${what}: ${missing.map((t) => t.title).join(" and ")} ${
      missing.length > 1 ? "are" : "is"
    } not installed`,
    { hint: "Run `lnk setup` to install what Link needs, then start the agent again" },
  );
}
