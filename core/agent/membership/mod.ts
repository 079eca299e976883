/**
 * Teams as `lnk agent team` changes them: the team's file, each member's grant of its folder, and
 * the restart of the members that run (TEAM-2, TEAM-3, TEAM-9, TEAM-11, TEAM-13). Apart from
 * core/agent/mod.ts, since it starts agents again.
 * @module
 */
export {
  addToTeam,
  createTeamFor,
  removeFromTeam,
  takeOffTeams,
  type TeamChanged,
  type TeamGrant,
} from "./team_change.ts";
