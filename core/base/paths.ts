import { joinPath as join } from "./file_path.ts";
import { LinkError } from "./errors.ts";

/** Every path Link uses, rooted at one home folder (`$HOME`; tests pass a temporary one). */
export class LinkPaths {
  readonly home: string;
  constructor(home: string) {
    this.home = home;
  }
  /** `~/.lnk`: Link's own state, hidden from every sandbox. */
  get lnk(): string {
    return join(this.home, ".lnk");
  }
  get machineToml(): string {
    return join(this.lnk, "machine.toml");
  }
  get agentsState(): string {
    return join(this.lnk, "agents");
  }
  agentState(id: string): string {
    return join(this.agentsState, id);
  }
  /** The SQLite store's database of an agent's conversations, kept outside its sandbox (TRN-14). */
  storeDatabase(id: string): string {
    return join(this.agentState(id), "chats.sqlite");
  }
  /** Held while agents are created, removed or restored, and while a port block is chosen. */
  get agentsLock(): string {
    return join(this.agentsState, ".lock");
  }
  /** Held while one agent starts, stops or is removed: one at a time. */
  agentLock(id: string): string {
    return join(this.agentState(id), "agent.lock");
  }
  settingsToml(id: string): string {
    return join(this.agentState(id), "settings.toml");
  }
  connectionDir(id: string, connection: string): string {
    return join(this.agentState(id), "connections", connection);
  }
  get keys(): string {
    return join(this.agentsState, ".keys");
  }
  keyFile(id: string): string {
    return join(this.keys, id);
  }
  get netRoot(): string {
    return join(this.agentsState, ".net");
  }
  net(id: string): string {
    return join(this.netRoot, id);
  }
  /** IDs ever given on this machine, so none is reused. */
  get issuedIds(): string {
    return join(this.agentsState, ".issued");
  }
  get run(): string {
    return join(this.lnk, "run");
  }
  /** What Link keeps for itself and can make again: sqlite-vec's extension, loaded from here. */
  get cache(): string {
    return join(this.lnk, "cache");
  }
  get removed(): string {
    return join(this.lnk, "removed");
  }
  get harnesses(): string {
    return join(this.lnk, "harnesses");
  }
  harnessToml(harness: string): string {
    return join(this.harnesses, `${harness}.toml`);
  }
  /** `~/.lnk/installs`: each outside harness installed once per machine. */
  get installs(): string {
    return join(this.lnk, "installs");
  }
  /** `~/.lnk/installs/<harness>`: where its adapter's `install` puts the harness. */
  installDir(harness: string): string {
    return join(this.installs, harness);
  }
  get teams(): string {
    return join(this.lnk, "teams");
  }
  get held(): string {
    return join(this.lnk, "held");
  }
  get moves(): string {
    return join(this.lnk, "moves");
  }
  /** Where `skill add` clones a repository with the person's git: Link's alone, never an agent's (SKL-1). */
  get skillClones(): string {
    return join(this.lnk, "cache", "skills");
  }
  /** `~/Link`: the person's side. */
  get link(): string {
    return join(this.home, "Link");
  }
  get agentFolders(): string {
    return join(this.link, "Agents");
  }
  agentFolder(name: string): string {
    return join(this.agentFolders, name);
  }
  get teamFolders(): string {
    return join(this.link, "Teams");
  }
  /** `~/.config`: never reachable from a sandbox. */
  get config(): string {
    return join(this.home, ".config");
  }
  get systemdUser(): string {
    return join(this.config, "systemd", "user");
  }
  get launchAgents(): string {
    return join(this.home, "Library", "LaunchAgents");
  }
}

/** Reads HOME from an environment, failing clearly when it is missing. */
export function homeFrom(env: { get(name: string): string | undefined }): string {
  const home = env.get("HOME");
  if (!home) {
    throw new LinkError("CONFIG_INVALID", "Cannot find your home folder: HOME is not set", {
      hint: "Set HOME to your home folder, then run the command again",
    });
  }
  return home;
}
