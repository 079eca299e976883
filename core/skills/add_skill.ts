import { LinkError, type LinkPaths } from "../base/mod.ts";
import { type AgentSettings, layoutOf } from "../agent/mod.ts";
import { closeFd, fdPath, openEntry, renameNoReplace, statFd, walkNoFollow } from "../../sandbox/mod.ts";
import { holdAddLock } from "./add_lock.ts";
import { harnessReadsSkills, memoryOn } from "./agent_reads_skills.ts";
import { cloneRepository } from "./clone_repository.ts";
import { inLocalRepository } from "./local_repository.ts";
import { copySkill } from "./copy_skill.ts";
import { describeSkill } from "./describe_skill.ts";
import { printable } from "./printable.ts";
import { type LeftOut, scanSkill, type SkillScan } from "./scan_skill.ts";
import { SKILL_NAME, type SkillSource, skillSource } from "./skill_source.ts";
import { openSkillsFolder, type SkillsFolder } from "./skills_folder.ts";
import { withoutPassword } from "./without_password.ts";

/** What `lnk agent skill add` was given. */
export interface AddSkillOptions {
  /** A git URL, a GitHub folder's page, or a path. */
  readonly url: string;
  /** The name to install it under; the URL's folder's (or repository's) otherwise. */
  readonly name?: string;
  /** The folder a relative path is read from: this process's when absent. */
  readonly cwd?: string;
  /** The person's environment, for their git. */
  readonly env: { toObject(): Record<string, string> };
  readonly signal?: AbortSignal;
  /** Called with each folder's path in the skill once it is made in the copy (tests race it). */
  readonly onFolder?: (path: string) => void;
}

/** A skill installed, and what the person should know of it. */
export interface AddedSkill {
  readonly agent: string;
  readonly name: string;
  readonly description: string;
  /** Where it came from, a password in its URL written `***`. */
  readonly source: SkillSource;
  readonly files: number;
  readonly folders: number;
  readonly bytes: number;
  /** Links and entries neither file nor folder, not copied. */
  readonly leftOut: readonly LeftOut[];
  readonly harness: string;
  /** False when the agent's harness does not read Link's skills (SKL-4). */
  readonly harnessReadsSkills: boolean;
  /** False unless the agent's spec turns memory on (SKL-6). */
  readonly memory: boolean;
}

/** The prefix of a copy not yet in place: a dot-name, which the harness's lister leaves out. */
export const ADDING_PREFIX = ".lnk-add-";

/**
 * Installs a skill from a git URL into the agent's Agent/skills/<name>/ (SKL-1..4, SKL-6): refuses
 * a name already there before cloning; clones with the person's git into Link's own folder;
 * finds the skill's folder in the clone without following a link; scans it within the limits;
 * copies it into a dot-named folder inside Agent/skills/ and puts it in place by one rename
 * that never replaces anything, so a lister never sees half a skill. Whatever fails, the clone
 * and the unfinished copy are removed: nothing is left behind and nothing written outside skills/.
 * Adds go one at a time (holdAddLock), and the next removes what one killed mid-way left.
 */
export async function addSkill(
  paths: LinkPaths,
  agent: AgentSettings,
  options: AddSkillOptions,
): Promise<AddedSkill> {
  const source = await inLocalRepository(skillSource(options.url, { cwd: options.cwd ?? Deno.cwd() }));
  const name = checkName(options.name ?? source.name, options.name !== undefined);
  const what = `skill "${name}"`;
  const layout = layoutOf(paths, agent);
  using _lock = await holdAddLock(paths);
  using skills = openSkillsFolder(layout, { make: true })!;
  removeUnfinished(skills);
  refuseTaken(skills, name, agent);
  await using clone = await cloneRepository(paths, source, options);
  const copied = copyFromClone(clone.dir, { source, skills, name, what, agent, onFolder: options.onFolder });
  return {
    agent: agent.name,
    name,
    description: copied.description,
    source: { ...source, clone: withoutPassword(source.clone) },
    files: copied.scan.files,
    folders: copied.scan.folders,
    bytes: copied.scan.bytes,
    leftOut: copied.scan.leftOut,
    harness: agent.harness,
    harnessReadsSkills: harnessReadsSkills(agent),
    memory: await memoryOn(layout),
  };
}

/** Finds the skill in the clone, scans it, checks it is a skill and puts its copy in place. */
function copyFromClone(
  dir: string,
  at: Omit<Placing, "from"> & { source: SkillSource },
): { scan: SkillScan; description: string } {
  const root = walkNoFollow(dir, { writable: [], what: "the clone" });
  if (root.fd === undefined) throw new LinkError("INTERNAL", `Cannot add ${at.what}: git made no clone`);
  try {
    const folder = skillFolder(root.fd, { source: at.source, what: at.what, clone: dir });
    try {
      const scan = scanSkill(folder, { what: at.what, skip: at.source.path === undefined ? [".git"] : [] });
      const description = describeSkill(folder);
      if (description === undefined) {
        throw new LinkError("INVALID", `Cannot add ${at.what}: its folder holds no SKILL.md`, {
          hint:
            "A skill is a folder holding a SKILL.md that says what it does: give the URL of such a folder",
        });
      }
      putInPlace(scan, { ...at, from: folder });
      return { scan, description };
    } finally {
      closeFd(folder);
    }
  } finally {
    closeFd(root.fd);
  }
}

function checkName(name: string, given: boolean): string {
  if (SKILL_NAME.test(name)) return name;
  throw new LinkError(
    "USAGE",
    given
      ? `Cannot add the skill as "${printable(name)}": a skill's name is letters, digits, ".", "_" and "-"`
      : "Cannot add the skill: its URL gives it no name a folder can have",
    { hint: "Name it with --name <name>, such as --name pdf-tools" },
  );
}

/** Copies an add that died left: under the add lock, no other add is making one. */
function removeUnfinished(skills: SkillsFolder): void {
  for (const entry of Deno.readDirSync(fdPath(skills.fd))) {
    if (entry.name.startsWith(ADDING_PREFIX)) removeQuietly(fdPath(skills.fd, entry.name));
  }
}

function refuseTaken(skills: SkillsFolder, name: string, agent: AgentSettings): void {
  const there = openEntry(skills.fd, name);
  if (there === undefined) return;
  closeFd(there);
  throw taken(name, agent);
}

function taken(name: string, agent: AgentSettings): LinkError {
  return new LinkError(
    "CONFLICT",
    `Cannot add skill "${name}": agent "${agent.name}" has a skill by that name`,
    {
      hint: `Remove it first with \`lnk agent skill remove ${name} --agent ${agent.name}\`, ` +
        "or add this one under another name with --name",
    },
  );
}

/** The skill's folder in the clone: the clone itself, or its path walked without following a link. */
function skillFolder(rootFd: number, at: { source: SkillSource; what: string; clone: string }): number {
  const found = walkNoFollow(at.source.path ?? ".", {
    writable: [],
    what: at.what,
    from: { fd: rootFd, path: at.clone },
    refusal: (link) =>
      new LinkError(
        "SYMLINK_REFUSED",
        `Cannot add ${at.what}: "${printable(link.slice(at.clone.length + 1))}" is a link in the repository`,
        {
          hint:
            "A folder of a repository that is a committed link cannot lead out of it: give the folder it names",
        },
      ),
  });
  if (found.fd !== undefined && found.type === "dir") return found.fd;
  if (found.fd !== undefined) closeFd(found.fd);
  throw new LinkError(
    "INVALID",
    `Cannot add ${at.what}: the repository has no folder "${printable(at.source.path ?? "")}"`,
    {
      hint: "Give the URL of the skill's folder as its page shows it, .../tree/<ref>/<folder>",
    },
  );
}

interface Placing {
  readonly from: number;
  readonly skills: SkillsFolder;
  readonly name: string;
  readonly what: string;
  readonly agent: AgentSettings;
  readonly onFolder?: (path: string) => void;
}

/** Copies into a dot-named folder of skills/, then renames it to its name: all of it, or nothing. */
function putInPlace(scan: SkillScan, at: Placing): void {
  const temp = `${ADDING_PREFIX}${crypto.randomUUID().slice(0, 8)}`;
  Deno.mkdirSync(fdPath(at.skills.fd, temp), { mode: 0o700 });
  let placed = false;
  try {
    const to = openEntry(at.skills.fd, temp);
    if (to === undefined || statFd(to).type !== "dir") {
      if (to !== undefined) closeFd(to);
      throw new LinkError("SYMLINK_REFUSED", `Cannot add ${at.what}: its copy was replaced as it was made`);
    }
    try {
      copySkill(scan, at.from, { to, what: at.what, onFolder: at.onFolder });
      const now = openEntry(at.skills.fd, temp);
      const same = now !== undefined && statFd(now).ino === statFd(to).ino;
      if (now !== undefined) closeFd(now);
      if (!same) {
        throw new LinkError("SYMLINK_REFUSED", `Cannot add ${at.what}: its copy was moved as it was made`);
      }
    } finally {
      closeFd(to);
    }
    at.skills.stillThere();
    if (renameNoReplace(at.skills.fd, temp, at.name) === "exists") throw taken(at.name, at.agent);
    placed = true;
  } finally {
    // Removed through the held folder: a link put in its place is removed itself, never followed.
    if (!placed) removeQuietly(fdPath(at.skills.fd, temp));
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
}
