import { join } from "node:path";
import { atomicWrite, type LinkPaths } from "../base/mod.ts";
import { DEFAULT_SANDBOX_TOML, DEFAULT_SPEC_TOML } from "../spec/mod.ts";

/** The collections of an agent's brain, each one folder (LAY-1, LAY-3). */
export const COLLECTIONS = ["instructions", "skills", "memory", "chats", "schedule"] as const;

/** Where one agent's folders are. */
export interface AgentLayout {
  /** `~/Link/Agents/<name>`. */
  readonly root: string;
  /** The person's documents and the agent's work: the agent's own, or one picked with --files. */
  readonly home: string;
  readonly agent: string;
  readonly config: string;
  readonly specToml: string;
  readonly sandboxToml: string;
  collection(name: (typeof COLLECTIONS)[number]): string;
}

/** The folders of an agent by name, with its Home where --files put it. */
export function agentLayout(paths: LinkPaths, name: string, home?: string): AgentLayout {
  const root = paths.agentFolder(name);
  const agent = join(root, "Agent");
  const config = join(root, "Config");
  return {
    root,
    home: home ?? join(root, "Home"),
    agent,
    config,
    specToml: join(config, "spec.toml"),
    sandboxToml: join(config, "sandbox.toml"),
    collection: (c) => join(agent, c),
  };
}

const DEFAULT_INSTRUCTIONS = (name: string) =>
  `# ${name}

You are ${name}, a personal agent running on your owner's own machine through Link.
Work in your Home folder. Be brief, say what you did, and ask before anything that cannot
be undone.

Your owner edits this file (Agent/instructions/) to tell you who you are and how to work.
`;

/**
 * Makes an agent's folders and writes its spec and sandbox file from the defaults, with comments:
 * every folder 0700 and every file 0600, whatever the umask, so no other user reads any of it.
 */
export async function createLayout(layout: AgentLayout, name: string): Promise<void> {
  await Deno.mkdir(layout.root, { recursive: true, mode: 0o700 });
  await Deno.chmod(layout.root, 0o700);
  await Deno.mkdir(layout.home, { recursive: true, mode: 0o700 });
  for (const c of COLLECTIONS) await Deno.mkdir(layout.collection(c), { recursive: true, mode: 0o700 });
  await Deno.mkdir(layout.config, { recursive: true, mode: 0o700 });
  await writeIfAbsent(layout.specToml, DEFAULT_SPEC_TOML);
  await writeIfAbsent(layout.sandboxToml, DEFAULT_SANDBOX_TOML);
  await writeIfAbsent(join(layout.collection("instructions"), "agent.md"), DEFAULT_INSTRUCTIONS(name));
}

async function writeIfAbsent(path: string, text: string): Promise<void> {
  try {
    await Deno.lstat(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    await atomicWrite(path, text, { mode: 0o600 });
  }
}

/** The folders of an agent from its settings. */
export function layoutOf(paths: LinkPaths, settings: { name: string; home?: string }): AgentLayout {
  return agentLayout(paths, settings.name, settings.home);
}
