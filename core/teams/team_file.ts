import { z } from "zod";
import {
  joinPath as join,
  LinkError,
  type LinkPaths,
  logger,
  parseToml,
  readTextIfExists,
  validateToml,
} from "../base/mod.ts";

const log = logger("teams");

/** A team's name: its file's name and its folder's, `~/Link/Teams/<team>/`. */
export const TeamName = z.string().regex(
  /^[a-z0-9][a-z0-9_-]{0,63}$/,
  "must be lower-case letters, digits, - and _",
);

/** One member: the agent's ID, its name in the team, and its purpose there (TEAM-1, TEAM-4). */
export const TeamMember = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/i, "must be letters, digits, - and _"),
  purpose: z.string().min(1).max(2000),
});
export type TeamMember = z.infer<typeof TeamMember>;

/**
 * A team's file, `~/.lnk/teams/<team>.toml` (TEAM-1), written by `lnk agent team` alone (TEAM-2):
 * its members, the folder they share, and the opinions they share (`[spec]`, beneath each
 * member's own spec; the scheduler's keys among them, TEAM-8). Every member is one owner's (TEAM-3).
 */
export const TeamFile = z.strictObject({
  /** The owner of every member. */
  owner: z.string().min(1),
  /** The shared folder: `~/Link/Teams/<team>` unless the person picked another. */
  folder: z.string().min(1),
  member: z.array(TeamMember).default([]),
  /** Shared opinions, as an agent's spec.toml takes them; a member's own spec wins. */
  spec: z.record(z.string(), z.unknown()).optional(),
});
export type TeamFile = z.infer<typeof TeamFile>;

/** A team as read: its name, its file's path, and what the file says. */
export interface Team extends TeamFile {
  name: string;
  path: string;
}

/** The path of a team's file. */
export function teamFilePath(paths: LinkPaths, team: string): string {
  return join(paths.teams, `${team}.toml`);
}

/**
 * Reads one team's file, or undefined when there is none. A member given a `role` is refused
 * naming `purpose`, the key it takes (TEAM-4); anything else not a team names its line.
 */
export async function readTeam(paths: LinkPaths, team: string): Promise<Team | undefined> {
  const path = teamFilePath(paths, team);
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  return parseTeam(team, path, text);
}

/** Parses a team file's text (see readTeam). */
export function parseTeam(team: string, path: string, text: string): Team {
  const raw = parseToml(text, path);
  const members = Array.isArray(raw.member) ? raw.member : [];
  members.forEach((m, i) => {
    const line = memberLine(text, i);
    if (m && typeof m === "object" && "role" in m) {
      throw new LinkError(
        "CONFIG_INVALID",
        `Cannot load "${path}": line ${line}: member ${i + 1} has a "role"; a team member takes "purpose"`,
        {
          hint:
            `Rename "role" to "purpose" in ${path}, or set it with \`lnk agent team add ${team} <agent> --purpose "..."\``,
        },
      );
    }
    const checked = TeamMember.safeParse(m);
    if (!checked.success) {
      const problems = checked.error.issues.map((issue) =>
        `key "member.${[i, ...issue.path].join(".")}": ${issue.message}`
      );
      throw new LinkError("CONFIG_INVALID", `Cannot load "${path}": line ${line}: ${problems.join("; ")}`, {
        hint: `Fix member ${i + 1} of the team's file, or make it again with \`lnk agent team\`:\n` +
          problems.map((p) => `  ${path}:${line}: ${p}`).join("\n"),
      });
    }
  });
  const file = validateToml(
    TeamFile,
    text,
    path,
    "Fix the team's file, or make it again with `lnk agent team`",
  );
  return { ...file, name: team, path };
}

/** The line (1-based) of the `[[member]]` header of member `index`, or 1. */
function memberLine(text: string, index: number): number {
  let seen = -1;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*\[\[\s*member\s*\]\]/.test(lines[i]!) && ++seen === index) return i + 1;
  }
  return 1;
}

/**
 * Every team of this machine, read afresh (TEAM-7: a bridge reads them again as each message
 * comes). A file that does not read is left out and logged, so one broken team stops no other.
 */
export async function readTeams(paths: LinkPaths): Promise<Team[]> {
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(paths.teams));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  const teams: Team[] = [];
  for (
    const entry of entries.filter((e) => e.isFile && e.name.endsWith(".toml")).sort((a, b) =>
      a.name < b.name ? -1 : 1
    )
  ) {
    const name = entry.name.slice(0, -".toml".length);
    if (!TeamName.safeParse(name).success) continue;
    try {
      const team = await readTeam(paths, name);
      if (team) teams.push(team);
    } catch (err) {
      log.warn("A team's file does not read: its members share nothing until it is fixed", {
        team: name,
        error: String(err),
      });
    }
  }
  return teams;
}

/** One teammate of an agent: the team they share and the member's entry. */
export interface Teammate extends TeamMember {
  team: string;
}

/** The agent's teammates over every team it is on (itself never among them); with `owner`, only its teams. */
export async function teammatesOf(
  paths: LinkPaths,
  agentId: string,
  options: { owner?: string } = {},
): Promise<Teammate[]> {
  const mates: Teammate[] = [];
  for (const team of await readTeams(paths)) {
    if (options.owner !== undefined && team.owner !== options.owner) continue;
    if (!team.member.some((m) => m.id === agentId)) continue;
    for (const m of team.member) if (m.id !== agentId) mates.push({ ...m, team: team.name });
  }
  return mates;
}

/**
 * The teams two agents share now, read afresh (TEAM-7); with `owner`, only teams of that owner
 * (TEAM-3: a message crosses only between one owner's agents).
 */
export async function sharedTeams(
  paths: LinkPaths,
  a: string,
  b: string,
  options: { owner?: string } = {},
): Promise<string[]> {
  return (await teammatesOf(paths, a, options)).filter((m) => m.id === b).map((m) => m.team);
}

/** Whether two agents share a team now, read afresh (TEAM-7). */
export async function shareTeam(
  paths: LinkPaths,
  a: string,
  b: string,
  options: { owner?: string } = {},
): Promise<boolean> {
  return (await sharedTeams(paths, a, b, options)).length > 0;
}
