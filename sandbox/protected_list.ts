/**
 * One place no sandbox may change, though it can write the folder it is in: the person's own tools
 * run what it holds later, outside any sandbox, without the person choosing to run the project's
 * code (ARCHITECTURE.md section 7).
 */
export interface ProtectedEntry {
  /** Where it is, from the folder it is looked for in. */
  readonly name: string;
  /** A folder bound onto itself, so it is never renamed or replaced; read-only otherwise. */
  readonly pin?: true;
  /**
   * What Link puts there while a sandbox runs when it is missing, so the agent cannot make it: an
   * empty folder (git, npm and editors take one for none), a file with this text, or nothing where
   * any stand-in would change what the person's tools do.
   */
  readonly missing: "folder" | "none" | { readonly file: string };
}

/**
 * In every writable place a sandbox sees and in each repository found at or below one: kept
 * read-only where they are. A missing one is stood in for only where a tool would run a new one
 * on its own, and only in repositories (a folder that is no repository is the agent's to make one
 * of, like any folder it makes): editors apply a trusted folder's .vscode and .idea on opening it.
 * The rest run only through what is kept already (a hook, core.hooksPath, a driver in config) or
 * ask first (direnv, dev containers). Not listed: Makefile, package.json and other build files,
 * which a coding agent edits as its work and which run only when the person runs the project's
 * code; package managers' rc files are kept because a changed registry would take the person's token.
 */
export const IN_PLACES: readonly ProtectedEntry[] = [
  // Git runs .git/config (core.fsmonitor, core.hooksPath, core.pager) and hooks on a plain
  // `git status` or commit; pinned, so it is never renamed or replaced with one of the agent's.
  { name: ".git", pin: true, missing: "none" },
  // Attributes pick filter and diff drivers; submodules are fetched from where .gitmodules says.
  { name: ".gitattributes", missing: "none" },
  { name: ".gitmodules", missing: "none" },
  // Editors apply a trusted folder's settings and tasks on opening it (tasks on folderOpen, programs named in settings).
  { name: ".vscode", missing: "folder" },
  { name: ".idea", missing: "folder" },
  // Hooks husky and pre-commit run at the next commit (through .git/hooks or core.hooksPath).
  { name: ".husky", missing: "none" },
  { name: ".pre-commit-config.yaml", missing: "none" },
  // direnv and dev containers ask before running a new or changed one.
  { name: ".envrc", missing: "none" },
  { name: ".devcontainer", missing: "none" },
  { name: ".npmrc", missing: "none" },
  { name: ".yarnrc", missing: "none" },
  { name: ".yarnrc.yml", missing: "none" },
];

/**
 * Inside each repository's `.git` folder: what git reads and runs on its own. The rest (objects,
 * refs, the index, HEAD) stays writable, so the agent still commits; what it cannot do is change
 * the repository's settings (`git config`, `git remote add`), hooks, submodules or worktrees. Not
 * listed: info/ (its attributes and excludes only pick among what config names).
 */
export const IN_GIT: readonly ProtectedEntry[] = [
  { name: "config", missing: "none" },
  // Read only when config turns it on (extensions.worktreeConfig), and config is read-only.
  { name: "config.worktree", missing: "none" },
  { name: "hooks", missing: "folder" },
  // Each submodule's own .git folder (its config and hooks). A missing one needs no stand-in: a
  // submodule the agent adds itself is a repository it makes, whatever folder holds its .git.
  { name: "modules", missing: "none" },
  { name: "worktrees", missing: "none" },
  // Names another folder whose config and hooks git then takes; "." is the folder itself.
  { name: "commondir", missing: { file: ".\n" } },
];

/**
 * In the person's own home folder, when a sandbox can write it (a write grant on ~, or a Home
 * picked as ~): what their shell and tools run at the next login or start. A missing one is stood
 * in for only where an empty one changes nothing: bash reads the first of .bash_profile,
 * .bash_login and .profile, vim skips its defaults beside a .vimrc, Emacs skips .emacs.d beside an
 * .emacs, so those are kept read-only where they are and a start says the home folder is writable.
 */
export const IN_HOME: readonly ProtectedEntry[] = [
  ...[".bashrc", ".bash_logout", ".profile", ".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout"]
    .map((name) => ({ name, missing: { file: "" } })),
  { name: ".bash_profile", missing: "none" },
  { name: ".bash_login", missing: "none" },
  { name: ".gitconfig", missing: { file: "" } },
  { name: ".ssh", missing: "folder" },
  { name: ".local/bin", missing: "folder" },
  { name: ".tmux.conf", missing: { file: "" } },
  { name: ".vimrc", missing: "none" },
  { name: ".emacs", missing: "none" },
  { name: ".emacs.d", missing: "none" },
];

/** How deep below a writable place repositories are looked for, and how many folders are read at most. */
export const SCAN_LIMITS = { depth: 4, folders: 4000, repositories: 32 } as const;

/** Folders never looked into for repositories: git's own, and package trees that hold no work. */
export const SCAN_SKIPS: readonly string[] = [".git", "node_modules"];
