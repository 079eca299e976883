import {
  atomicWrite,
  joinPath as join,
  LinkError,
  type LinkPaths,
  lockFile,
  readTextIfExists,
  stringifyToml,
} from "../base/mod.ts";
import { parseTeam, readTeams, type Team, teamFilePath, type TeamMember, TeamName } from "./team_file.ts";

/**
 * Changes one team's file under its lock (TEAM-2: `lnk agent team` alone writes it): read, change,
 * write atomically (0600), so two commands at once never lose each other's change. A file edited by
 * hand into nonsense is refused naming its line, and left as it was. `change` returns the members
 * the file holds next, and its owner if that changes (a team with no member takes its first
 * member's); the folder and `[spec]` (its lines as written, comments kept) stay as they were.
 */
export async function changeTeam(
  paths: LinkPaths,
  team: string,
  change: (team: Team) => TeamChange | Promise<TeamChange>,
): Promise<Team> {
  checkTeamName(team);
  using _lock = await lockTeams(paths, team);
  const path = teamFilePath(paths, team);
  const text = await readTextIfExists(path);
  if (text === undefined) throw noTeam(team);
  const before = parseTeam(team, path, text);
  const { member, owner } = await change(before);
  const next = teamText({ ...before, owner: owner ?? before.owner }, member, specLines(text));
  const after = parseTeam(team, path, next);
  await atomicWrite(path, next, { mode: 0o600 });
  return after;
}

/** What a change of a team's file sets: its members, and its owner when it changes. */
export interface TeamChange {
  member: TeamMember[];
  owner?: string;
}

/**
 * Makes a team: its file, with no member yet, and its shared folder (0700; `~/Link/Teams/<team>`
 * unless `folder` names another). Refused when the team is there already.
 */
export async function createTeam(
  paths: LinkPaths,
  team: string,
  options: { owner: string; folder?: string },
): Promise<Team> {
  checkTeamName(team);
  await Deno.mkdir(paths.teams, { recursive: true, mode: 0o700 });
  using _lock = await lockTeams(paths, team);
  const path = teamFilePath(paths, team);
  if ((await readTextIfExists(path)) !== undefined) {
    throw new LinkError("CONFLICT", `Cannot create team "${team}": it is there already`, {
      hint: `Run \`lnk agent team show ${team}\` to see it, or pick another name`,
    });
  }
  const folder = options.folder ?? join(paths.teamFolders, team);
  if (!folder.startsWith("/")) {
    throw new LinkError("USAGE", `Cannot create team "${team}": its folder "${folder}" is not a full path`, {
      hint: "Give the folder from the root, like /srv/teams/" + team,
    });
  }
  await checkFolder(paths, team, folder.replace(/\/+$/, "") || "/");
  // Made 0700; a folder there already is the person's, its mode theirs (it is never chmodded).
  const there = await Deno.lstat(folder).then((s) => s, () => undefined);
  if (there && !there.isDirectory) {
    throw new LinkError("REFUSED", `Cannot create team "${team}" sharing "${folder}": it is not a folder`, {
      hint: "Pick a folder, or a path where none is yet",
    });
  }
  if (!there) {
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    await Deno.chmod(folder, 0o700); // the umask may have narrowed it at mkdir; never widened
  }
  const made: Team = { name: team, path, owner: options.owner, folder, member: [] };
  const text = teamText(made, [], "");
  parseTeam(team, path, text);
  await atomicWrite(path, text, { mode: 0o600 });
  return made;
}

/**
 * A team's own folder is one no grant of it could widen: not your home or above it, not in Link's
 * state, ~/.config or the agents' folders, not ~/Link/Teams or another team's place in it, and
 * neither in nor around another team's folder.
 */
async function checkFolder(paths: LinkPaths, team: string, folder: string): Promise<void> {
  const within = (path: string, root: string) => root === "/" || path === root || path.startsWith(`${root}/`);
  const own = join(paths.teamFolders, team);
  const why = within(paths.home, folder)
    ? "your home is in it"
    : [paths.lnk, paths.config, paths.agentFolders].find((root) => within(folder, root))
    ? "Link hides it from every sandbox"
    : within(paths.teamFolders, folder) || (within(folder, paths.teamFolders) && !within(folder, own))
    ? `it is not ${own}, the team's own place in ~/Link/Teams`
    : undefined;
  const other = why
    ? undefined
    : (await readTeams(paths)).find((t) =>
      within(folder, t.folder.replace(/\/+$/, "")) || within(t.folder.replace(/\/+$/, ""), folder)
    );
  const reason = why ?? (other && `it overlaps the folder of team "${other.name}"`);
  if (reason === undefined) return;
  throw new LinkError("REFUSED", `Cannot create team "${team}" sharing "${folder}": ${reason}`, {
    hint: `Leave out --folder (the team then shares ${own}), or pick a folder of its own`,
  });
}

/** The team's name checked as a file's and a folder's name. */
export function checkTeamName(team: string): void {
  if (!TeamName.safeParse(team).success) {
    throw new LinkError(
      "USAGE",
      `Cannot use team name "${team}": a team's name is lower-case letters, digits, - and _`,
      { hint: "Pick a name like research or home-lab" },
    );
  }
}

function noTeam(team: string): LinkError {
  return new LinkError("CONFIG_INVALID", `Cannot find team "${team}"`, {
    hint: `Run \`lnk agent team list\` to see the teams, or \`lnk agent team create ${team}\``,
  });
}

/** The lock of one team's file, beside it (a name readTeams never reads as a team). */
async function lockTeams(paths: LinkPaths, team: string) {
  await Deno.mkdir(paths.teams, { recursive: true, mode: 0o700 });
  return await lockFile(join(paths.teams, `.${team}.lock`));
}

/** The file's text: Link's keys and members as it writes them, then `[spec]` as it was written. */
function teamText(team: Team, members: readonly TeamMember[], spec: string): string {
  const head =
    `# Team "${team.name}": written by \`lnk agent team\` alone. No sandbox ever sees this file.\n` +
    "# [spec] (shared opinions, beneath each member's own spec) is yours to edit.\n";
  const body = stringifyToml({
    owner: team.owner,
    folder: team.folder,
    member: members.map((m) => ({ id: m.id, name: m.name, purpose: m.purpose })),
  });
  return `${head}${body.replace(/\n*$/, "\n")}${spec ? `\n${spec.replace(/\n*$/, "\n")}` : ""}`;
}

/** The lines of `[spec]` and its subtables, as written (comments kept), from a team file's text. */
function specLines(text: string): string {
  const kept: string[] = [];
  let inSpec = false;
  for (const line of text.split("\n")) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?/.exec(line);
    if (header) inSpec = /^(spec|"spec"|'spec')(\s*\.|$)/.test(header[1]!);
    if (inSpec) kept.push(line);
  }
  return kept.join("\n").trim();
}
