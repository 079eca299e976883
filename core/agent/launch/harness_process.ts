import { basename } from "node:path";
import { type AgentKey, encodeKey, LinkError, type LinkPaths, spawnRole } from "../../base/mod.ts";
import type { ServedAgentInput } from "../../harness/mod.ts";
import { storeSocketPath } from "../sockets.ts";
import type { AgentSettings } from "../settings.ts";
import type { Spec } from "../../spec/mod.ts";

/** The agent's harness as its bridge (or `lnk agent run`) runs it, in its sandbox or not. */
export interface HarnessProcess extends AsyncDisposable {
  readonly pid: number;
  /** Settles when the harness (or its sandbox) has exited. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Whether it runs in a sandbox, and whether behind its proxy (GRT-23's `proxied`). */
  readonly sandboxed: boolean;
  readonly proxied: boolean;
  /** It is the owner's shared harness, which serves the agent among others (PRC-2). */
  readonly shared?: boolean;
  /** Stops the harness (SIGTERM, then a kill after the grace time) and what it ran with. */
  stop(): Promise<void>;
}

/**
 * The harness role each harness runs as, serving its endpoint on `socket`: Link Harness's and the
 * mini harness's own, and the hub for one whose adapter gave a stdio ACP command (`hub`).
 */
export function harnessRole(harness: string, socket: string, hub = false): string[] {
  if (harness === "link") return ["harness", "serve", "--socket", socket];
  if (harness === "mini") return ["harness", "mini", "--socket", socket];
  if (hub) return ["harness", "hub", "--socket", socket];
  throw new LinkError(
    "HARNESS_MISSING",
    `Cannot run harness "${harness}": its adapter gives no endpoint Link runs`,
  );
}

/** The hub's part of its input: the ACP command its adapter gave, and where the agent's Home is inside. */
export interface HubLaunch {
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The harness's stdin line: the agent and its key (never in argv), and for Link Harness the store
 * bridge's socket (`netDir` as the harness sees it) when a driver outside keeps its conversations
 * (TRN-14), with whatever else it is handed. The mini harness takes the agent and its key alone.
 */
export function harnessInputLine(
  agent: AgentSettings,
  key: AgentKey,
  options: {
    paths: LinkPaths;
    spec: Spec;
    netDir: string;
    more?: Partial<ServedAgentInput>;
    hub?: HubLaunch;
    /** Where the hub keeps its sessions, when not its HOME's `.lnk` (unsandboxed). */
    hubState?: string;
  },
): string {
  if (options.hub) {
    // The hub is handed the command, the model as the sandbox reaches it and the Home it works in.
    const entry = {
      id: agent.id,
      name: agent.name,
      key: encodeKey(key),
      acp: options.hub,
      ...(options.more?.model ? { model: options.more.model } : {}),
      ...(options.more?.folders ? { folders: options.more.folders } : {}),
      ...(options.hubState ? { state: options.hubState } : {}),
    };
    return `${JSON.stringify({ agents: [entry] })}\n`;
  }
  return `${JSON.stringify({ agents: [harnessInputEntry(agent, key, options)] })}\n`;
}

/** One agent of the harness's input (harnessInputLine's), as a shared harness is handed it too. */
export function harnessInputEntry(
  agent: AgentSettings,
  key: AgentKey,
  options: { paths: LinkPaths; spec: Spec; netDir: string; more?: Partial<ServedAgentInput> },
): ServedAgentInput {
  const entry: ServedAgentInput = { id: agent.id, name: agent.name, key: encodeKey(key) };
  if (agent.harness === "link") {
    Object.assign(entry, options.more);
    if (options.spec.model.store !== "files") {
      entry.store = { socket: `${options.netDir}/${basename(storeSocketPath(options.paths, agent.id))}` };
    }
  }
  return entry;
}

/**
 * Runs the harness as a plain child of this process, unsandboxed (`--no-sandbox`, GRT-6): it
 * reads the agent's files itself and reaches the network as it is, with no proxy (proxied =
 * false, GRT-23). Its log lines go to the agent's log.
 */
export async function startPlainHarness(
  agent: AgentSettings,
  key: AgentKey,
  options: {
    paths: LinkPaths;
    spec: Spec;
    socket: string;
    netDir: string;
    /** For a harness under the hub: its command, and its model and folders as this process sees them. */
    hub?: HubLaunch;
    more?: Partial<ServedAgentInput>;
    hubState?: string;
  },
): Promise<HarnessProcess> {
  const role = await spawnRole(harnessRole(agent.harness, options.socket, options.hub !== undefined), {
    input: harnessInputLine(agent, key, options),
    stderr: "inherit",
  });
  let stopping: Promise<void> | undefined;
  const stop = () => stopping ??= role.stop().then(() => {});
  return {
    pid: role.pid,
    status: role.child.status,
    sandboxed: false,
    proxied: false,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
