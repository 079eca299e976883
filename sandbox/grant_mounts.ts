import { join } from "node:path";
import type { SandboxSpec } from "../core/spec/mod.ts";
import { expandHome } from "./hidden_paths.ts";
import { isWithin, LAYER, type MountList } from "./mount_list.ts";
import { specRefusal, type SpecSource } from "./spec_refusal.ts";

/** What grant mounts need to know of this machine. */
export interface GrantContext {
  readonly home: string;
  /** What no grant may reach (hiddenPaths), as real paths. */
  readonly hidden: readonly string[];
  /** A path's real location (symlinks resolved), so a link never leads a grant into hiding. */
  readonly real: (path: string) => string;
  /** Each team's shared folder, as real paths, for [teams.<team>] (TEAM-11). */
  readonly teams: Readonly<Record<string, string>>;
  readonly source?: SpecSource;
}

/** The sandbox's own /proc, /dev and /tmp: no grant reaches the host's. */
const PRIVATE = ["/proc", "/dev"];

/** Adds the mounts of `[paths]` (`--read`, `--write`): missing paths are skipped, never made. */
export function addPathMounts(list: MountList, spec: SandboxSpec, ctx: GrantContext): void {
  for (const access of ["read", "write"] as const) {
    for (const [i, raw] of spec.paths[access].entries()) {
      const path = ctx.real(expandHome(raw, ctx.home));
      const key = ["paths", access, i];
      if (PRIVATE.some((p) => isWithin(path, p)) || path === "/tmp") {
        throw specRefusal(
          ctx.source,
          key,
          `"${raw}" is the sandbox's own: it has a /proc, /dev and /tmp of its own`,
        );
      }
      // An outside harness's install folder (`~/.lnk/installs/<harness>`, its programs alone) is
      // the one place of Link's own a grant may read: never write, never the rest of ~/.lnk.
      const install = access === "read" && isWithin(path, join(ctx.home, ".lnk", "installs")) &&
        path !== join(ctx.home, ".lnk", "installs");
      const hidden = install ? undefined : ctx.hidden.find((h) => isWithin(path, h));
      if (hidden !== undefined) {
        throw specRefusal(
          ctx.source,
          key,
          `"${raw}" is inside "${hidden}", which Link hides from every sandbox`,
          "Grant an agent's own folders with [files] (`lnk agent allow --files work=write`), and team folders with [teams.<team>]",
        );
      }
      list.add(LAYER.grant, {
        kind: access === "write" ? "rw" : "ro",
        src: path,
        dest: path,
        optional: true,
        // The install folder must still be where it was planned, never a link to elsewhere.
        check: install ? "exact" : "grant",
        guarded: access === "write",
      });
    }
  }
}

/** Adds the mounts of `[teams.<team>]`: the whole folder, or the folders in it it reads or writes. */
export function addTeamMounts(list: MountList, spec: SandboxSpec, ctx: GrantContext): void {
  for (const [team, grant] of Object.entries(spec.teams)) {
    const folder = ctx.teams[team];
    if (folder === undefined) {
      throw specRefusal(
        ctx.source,
        ["teams", team],
        `the agent is not a member of team "${team}", so its folder cannot be granted`,
        `Remove [teams.${team}] from the agent's sandbox file`,
      );
    }
    if (grant.all) {
      list.add(LAYER.team, {
        kind: "rw",
        src: folder,
        dest: folder,
        optional: true,
        check: "exact",
        guarded: true,
      });
      continue;
    }
    for (const [access, names] of [["read", grant.read], ["write", grant.write]] as const) {
      for (const name of names) {
        const path = ctx.real(join(folder, name));
        if (!isWithin(path, folder)) {
          throw specRefusal(ctx.source, ["teams", team, access], `"${name}" leads out of the team's folder`);
        }
        list.add(LAYER.team, {
          kind: access === "write" ? "rw" : "ro",
          src: path,
          dest: path,
          optional: true,
          check: "exact",
          guarded: access === "write",
        });
      }
    }
  }
}
