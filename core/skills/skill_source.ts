import { LinkError } from "../base/mod.ts";
import { printable } from "./printable.ts";
import { withoutPassword } from "./without_password.ts";

/** What `skill add` clones and which folder of it is the skill. */
export interface SkillSource {
  /** What git clones: a URL, a `user@host:path`, or an absolute path. */
  readonly clone: string;
  /** The branch or tag to clone; the repository's default when absent. */
  readonly ref?: string;
  /** The skill's folder in the repository, `/`-separated; the repository itself when absent. */
  readonly path?: string;
  /** The name it is installed under unless `--name` says: the folder's, else the repository's. */
  readonly name: string;
}

/** A skill's name: its folder in Agent/skills/, never a dot-name the harness's lister leaves out. */
export const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const GITHUB = /^https?:\/\/(?:www\.)?github\.com\/([^/?#]+)\/([^/?#]+)((?:\/[^?#]*)?)(?:[?#].*)?$/;
const SCHEMES = /^(https?|ssh|git|file):\/\//;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9][A-Za-z0-9.-]*:[^/]/;
/** A host that ssh would read as an option (`ssh://-oProxyCommand=...`). */
const OPTION_HOST = /^(?:[A-Za-z0-9+.-]+:\/\/(?:[^/@]*@)?-|[^/]*@-)/;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Reads what a person gave `skill add` (SKL-1), purely: a GitHub folder page
 * (`https://github.com/o/r/tree/<ref>/<path>`) clones `https://github.com/o/r` at `<ref>` and
 * installs `<path>` alone; any other git URL (https, ssh, git, file, `user@host:path`) or a path
 * (made absolute against `cwd`) is cloned as it is. Nothing that git would read as an option or a
 * transport running a command (`-...`, `ext::...`) gets through. A GitHub ref holding a `/` cannot
 * be told from the path: the first part is the ref.
 */
export function skillSource(given: string, options: { cwd: string }): SkillSource {
  const url = given.trim();
  if (
    url === "" || CONTROL.test(url) || url.startsWith("-") || /^[A-Za-z0-9+.-]+::/.test(url) ||
    OPTION_HOST.test(url)
  ) {
    throw badUrl(given, "it is not a git URL or a path");
  }
  const github = GITHUB.exec(url);
  if (github) return fromGithub(given, github);
  if (SCHEMES.test(url) || SCP_LIKE.test(url)) return { clone: url, name: lastName(url) };
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) {
    throw badUrl(given, "git is given only https, ssh, git and file URLs");
  }
  const path = url.startsWith("/") ? url : `${options.cwd.replace(/\/+$/, "")}/${url}`;
  return { clone: path, name: lastName(path) };
}

function fromGithub(given: string, [, owner, repo, rest]: RegExpExecArray): SkillSource {
  const bare = repo!.replace(/\.git$/, "");
  const clone = `https://github.com/${owner}/${bare}`;
  const parts = rest!.split("/").filter((p) => p !== "").map((p) => decode(given, p));
  if (parts.length === 0) return { clone, name: checkedName(bare) };
  const [kind, ref, ...path] = parts;
  if (kind === "blob") {
    throw badUrl(given, "it is the page of a file, and a skill is a folder", {
      hint: "Give the page of the skill's folder, https://github.com/<owner>/<repo>/tree/<ref>/<folder>",
    });
  }
  if (kind !== "tree" || ref === undefined) {
    throw badUrl(given, "it is not a repository's or a folder's page");
  }
  checkRef(given, ref);
  if (path.some((p) => p === "." || p === ".." || p === ".git" || p.includes("\\"))) {
    throw badUrl(given, "its folder leads out of the repository");
  }
  if (path.length === 0) return { clone, ref, name: checkedName(bare) };
  return { clone, ref, path: path.join("/"), name: checkedName(path.at(-1)!) };
}

function decode(given: string, part: string): string {
  try {
    const text = decodeURIComponent(part);
    if (CONTROL.test(text) || text.includes("/")) throw new Error("no control characters or slashes");
    return text;
  } catch {
    throw badUrl(given, `"${part}" is not a name`);
  }
}

/** A ref as `git check-ref-format` takes it, in the shape GitHub shows in a folder's page. */
function checkRef(given: string, ref: string): void {
  if (ref.startsWith("-") || ref.startsWith(".") || /\.\.|@\{|[\s~^:?*[\\]|\.lock$|\.$/.test(ref)) {
    throw badUrl(given, `"${ref}" is not a branch or tag`);
  }
}

/** The name the last part of a repository's path gives: `skills.git` is `skills`. */
function lastName(url: string): string {
  const last = url.replace(/[/:]+$/, "").split(/[/:]/).at(-1) ?? "";
  return checkedName(last.replace(/\.git$/, ""));
}

/** A name the URL gives that cannot be a folder's is "": the add then asks for --name. */
function checkedName(name: string): string {
  return SKILL_NAME.test(name) ? name : "";
}

function badUrl(given: string, why: string, options: { hint?: string } = {}): LinkError {
  return new LinkError("USAGE", `Cannot add a skill from "${printable(withoutPassword(given))}": ${why}`, {
    hint: options.hint ??
      "Give a git URL (https://github.com/<owner>/<repo>, or a folder's page .../tree/<ref>/<folder>) or a path",
  });
}
