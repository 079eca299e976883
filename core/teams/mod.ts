/**
 * Teams (TEAM-1..13): one owner's agents sharing a folder, opinions and a way to message each
 * other. Their files, `~/.lnk/teams/<team>.toml`, are written by `lnk agent team` alone.
 * @module
 */
/** Team files: their schema, reading one or all, and who shares a team with whom. */
export {
  parseTeam,
  readTeam,
  readTeams,
  sharedTeams,
  shareTeam,
  type Team,
  TeamFile,
  teamFilePath,
  type Teammate,
  teammatesOf,
  TeamMember,
  TeamName,
} from "./team_file.ts";
/** The one writer of team files (TEAM-2): a team made, its members changed, under its lock. */
export { changeTeam, checkTeamName, createTeam, type TeamChange } from "./team_store.ts";
