import { join } from "node:path";
import { LinkError, type LinkPaths, roleArgv } from "../core/base/mod.ts";
import type { Limits, SandboxSpec } from "../core/spec/mod.ts";
import { specRefusal, type SpecSource } from "./spec_refusal.ts";
import { isWithin, LAYER, MountList } from "./mount_list.ts";
import { ETC_ENTRIES, type SystemView } from "./system_view.ts";
import { expandHome, hiddenPaths } from "./hidden_paths.ts";
import { addFilesMounts, type FoldersMode, type SandboxAgent } from "./files_mounts.ts";
import { addPathMounts, addTeamMounts, type GrantContext } from "./grant_mounts.ts";
import { relayArgs, type RelayRule } from "./relay_rule.ts";
import type { SandboxIdentity } from "../core/spec/mod.ts";
import type { SandboxView } from "./open_view.ts";
import { writableRoots } from "./writable_roots.ts";

/** Where Deno and Link's source are, so Link's own roles run inside (read-only). */
export interface RuntimePaths {
  readonly deno: string;
  /** The checkout, when running from source. */
  readonly checkout?: string;
  /** Deno's cache, when running from source: read-only, so no sandbox writes a shared cache (SBX-5). */
  readonly denoDir?: string;
  /**
   * The npm registry Deno's cache was filled from, when one is set (NPM_CONFIG_REGISTRY): Deno keeps
   * each registry's packages in a folder of its own, so a role inside must name the same one.
   */
  readonly npmRegistry?: string;
}

/** Everything a sandbox is made from; paths are real (resolveSandboxInput makes them so). */
export interface SandboxInput {
  readonly spec: SandboxSpec;
  /** The spec's file and text, so a refusal names its line. */
  readonly source?: SpecSource;
  readonly paths: LinkPaths;
  readonly agent?: SandboxAgent;
  readonly folders?: FoldersMode;
  /** The harness itself writes Agent/chats (Link Harness); its tools never do (LAY-7). */
  readonly harnessWritesChats?: boolean;
  /** The harness keeps the agent's notes in Agent/memory (Link Harness); hidden otherwise. */
  readonly harnessWritesNotes?: boolean;
  /** The harness's own home: writable, its HOME, and where it starts unless `cwd` says. */
  readonly harnessHome: string;
  /** The folder of unix sockets crossing the sandbox (`~/.lnk/agents/.net/<id>`). */
  readonly netDir?: string;
  /**
   * Folders Link itself shows read-only at the same path, hidden places or not: an outside
   * harness's install folder, `~/.lnk/installs/<harness>` (no grant reaches there).
   */
  readonly readOnly?: readonly string[];
  readonly command: readonly string[];
  readonly cwd?: string;
  /** The variables Link chooses for the program (proxy variables among them); nothing else is passed. */
  readonly env?: Readonly<Record<string, string>>;
  readonly system: SystemView;
  /**
   * The unprivileged uid and gid the program runs as when Link runs as root (system.root): the
   * agent's own (SBX-1). Required then; unused otherwise, where the program is the person.
   */
  readonly identity?: SandboxIdentity;
  readonly runtime?: RuntimePaths;
  /** Real locations of grant paths and hidden paths, where they differ. */
  readonly realPaths?: Readonly<Record<string, string>>;
  /** Places other sandboxes of this machine's agents can write (their write grants), as real paths. */
  readonly writable?: readonly string[];
  /** Each team's shared folder (TEAM-11). */
  readonly teams?: Readonly<Record<string, string>>;
  /** More to hide: Homes and team folders kept outside ~/Link. */
  readonly hide?: readonly string[];
  /** Relays to start inside before the command; they run it (see runRelayRole). */
  readonly relays?: readonly RelayRule[];
  /** The command line of the relay role; `lnk sandbox relay` unless told. */
  readonly launcher?: readonly string[];
  readonly tmpSize?: number;
  readonly shmSize?: number;
  /**
   * More agents of the same owner this sandbox holds (a shared harness, PRC-2): each one's folders
   * per its own [files] and its socket folder, as for `agent`. Their grants must add nothing else
   * (no [paths], [teams], [localhost] or [lan]): such an agent keeps a sandbox of its own (PRC-3).
   */
  readonly also?: readonly AlsoAgent[];
}

/** One more agent of a shared sandbox (SandboxInput.also). */
export interface AlsoAgent {
  readonly spec: SandboxSpec;
  readonly source?: SpecSource;
  readonly agent: SandboxAgent;
  readonly netDir: string;
}

/** A sandbox ready to start: bubblewrap's command line and the only environment it gets. */
export interface SandboxPlan {
  readonly argv: readonly string[];
  /** bwrap starts with exactly these; it and everything inside see nothing else. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Folders to make before the start: the harness's own, the Agent/ folders it writes, places
   * hidden under a grant, and folders of Home that [files] names. Never one of Agent/'s in Home.
   */
  readonly ensureDirs: readonly string[];
  /** Things to tell the person, such as [files] holding only for Link's tools (LAY-8). */
  readonly notices: readonly string[];
  /**
   * As root: the sandbox's own uid, and the sources bound from the host that it is shown through
   * idmapped copies (root's files seen as its own: the agent's folders, its grants, its sockets).
   */
  readonly owner?: SandboxIdentity;
  readonly idmapped: readonly string[];
  /** What each start checks and opens by descriptor (runSandboxed swaps `argv`'s mounts for it). */
  readonly view: SandboxView;
  /** What everything inside may use together ([limits]), put in place by runSandboxed. */
  readonly limits: Limits;
}

const MIB = 1024 * 1024;

/**
 * Plans a sandbox (SBX-1, SBX-7, SBX-21, GRT-5, LAY-5..8): what it sees, read-only or writable,
 * what stays hidden, its namespaces and its environment. Pure: the same input gives the same plan.
 * A grant this sandbox cannot enforce is refused with SANDBOX_REFUSED naming its line.
 */
export function planSandbox(input: SandboxInput): SandboxPlan {
  refuseUnenforceable(input.spec, input.source);
  const real = (p: string) => input.realPaths?.[p] ?? p;
  const list = new MountList();
  addSystemMounts(list, input.system);
  const hidden = hiddenPaths(input.paths, input.hide).map(real);
  const ctx: GrantContext = {
    home: input.paths.home,
    hidden,
    real,
    teams: input.teams ?? {},
    source: input.source,
  };
  addPathMounts(list, input.spec, ctx);
  const notices: string[] = [];
  const ensure: string[] = [input.harnessHome];
  // Each agent's folders per its own [files], the same way (its Home and Agent/ collections).
  const addAgent = (spec: SandboxSpec, agent: SandboxAgent, source?: SpecSource) =>
    ensure.push(...addFilesMounts(list, spec, agent, {
      mode: input.folders ?? "layout",
      harnessWritesChats: input.harnessWritesChats ?? false,
      harnessWritesNotes: input.harnessWritesNotes ?? false,
      source,
      notices,
    }));
  if (input.agent) addAgent(input.spec, input.agent, input.source);
  for (const also of input.also ?? []) {
    addAgent(also.spec, also.agent, also.source);
    list.add(LAYER.own, { kind: "rw", src: also.netDir, dest: also.netDir });
    ensure.push(also.netDir);
  }
  addTeamMounts(list, input.spec, ctx);
  addRuntimeMounts(list, input.runtime);
  for (const folder of input.readOnly ?? []) list.add(LAYER.own, { kind: "ro", src: folder, dest: folder });
  list.add(LAYER.own, { kind: "rw", src: input.harnessHome, dest: input.harnessHome });
  if (input.netDir) {
    list.add(LAYER.own, { kind: "rw", src: input.netDir, dest: input.netDir });
    ensure.push(input.netDir);
  }
  // As root, bubblewrap makes its tmpfs root's: the sandbox's own uid writes /tmp as anyone would.
  const temp = input.system.root ? 0o1777 : undefined;
  list.add(LAYER.private, { kind: "tmpfs", dest: "/tmp", size: input.tmpSize ?? 256 * MIB, perms: temp });
  list.add(LAYER.private, { kind: "tmpfs", dest: "/dev/shm", size: input.shmSize ?? 64 * MIB, perms: temp });
  ensure.push(...hideCovered(list, hidden, input.system));
  const host = input.spec.network.mode === "host";
  const owner = ownIdentity(input);
  list.traversable = owner !== undefined;
  return {
    argv: [
      input.system.bwrap,
      ...(owner ? [] : ["--unshare-user"]),
      ...["--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"],
      ...(host ? [] : ["--unshare-net"]),
      // Without a user namespace of its own (as root) the seccomp filter keeps new ones out.
      ...(owner ? [] : ["--disable-userns"]),
      ...["--die-with-parent", "--new-session", "--cap-drop", "ALL"],
      // setpriv needs these for a moment, to become the sandbox's uid; it drops them all then.
      ...(owner ? ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"] : []),
      ...["--hostname", "lnk-sandbox"],
      ...list.args(),
      // As root, bubblewrap (uid 0 with no capabilities) may not enter the uid's own folders: the
      // program goes there itself, once it is that uid.
      ...["--chdir", owner ? "/" : input.cwd ?? input.harnessHome],
      "--",
      ...(owner ? dropTo(owner, input.system, input.cwd ?? input.harnessHome) : []),
      ...commandLine(input),
    ],
    env: sandboxEnv(input),
    ensureDirs: [...new Set(ensure)],
    notices,
    owner,
    idmapped: owner ? list.sources([LAYER.grant, LAYER.runtime, LAYER.agent, LAYER.team, LAYER.own]) : [],
    view: {
      mounts: list,
      writable: writableRoots(input),
      hidden,
      home: real(input.paths.home),
      lifted: [input.spec, ...(input.also ?? []).map((a) => a.spec)]
        .flatMap((s) => s.protected.writable.map((p) => real(expandHome(p, input.paths.home)))),
      records: join(input.paths.run, "placeholders"),
    },
    limits: input.spec.limits,
  };
}

/** The identity a root-run sandbox runs as; refused when missing or root's own (SBX-1). */
function ownIdentity(input: SandboxInput): SandboxIdentity | undefined {
  if (!input.system.root) return undefined;
  const id = input.identity;
  if (!id || id.uid === 0 || id.gid === 0) {
    throw new LinkError(
      "SANDBOX_REFUSED",
      "Cannot start the sandbox: Link runs as root and no unprivileged uid of its own was given to it",
      {
        hint: "Start it through `lnk agent start` or `lnk sandbox run`, which give each sandbox its own uid",
      },
    );
  }
  return id;
}

/**
 * setpriv's words making the program the sandbox's uid, with no capability left to gain, then
 * env's going to its folder as that uid.
 */
function dropTo(owner: SandboxIdentity, system: SystemView, cwd: string): string[] {
  return [
    system.setpriv ?? "setpriv",
    `--reuid=${owner.uid}`,
    `--regid=${owner.gid}`,
    "--clear-groups",
    "--bounding-set=-all",
    "--inh-caps=-all",
    "--no-new-privs",
    "--",
    "/usr/bin/env",
    "-C",
    cwd,
    "--",
  ];
}

/** [commands] lists are not enforceable by bubblewrap alone: refused, never silently open (SBX-20). */
function refuseUnenforceable(spec: SandboxSpec, source?: SpecSource): void {
  if (!spec.commands.allow.includes("*")) {
    throw specRefusal(
      source,
      ["commands", "allow"],
      "a list of programs cannot be enforced by this sandbox (bubblewrap keeps no list of programs)",
      'Allow every program (`lnk agent allow --command "*"`), then start again',
    );
  }
}

function addSystemMounts(list: MountList, system: SystemView): void {
  list.add(LAYER.system, { kind: "ro", src: "/usr", dest: "/usr" });
  for (const top of system.top) {
    if (top.kind === "symlink") {
      list.add(LAYER.system, { kind: "symlink", target: top.target, dest: top.path });
    } else list.add(LAYER.system, { kind: "ro", src: top.path, dest: top.path });
  }
  for (const path of ETC_ENTRIES) {
    list.add(LAYER.system, { kind: "ro", src: path, dest: path, optional: true });
  }
  list.add(LAYER.private, { kind: "proc", dest: "/proc" });
  // Kernel settings are read-only whoever runs the sandbox (a write to core_pattern is root's code).
  list.add(LAYER.private, { kind: "ro", src: "/proc/sys", dest: "/proc/sys" });
  list.add(LAYER.private, { kind: "dev", dest: "/dev" });
}

function addRuntimeMounts(list: MountList, runtime?: RuntimePaths): void {
  if (!runtime) return;
  list.add(LAYER.runtime, { kind: "ro", src: runtime.deno, dest: runtime.deno });
  if (runtime.checkout) {
    list.add(LAYER.runtime, { kind: "ro", src: runtime.checkout, dest: runtime.checkout });
  }
  if (runtime.denoDir) {
    list.add(LAYER.runtime, { kind: "ro", src: runtime.denoDir, dest: runtime.denoDir, optional: true });
  }
}

/** Hides each hidden place that a wider mount shows; returns those to make first. */
function hideCovered(list: MountList, hidden: readonly string[], system: SystemView): string[] {
  const binds = list.mounts.filter((m) => m.kind === "ro" || m.kind === "rw");
  const covered = (path: string) => binds.some((m) => m.dest !== path && isWithin(path, m.dest));
  const ensure: string[] = [];
  for (const path of hidden) {
    if (!covered(path)) continue;
    list.add(LAYER.hide, { kind: "hide", dest: path, folder: true });
    ensure.push(path);
  }
  for (const secret of system.secrets) {
    if (covered(secret.path)) {
      list.add(LAYER.hide, { kind: "hide", dest: secret.path, folder: secret.folder });
    }
  }
  return ensure;
}

function commandLine(input: SandboxInput): string[] {
  if (input.command.length === 0) {
    throw new LinkError("USAGE", "Cannot start the sandbox: no command was given", {
      hint: "Give the command after `--`, such as `lnk sandbox run -- /bin/sh`",
    });
  }
  // Link's launcher starts every program, relays or none: from a Landlock domain of its own, so the
  // program reaches no process outside it (the launcher, bubblewrap's pid 1) by ptrace or signal.
  const launcher = input.launcher ?? roleArgv(["sandbox", "relay"]);
  return [...launcher, ...relayArgs(input.relays ?? []), "--", ...input.command];
}

function sandboxEnv(input: SandboxInput): Record<string, string> {
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
    HOME: input.harnessHome,
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    ...(input.runtime?.denoDir ? { DENO_DIR: input.runtime.denoDir, DENO_NO_UPDATE_CHECK: "1" } : {}),
    ...(input.runtime?.npmRegistry ? { NPM_CONFIG_REGISTRY: input.runtime.npmRegistry } : {}),
    ...input.env,
  };
  for (const [name, value] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || value.includes("\0")) {
      throw new LinkError(
        "SANDBOX_REFUSED",
        `Cannot start the sandbox: the variable "${name}" cannot be passed`,
        {
          hint: "Pass variables with plain names and values without NUL",
        },
      );
    }
  }
  return env;
}
