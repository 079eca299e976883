/**
 * The sandbox: an agent's grants (its sandbox file) and running programs under them in
 * bubblewrap, with their own user, PID, IPC, UTS and network namespaces, crossed only by relays
 * over unix sockets, under a system call filter and within limits of processes, memory and file size.
 * @module
 */
/** The sandbox file's schema, its reader and the defaults a new agent gets. */
export { DEFAULT_SANDBOX_TOML, parseSandboxSpec, SandboxSpec } from "../core/spec/mod.ts";
/** Plans a sandbox: bubblewrap's command line and environment from a spec, purely. */
export {
  type AlsoAgent,
  planSandbox,
  type RuntimePaths,
  type SandboxInput,
  type SandboxPlan,
} from "./plan_sandbox.ts";
/** The agent whose folders a sandbox shows, and how ([files] held, or all of Home). */
export { type FoldersMode, type SandboxAgent, VISIBLE_COLLECTIONS } from "./files_mounts.ts";
/** Looks at this machine (bubblewrap, real paths, Link's runtime) to make planSandbox's input. */
export { linkRuntime, resolveSandboxInput, type SandboxRequest } from "./resolve_sandbox.ts";
/** What a sandbox sees of the system, and this machine's layout of it. */
export { ETC_ENTRIES, SYSTEM_SECRETS, type SystemView } from "./system_view.ts";
/** Finds bubblewrap and checks it can keep user namespaces out. */
export { MIN_BWRAP, probeSystem } from "./probe_system.ts";
/** What no sandbox ever sees, and "~" expansion. */
export { expandHome, hiddenPaths } from "./hidden_paths.ts";
/** Starts a planned sandbox from a clean environment with no inherited descriptors. */
export {
  runSandboxed,
  type RunSandboxedOptions,
  type SandboxProcess,
  type SandboxStdin,
  type SandboxStdout,
} from "./run_sandboxed.ts";
/** A sandbox's [limits]: sizes as written and read. */
export { formatSize, Limits } from "../core/spec/mod.ts";
/** How each limit of a running sandbox holds: a cgroup, a user's systemd scope, or an rlimit. */
export { type HeldLimit, type HeldLimits, type LimitHolder } from "./hold_limits.ts";
/** The cgroup bounds the kernel holds a running sandbox to, whoever set them. */
export { type ObservedLimits, observeLimits } from "./observe_limits.ts";
/** Tries to make a device node, as `lnk agent harness check` does from inside to see it refused. */
export { makeNode } from "./make_node.ts";
/** A grant the sandbox cannot enforce, refused naming its file and line. */
export { specRefusal, type SpecSource } from "./spec_refusal.ts";
/** Relays across the sandbox's edge: TCP inside to unix sockets, and back. */
export { MAX_SOCKET_PATH, parseRelayArgs, relayArgs, type RelayRule } from "./relay_rule.ts";
/** Serves one relay until disposed. */
export { type Relay, serveRelay } from "./relay.ts";
/** The `lnk sandbox relay` role: relays inside a sandbox, then the command (Link's own role in-process). */
export { type LinkRole, type RelayRoleOptions, runRelayRole } from "./run_relay_role.ts";
/** The effect of grant flags on a spec. */
export { applyGrants, type GrantResult } from "./apply_grants.ts";
/** The grant flags shared by `lnk sandbox run` and `lnk agent allow`/`deny`. */
export { GRANT_FLAGS, GRANT_USAGE, type GrantFlags, grantFlagsFrom } from "./grant_flags.ts";
/** Rewrites only the changed keys of a sandbox file, keeping its comments. */
export { editSandboxToml, type SandboxTomlChange, type TomlValue } from "./edit_sandbox_toml.ts";
/** Whether bubblewrap can make user namespaces here (Ubuntu's AppArmor rule), and the profile offered. */
export {
  BWRAP_PROFILE_PATH,
  bwrapProfile,
  checkUserNamespaces,
  offerBwrapProfile,
  type ProfileConsent,
  requireUserNamespaces,
  runWithInput,
  type UserNamespaces,
} from "./user_namespaces.ts";
/** `lnk sandbox run`: one program under a spec, with its own proxy and relays. */
export { sandboxRun, type SandboxRunOptions } from "./sandbox_run.ts";
/** A sandbox's way out: its proxy (reached inside at 127.0.0.1:3128) and ports relayed in. */
export {
  INSIDE_PROXY_PORT,
  INSIDE_TOOL_PROXY_PORT,
  type ProxyUpstream,
  type SandboxProxy,
  type SandboxProxyOptions,
  startSandboxProxy,
  wantsProxy,
} from "./sandbox_proxy.ts";
export { portRelayRules, relayPortsIn } from "./port_relays.ts";
/** Protected places, kept read-only wherever a sandbox writes: their names, and what holds now. */
export { PROTECTED_NAMES, type ProtectedNow, protectedNow } from "./protected_places.ts";
export { type ProtectedPlace } from "./guard_scan.ts";
/** Marks inherited descriptors close-on-exec so no sandbox gets them. */
export { closeInheritedFds } from "./inherited_fds.ts";
/** Starts programs that cannot write some folders this process writes (Landlock), such as run's commands. */
export { ConfinedSpawner, type ConfinedSpawnOptions, type SpawnedChild } from "./confined_spawner.ts";
/** A sandboxed program's lines, logged by Link as the program's own. */
export { type OutputFields, ProgramOutput } from "./program_output.ts";
/** Opening and walking folders by descriptor without following a link (LAY-9), for copies an agent may race. */
export {
  closeFd,
  type EntryType,
  fdPath,
  type FdStat,
  openEntry,
  statFd,
  symlinkRefusal,
  type Walked,
  walkNoFollow,
  type WalkOptions,
} from "./walk_no_follow.ts";
/** A rename within one open folder that never replaces what is there. */
export { renameNoReplace } from "./rename_at.ts";
