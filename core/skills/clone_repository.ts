import { LinkError, type LinkPaths } from "../base/mod.ts";
import { printable } from "./printable.ts";
import type { SkillSource } from "./skill_source.ts";
import { redactedIn, withoutPassword } from "./without_password.ts";

/** A repository cloned into Link's own folder, removed at dispose with everything git wrote. */
export interface Clone extends AsyncDisposable {
  /** The clone's work tree. */
  readonly dir: string;
}

/** How a clone goes. */
export interface CloneOptions {
  /** The person's environment: their git, its config and their credentials are theirs. */
  readonly env: { toObject(): Record<string, string> };
  readonly signal?: AbortSignal;
}

/** What git is told whatever its config: no hooks, no submodules, no transport that runs a command. */
const GIT_CONFIG = [
  "core.symlinks=true",
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "submodule.recurse=false",
  "protocol.ext.allow=never",
  "advice.detachedHead=false",
];

/** Variables that would point git at another repository or its own template of hooks. */
const DROPPED =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|TEMPLATE_DIR|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+)$/;

/**
 * Clones a skill's repository with the person's own git (SKL-1), `--depth 1` (a commit named by
 * its id is fetched alone), into a folder of `~/.lnk/cache/skills/` (made 0700 by holdAddLock,
 * Link's alone: no sandbox ever sees ~/.lnk): no hook runs, no submodule is fetched, committed
 * links arrive as links (for the copy to leave out), and git never asks at a terminal. The clone
 * is made anew for each add and removed once the skill is copied (or not), so nothing stale is
 * ever installed and nothing is left behind. A clone that fails is CLONE_FAILED with git's own
 * first line, its folder already gone.
 */
export async function cloneRepository(
  paths: LinkPaths,
  source: SkillSource,
  options: CloneOptions,
): Promise<Clone> {
  const folder = await Deno.makeTempDir({ dir: paths.skillClones, prefix: `${await keyOf(source)}-` });
  const clone: Clone = {
    dir: `${folder}/repo`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(folder, { recursive: true }).catch(() => {});
    },
  };
  try {
    for (const args of gitSteps(source, clone.dir)) await runGit(source, { ...options, args, cwd: folder });
    return clone;
  } catch (err) {
    await clone[Symbol.asyncDispose]();
    throw err;
  }
}

/** A commit by its id, as a GitHub permalink names one: `clone --branch` takes branches and tags alone. */
const COMMIT = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The git commands of a clone: one `clone`, or for a commit's id an empty repository that
 * fetches that one commit and checks it out.
 */
function gitSteps(source: SkillSource, dir: string): string[][] {
  const shallow = ["--depth", "1", "--no-recurse-submodules", "--quiet"];
  if (source.ref === undefined || !COMMIT.test(source.ref)) {
    const branch = source.ref === undefined ? [] : ["--branch", source.ref];
    // --no-local: a path is cloned through git's own transport, never by copying or linking its
    // .git (which whoever wrote the folder, an agent in its Home say, could have crafted).
    return [["clone", "--no-local", ...shallow, ...branch, "--", source.clone, dir]];
  }
  return [
    ["init", "--quiet", "--", dir],
    ["-C", dir, "fetch", ...shallow, "--", source.clone, source.ref],
    ["-C", dir, "checkout", "--quiet", "--detach", "FETCH_HEAD"],
  ];
}

async function runGit(
  source: SkillSource,
  options: CloneOptions & { args: string[]; cwd: string },
): Promise<void> {
  const env = Object.fromEntries(Object.entries(options.env.toObject()).filter(([k]) => !DROPPED.test(k)));
  const args = [...GIT_CONFIG.flatMap((c) => ["-c", c]), ...options.args];
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("git", {
      args,
      cwd: options.cwd,
      env: { ...env, GIT_TERMINAL_PROMPT: "0", GCM_INTERACTIVE: "never" },
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      signal: options.signal,
    }).output();
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    throw new LinkError("CLONE_FAILED", "Cannot add a skill: git is not installed", {
      hint: "Install git (apt-get install git, dnf install git, brew install git), then add the skill again",
    });
  }
  if (out.success) return;
  if (options.signal?.aborted) throw options.signal.reason;
  const said = firstLine(redactedIn(new TextDecoder().decode(out.stderr), source.clone));
  throw new LinkError("CLONE_FAILED", `Cannot clone "${printable(withoutPassword(source.clone))}": ${said}`, {
    hint: source.ref === undefined
      ? "Check that `git clone` takes the URL for you, then add the skill again"
      : `Check that \`git clone\` takes the URL for you and that it has "${source.ref}", then add the skill again`,
  });
}

/** git's reason: its first `fatal:` or `error:` line, else its first line. */
function firstLine(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const line = lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? "git said nothing";
  return printable(line.replace(/^(fatal|error):\s*/, ""));
}

/** A short name for the source, so a person looking in the cache sees which is which. */
async function keyOf(source: SkillSource): Promise<string> {
  const bytes = new TextEncoder().encode(`${source.clone}\n${source.ref ?? ""}`);
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
