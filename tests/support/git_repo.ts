import { dirname, join } from "node:path";

/** What a test repository holds: a file's text, or a link to where it points. */
export type RepoEntry = string | { readonly link: string };

/** A real git repository made in a test, removed at dispose. */
export interface GitRepo extends AsyncDisposable {
  /** Its work tree (a plain path git clones). */
  readonly path: string;
  /** The same as a `file://` URL. */
  readonly url: string;
}

/**
 * Makes a git repository with the person's own git (`git init`, one commit on `main`) holding
 * `entries` by path, links committed as links, so `skill add` clones something real with no network.
 */
export async function gitRepo(entries: Readonly<Record<string, RepoEntry>>): Promise<GitRepo> {
  const path = await Deno.makeTempDir({ prefix: "lnk-repo-" });
  await git(path, ["init", "-q", "-b", "main"]);
  for (const [name, entry] of Object.entries(entries)) {
    const at = join(path, name);
    await Deno.mkdir(dirname(at), { recursive: true });
    if (typeof entry === "string") await Deno.writeTextFile(at, entry);
    else await Deno.symlink(entry.link, at);
  }
  await git(path, ["add", "-A"]);
  await git(path, [
    "-c",
    "user.name=Test",
    "-c",
    "user.email=test@localhost",
    "commit",
    "-q",
    "-m",
    "skills",
  ]);
  return {
    path,
    url: new URL(`file://${path}`).href,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Runs git in `dir`, failing with what it said. */
export async function git(dir: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "core.hooksPath=/dev/null", ...args],
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** A skill's SKILL.md, with its front matter's description. */
export function skillMd(description: string): string {
  return `---\nname: skill\ndescription: ${description}\n---\n\n# The skill\n\nSteps.\n`;
}
