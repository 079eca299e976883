import { z } from "zod";
import { validateToml } from "../base/mod.ts";
import { Limits } from "./limits_spec.ts";
import { parsePrincipal } from "./principal.ts";

const Access = z.enum(["none", "read", "write"]);
/** One folder name the agent sees: "." (all of Home) or a single name, never nested (LAY-6). */
const FolderName = z.string().regex(
  /^(?!\.\.$)[^/\\\0]+$/,
  'must be one folder name, such as "work", or "."',
);
/** A path of this machine: absolute, or under your home with "~". */
const MachinePath = z.string().regex(/^(~|~\/.*|\/.*)$/, 'must start with "/" or "~"').refine(
  (p) => !p.split("/").includes(".."),
  'must not contain ".."',
);
/** A folder inside a team's shared folder, relative to it. */
const TeamFolder = z.string().regex(/^[^/\0]/, "must be relative to the team's folder").refine(
  (p) => !p.split("/").includes(".."),
  'must not contain ".."',
);
const HostPort = z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'must be "host:port", such as "github.com:22"');

/**
 * An agent's grants (Config/sandbox.toml), in the agent's own terms (GRT-5, U-5). Every section
 * is a grant; an unknown section or key is refused, never ignored.
 */
export const SandboxSpec = z.strictObject({
  /** What the agent's tools may do with each of its folders: "." is all of Home (LAY-5). */
  files: z.record(FolderName, Access).default({
    ".": "write",
    instructions: "read",
    skills: "read",
    chats: "read",
  }),
  /** Paths of this machine beyond Home, read-only or writable (`--read`, `--write`). */
  paths: z.strictObject({
    read: z.array(MachinePath).default([]),
    write: z.array(MachinePath).default([]),
  }).prefault({}),
  /** Programs the run tool may start, by name, path or "*" (SBX-20). */
  commands: z.strictObject({ allow: z.array(z.string().min(1)).default(["*"]) }).prefault({}),
  /** The internet through the proxy: hosts ("*" for any) and raw TCP endpoints (SBX-11, SBX-12). */
  internet: z.strictObject({
    hosts: z.array(z.string().min(1)).default(["*"]),
    tcp: z.array(HostPort).default([]),
  }).prefault({}),
  /** "proxy" (the default) or "host": the network as it is (SBX-9). */
  network: z.strictObject({ mode: z.enum(["proxy", "host"]).default("proxy") }).prefault({}),
  /** Hosts of your local network the proxy may reach (SBX-9). */
  lan: z.strictObject({ hosts: z.array(z.string().min(1)).default([]) }).prefault({}),
  /** Ports on this machine the sandbox may reach, relayed in (GRT-14). */
  localhost: z.strictObject({ ports: z.array(z.number().int().min(1).max(65535)).default([]) }).prefault({}),
  /** Hosts a browser tool may open. */
  browser: z.strictObject({ hosts: z.array(z.string().min(1)).default([]) }).prefault({}),
  /** Tools that run outside the sandbox. */
  tools: z.strictObject({ outside: z.array(z.string().min(1)).default([]) }).prefault({}),
  /** Grants on team folders, by team (TEAM-11). */
  teams: z.record(
    z.string(),
    z.strictObject({
      all: z.boolean().default(false),
      read: z.array(TeamFolder).default([]),
      write: z.array(TeamFolder).default([]),
    }),
  ).default({}),
  /**
   * Protected places (a repository's .git/hooks and .git/config, .vscode, shell rc files, ...) the
   * owner lets the agent write, each by its path: it and what is in it (`--write-protected`).
   */
  protected: z.strictObject({ writable: z.array(MachinePath).default([]) }).prefault({}),
  /** Who may message the agent besides its owner (ACS-2). */
  access: z.strictObject({
    message: z.array(
      z.string().refine(
        (word) => parsePrincipal(word) !== undefined,
        'must be a principal such as "person:telegram:123", "person:slack:T123:U456" or "chat:telegram:-100123"',
      ),
    ).default([]),
  }).prefault({}),
  /** What the sandbox may use: processes, memory, the size of one file. */
  limits: Limits.prefault({}),
});
export type SandboxSpec = z.infer<typeof SandboxSpec>;

/** Reads a sandbox file's text; each problem names the file, line and key. */
export function parseSandboxSpec(text: string, path: string): SandboxSpec {
  return validateToml(SandboxSpec, text, path, "Fix these grants, or run `lnk agent allow` or `deny`");
}

/** The sandbox file a new agent gets: the defaults, each explained. */
export const DEFAULT_SANDBOX_TOML =
  `# What this agent may reach. Change it with \`lnk agent allow\` and \`lnk agent deny\`,
# or edit it here; an unknown section or key is refused, never ignored.
# No sandbox ever sees this file.

# Your agent's folders as its tools see them: "." is all of Home; instructions,
# skills and chats are its own. Each is "none", "read" or "write"; chats is never
# writable to a tool.
[files]
"." = "write"
instructions = "read"
skills = "read"
chats = "read"

# Paths of this machine beyond Home, such as "~/src" or "/opt/data": read-only or
# writable. ~/.lnk, ~/.config, every Config/ folder, other agents' folders and team
# folders stay hidden whatever these say.
[paths]
read = []
write = []

# Programs the run tool may start: names, paths, or "*" for any.
[commands]
allow = ["*"]

# The internet, through Link's proxy only: hosts ("*" for any) and raw TCP
# endpoints such as "github.com:22" (only ports 443 and 80 otherwise).
[internet]
hosts = ["*"]
tcp = []

# "proxy" keeps the agent behind its proxy; "host" gives it this machine's
# network as it is (\`lnk agent allow --network-mode host\`).
[network]
mode = "proxy"

# Hosts of your local network the proxy may reach.
[lan]
hosts = []

# Ports on this machine the agent may reach.
[localhost]
ports = []

# Protected places stay read-only wherever the agent may write: a repository's
# .git (its config, hooks and submodules), .vscode, .idea, your shell's rc files,
# and what else your own tools run (\`lnk agent show --permissions\` lists them).
# Name one here to let the agent write it and what is in it
# (\`lnk agent allow --write-protected ~/src/app/.vscode\`).
[protected]
writable = []

# What everything the agent runs may use together: processes (threads count),
# memory (a program going past it is stopped), and the size of any one file it
# writes. Sizes are written like "4GiB" or "512MiB". \`lnk agent harness check\`
# says how each holds here: a cgroup, or per-process limits where Link cannot
# make one.
[limits]
processes = 1024
memory = "4GiB"
file_size = "4GiB"
`;
