import { askHarnessNeeds, type Asking } from "../asking/mod.ts";
import {
  type HeldLock,
  LinkError,
  PORT_TAKEN_EXIT,
  RoleExited,
  type RoleProcess,
  spawnRole,
} from "../../base/mod.ts";
import { KNOWN } from "../../adapters/mod.ts";
import { findPlugin } from "../../plugins/mod.ts";
import { loadAgentConfig } from "../agent_config.ts";
import { holdAgentLock } from "../agent_lock.ts";
import { type AgentStatus, agentStatus } from "../agent_status.ts";
import type { AgentContext } from "../context.ts";
import { bindKey, unbindKey } from "../keyring.ts";
import { loadMachine, type Machine } from "../machine.ts";
import { modelNote } from "./model_note.ts";
import { freePorts, moveBlock } from "../move_block.ts";
import { secureAgentFolders } from "../secure_folders.ts";
import { serviceFor } from "../service_plan.ts";
import { type AgentSettings, loadSettings, updateSettings } from "../settings.ts";
import { requireTools } from "../system_tools.ts";
import { pickBackend, type ServiceDefinition, serviceNames } from "../services/mod.ts";
import { serviceFailure } from "../service_failure.ts";
import { startOnSharedBridge, stayOnSharedBridge } from "../sharing/mod.ts";
import { runSetup, type SetupStep } from "../setup/mod.ts";
import {
  checkUserNamespaces,
  offerBwrapProfile,
  type ProfileConsent,
  requireUserNamespaces,
} from "../../../sandbox/mod.ts";

/** What `lnk agent start` may say besides the agent. */
export interface StartAgentOptions {
  /** --sandbox (true) or --no-sandbox (false): persists (GRT-6). Absent keeps the setting. */
  sandbox?: boolean;
  /**
   * Runs the services in this process's session instead of as services, until the signal aborts
   * (`lnk agent start --foreground`); the agent is stopped when it does.
   */
  foreground?: AbortSignal;
  /**
   * Asks a person at a terminal to install the AppArmor profile for bubblewrap when AppArmor blocks
   * user namespaces (SBX-3); without it such a start fails with the reason.
   */
  consent?: ProfileConsent;
  /** Where /proc is read to check user namespaces; tests point it at a fake one. */
  procRoot?: string;
  /** How an outside harness's new needs are asked (a terminal, or --yes); refused without (GRT-19). */
  asking?: Asking;
}

/** What a start found: the agent's status, and whether it was running already. */
export type StartResult = AgentStatus & { already?: true };

/**
 * Starts an agent: checks its spec and grants, sets the sandbox setting it was given, moves its
 * ports if another program holds one (PRT-4), binds a new key (BRG-7), and starts its bridge, which
 * opens the door and wakes the agent's service before it says it is ready. An agent asleep behind
 * its door is running already. One start, stop or remove of an agent runs at a time (its lock):
 * a start while another command is at work on it is refused (AGENT_BUSY).
 */
export async function startAgent(
  ctx: AgentContext,
  agent: AgentSettings,
  options: StartAgentOptions = {},
): Promise<StartResult> {
  const lock = await holdAgentLock(ctx.paths, agent, "start");
  try {
    // Read again under the lock: a start just before this one may have moved its ports.
    return await startHeld(ctx, await loadSettings(ctx.paths, agent.id), options, lock);
  } finally {
    lock.release();
  }
}

async function startHeld(
  ctx: AgentContext,
  agent: AgentSettings,
  options: StartAgentOptions,
  lock: HeldLock,
): Promise<StartResult> {
  const { machine, checked } = await checkStart(ctx, agent, options);
  agent = checked;
  const current = await agentStatus(ctx, agent);
  if (current.state === "running" || current.state === "asleep") {
    ctx.note?.(
      current.state === "running"
        ? `Agent "${agent.name}" is running already`
        : `Agent "${agent.name}" is running already, asleep until its next message`,
    );
    return { ...current, already: true };
  }
  // Before the harness runs, in the terminal running the start (GRT-18).
  await askHarnessNeeds(ctx, agent, options.asking ?? {});
  const backend = await pickBackend(ctx.paths, ctx.env);
  const wanted = [
    ...(agent.sandbox.enabled ? ["bwrap"] : []),
    ...(backend.kind === "detached" ? ["setsid"] : []),
  ];
  await requireTools(ctx.env, `Cannot start agent "${agent.name}"`, wanted);
  if (agent.sandbox.enabled) {
    // Before any service starts: the agent's service has no terminal to ask in (SBX-3).
    const found = await checkUserNamespaces({ procRoot: options.procRoot });
    if (options.consent) await offerBwrapProfile(found, options.consent);
    else requireUserNamespaces(found);
  }
  await backend.stop(serviceNames("bridge", agent.id));
  await backend.stop(serviceNames("agent", agent.id));
  agent = await freePorts(ctx, agent);
  // An outside harness's setup steps, each sandboxed, with the ports it runs on, before its key is bound.
  await runSetup(ctx, agent, { progress: setupProgress(ctx, agent), note: ctx.note });
  await bindKey(ctx.paths, agent.id);
  await Deno.mkdir(ctx.paths.net(agent.id), { recursive: true, mode: 0o700 });
  const note = await modelNote(ctx, agent);
  if (note) ctx.note?.(note);
  if (machine.shared_bridge) return await startShared(ctx, agent, { foreground: options.foreground, lock });
  if (options.foreground) return await runInForeground(ctx, agent, options.foreground, lock);
  try {
    // The bridge opens the door and wakes the agent's service before it says it is ready; its
    // failure is the one its error line said (the last attempt's, as one moved off a taken port
    // may fail another way).
    agent = await startBridge(ctx, agent, (service) => backend.start(service));
  } catch (err) {
    await backend.stop(serviceNames("bridge", agent.id));
    await backend.stop(serviceNames("agent", agent.id));
    await unbindKey(ctx.paths, agent.id);
    throw serviceFailure(err, `Cannot start agent "${agent.name}"`);
  }
  return await agentStatus(ctx, agent);
}

/**
 * What a start checks before anything runs: the agent's folders its user's alone, the machine's
 * settings, the sandbox setting it was given (GRT-6), its spec and grants, its harness there.
 */
async function checkStart(
  ctx: AgentContext,
  agent: AgentSettings,
  options: StartAgentOptions,
): Promise<{ machine: Machine; checked: AgentSettings }> {
  if ((await secureAgentFolders(ctx.paths, agent)).length) {
    ctx.note?.(`Made the folders of agent "${agent.name}" yours alone: other users could read them`);
  }
  const machine = await loadMachine(ctx.paths);
  if (options.sandbox === false && !machine.unsandboxed) throw unsandboxedRefused(agent, "--no-sandbox");
  if (options.sandbox !== undefined && options.sandbox !== agent.sandbox.enabled) {
    agent = await updateSettings(
      ctx.paths,
      agent.id,
      (s) => ({ ...s, sandbox: { enabled: options.sandbox! } }),
    );
  }
  if (!agent.sandbox.enabled && !machine.unsandboxed) throw unsandboxedRefused(agent, "its setting");
  await loadAgentConfig(ctx.paths, agent);
  await checkHarnessPresent(ctx, agent);
  return { machine, checked: agent };
}

/**
 * `shared_bridge = true` (PRC-6): the agent goes on the one bridge every agent shares, started
 * when none runs; no bridge of its own. With --foreground it stays until the signal aborts,
 * starting the shared bridge again when it is gone (PRC-16).
 */
async function startShared(
  ctx: AgentContext,
  agent: AgentSettings,
  options: { foreground?: AbortSignal; lock: HeldLock },
): Promise<AgentStatus> {
  const { foreground } = options;
  try {
    agent = await startOnSharedBridge(ctx, agent, { moveBlock: (a, busy) => moveBlock(ctx, a, busy) });
    if (foreground) {
      ctx.note?.(
        `Agent "${agent.name}" runs on the shared bridge on port ${agent.ports.endpoint}; Ctrl-C stops it`,
      );
      // Started: a stop from another terminal may now take its turn.
      options.lock.release();
      await stayOnSharedBridge(ctx, agent, foreground);
    }
  } catch (err) {
    await unbindKey(ctx.paths, agent.id);
    throw err;
  }
  if (foreground) await unbindKey(ctx.paths, agent.id);
  return await agentStatus(ctx, agent);
}

/** Starts the bridge, moving the agent again if a port was taken in the moment after the check (PRT-4). */
async function startBridge(
  ctx: AgentContext,
  agent: AgentSettings,
  start: (service: ServiceDefinition) => Promise<unknown>,
): Promise<AgentSettings> {
  for (let attempt = 0;; attempt++) {
    try {
      await start(serviceFor(ctx, agent, "bridge"));
      return agent;
    } catch (err) {
      const taken = err instanceof LinkError && err.cause instanceof RoleExited &&
        err.cause.code === PORT_TAKEN_EXIT;
      if (!taken || attempt >= 3) throw err;
      agent = await moveBlock(ctx, agent, agent.ports.endpoint);
    }
  }
}

/**
 * `--foreground`: the bridge as a child of this process, with the agent as the bridge's child
 * (woken and put to sleep by it), both stopped when the signal aborts.
 */
async function runInForeground(
  ctx: AgentContext,
  agent: AgentSettings,
  signal: AbortSignal,
  lock: HeldLock,
): Promise<AgentStatus> {
  const children: RoleProcess[] = [];
  const spawn = async (service: ServiceDefinition) => {
    children.push(
      await spawnRole([...service.argv, "--foreground"], {
        raw: true,
        env: { ...service.env },
        clearEnv: true,
        stderr: "inherit",
      }),
    );
  };
  try {
    agent = await startBridge(ctx, agent, spawn);
    ctx.note?.(
      `Agent "${agent.name}" runs in the foreground on port ${agent.ports.endpoint}; Ctrl-C stops it`,
    );
    lock.release();
    const ended = children.map((c) => c.child.status);
    await Promise.race([new Promise((r) => signal.addEventListener("abort", r, { once: true })), ...ended]);
  } finally {
    for (const child of children.reverse()) await child.stop();
    await unbindKey(ctx.paths, agent.id);
  }
  return await agentStatus(ctx, agent);
}

/** A setup step's lines, shown as it prints them when a person watches a terminal. */
function setupProgress(
  ctx: AgentContext,
  agent: AgentSettings,
): ((step: SetupStep, line: string) => void) | undefined {
  if (!ctx.note || !Deno.stderr.isTerminal()) return undefined;
  return (step, line) => ctx.note?.(`${agent.harness} ${step}: ${line}`);
}

function unsandboxedRefused(agent: AgentSettings, how: string): LinkError {
  return new LinkError(
    "SANDBOX_REFUSED",
    `Cannot start agent "${agent.name}" without a sandbox (${how}): this machine refuses it`,
    {
      hint: "machine.toml says `unsandboxed = false`; run `lnk agent start --sandbox` to run it sandboxed",
    },
  );
}

async function checkHarnessPresent(ctx: AgentContext, agent: AgentSettings): Promise<void> {
  if (KNOWN[agent.harness]?.builtIn || (await findPlugin(agent.harness, ctx.env))) return;
  throw new LinkError(
    "HARNESS_MISSING",
    `Cannot start agent "${agent.name}": harness "${agent.harness}" is not installed`,
    {
      hint: `Install its adapter (lnk-${agent.harness} on the PATH), or make an agent on Link Harness ` +
        "with `lnk agent create <name> --harness link`",
    },
  );
}
