import { join } from "node:path";
import type { LinkPaths } from "../core/base/mod.ts";

/**
 * What no sandbox ever sees, whatever its grants say (SBX-21, GRT-8, TEAM-12): Link's own state
 * (~/.lnk: settings, keys, other agents' sockets, harness grants, machine.toml), ~/.config (and
 * the service units in it), every agent's folder (Config/, other agents; the agent's own Home and
 * collections are mounted back per [files]), ~/Link/Teams (granted team folders mounted back),
 * ~/.local/share/systemd (a drop-in there would change Link's own units), and what the caller
 * adds: Homes and team folders kept elsewhere.
 */
export function hiddenPaths(paths: LinkPaths, extra: readonly string[] = []): string[] {
  return [
    paths.lnk,
    paths.config,
    paths.agentFolders,
    paths.teamFolders,
    join(paths.home, ".local", "share", "systemd"),
    ...(Deno.build.os === "darwin" ? [paths.launchAgents] : []),
    ...extra,
  ];
}

/** Expands a leading "~" to the home folder. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return `${home.replace(/\/$/, "")}/${path.slice(2)}`;
  return path;
}
