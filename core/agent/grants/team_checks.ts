import { join } from "node:path";
import type { LinkPaths } from "../../base/mod.ts";
import { readTeams } from "../../teams/mod.ts";
import type { CheckSetup } from "./check_setup.ts";
import type { HarnessPolicy } from "./harness_policy.ts";
import { type PlannedCheck, reachCheck } from "./planned_check.ts";

/**
 * The team checks of `lnk agent harness check` (TEAM-2, TEAM-12, TEAM-13): each folder of a team
 * the agent is granted reached as granted (it must), the rest of that team's folder and every
 * other team's hidden (it must not), ~/Link/Teams itself hidden, and the team files in ~/.lnk/teams
 * neither read nor written. Each row names its team and folder; with no team on this machine,
 * there is none.
 */
export async function planTeamChecks(
  setup: CheckSetup,
  paths: LinkPaths,
  policy: HarnessPolicy,
): Promise<PlannedCheck[]> {
  const teams = await readTeams(paths);
  const folders = await Deno.stat(paths.teamFolders).then(() => true, () => false);
  if (teams.length === 0 && !folders) return [];
  const checks: PlannedCheck[] = [
    reachCheck(setup, "~/.lnk/teams (the team files)", "hidden", {
      reads: await Promise.all(teams.map((t) => setup.existing(t.path))),
      writes: [await setup.writable(paths.teams)],
    }),
    reachCheck(setup, "~/Link/Teams (but what is granted)", "hidden", {
      reads: [await setup.canary(paths.teamFolders)],
      writes: [await setup.writable(paths.teamFolders)],
    }),
  ];
  for (const team of teams) {
    const folder = policy.teams[team.name];
    const grant = folder === undefined ? undefined : policy.spec.teams[team.name];
    const place = (name?: string) => (name === undefined ? team.folder : join(team.folder, name));
    const reach = async (label: string, expected: "hidden" | "read-only" | "writable", name?: string) =>
      reachCheck(setup, label, expected, {
        reads: [await setup.canary(place(name))],
        writes: [await setup.writable(place(name))],
      });
    if (grant?.all) {
      checks.push(await reach(`team "${team.name}": all of ${team.folder} (granted)`, "writable"));
      continue;
    }
    const granted = grant ? [...grant.read, ...grant.write] : [];
    checks.push(
      await reach(
        granted.length
          ? `team "${team.name}": ${team.folder} but its granted folders`
          : `team "${team.name}": ${team.folder} (${folder === undefined ? "not on it" : "nothing granted"})`,
        "hidden",
      ),
    );
    for (const name of grant?.write ?? []) {
      checks.push(await reach(`team "${team.name}": ${name}/ (granted write)`, "writable", name));
    }
    for (const name of (grant?.read ?? []).filter((n) => !grant?.write.includes(n))) {
      checks.push(await reach(`team "${team.name}": ${name}/ (granted read)`, "read-only", name));
    }
  }
  return checks;
}
