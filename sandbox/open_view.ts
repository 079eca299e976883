import { join } from "node:path";
import { LinkError, logger } from "../core/base/mod.ts";
import { type GuardMount, type GuardRoot, guardRoot } from "./guard_scan.ts";
import { type BindMount, depth, isWithin, LAYER, type Mount, type MountList } from "./mount_list.ts";
import type { PassedFds } from "./passed_fds.ts";
import type { IdmappedMounts } from "./idmapped_mounts.ts";
import { Placeholders } from "./placeholders.ts";
import { closeFd, walkNoFollow } from "./walk_no_follow.ts";

const log = logger("sandbox");

/** What a start needs to make a planned view by descriptor (planSandbox makes it). */
export interface SandboxView {
  /** The planned mounts, by real path. */
  readonly mounts: MountList;
  /** Real paths some sandbox of this machine's agents can write: a link in one is never followed. */
  readonly writable: readonly string[];
  /** What Link hides, as real paths: no grant may lead into it. */
  readonly hidden: readonly string[];
  /** The person's home folder, real path. */
  readonly home: string;
  /** Protected places the owner lifted ([protected] writable), real paths. */
  readonly lifted: readonly string[];
  /** Where stand-ins for missing protected places are recorded. */
  readonly records: string;
}

/** A view made for one start: bubblewrap's command line by descriptor, and what to undo at its end. */
export interface OpenedView {
  readonly argv: string[];
  /** Removes the stand-ins this start made that no other running sandbox holds. */
  release(): void;
}

/**
 * Makes a planned view for one start, synchronously, between closeInheritedFds() and the spawn:
 * the folders to make, made part by part without following a link an agent could have made; each
 * bind's source opened the same way and handed to bubblewrap by descriptor (`--bind-fd`), so what
 * was checked is what is mounted (bubblewrap refuses a swap between its own look and the mount);
 * and in each writable place, its protected places kept (guard_scan.ts), with the folders above
 * each hidden place a writable mount covers bound onto themselves, so none is renamed away.
 */
export function openView(
  plan: {
    readonly argv: readonly string[];
    readonly ensureDirs: readonly string[];
    readonly view: SandboxView;
    readonly idmapped?: readonly string[];
  },
  fds: PassedFds,
  idmapped?: IdmappedMounts,
): OpenedView {
  const { view } = plan;
  const placeholders = new Placeholders(view.records);
  placeholders.begin();
  const opened: number[] = [];
  try {
    for (const dir of plan.ensureDirs) {
      const made = walkNoFollow(dir, { writable: view.writable, what: `the folder "${dir}"`, make: 0o700 });
      if (made.fd !== undefined) closeFd(made.fd);
    }
    const binds = openBinds(view, opened);
    const guards: GuardMount[] = [];
    const dests = view.mounts.mounts.map((m) => m.dest);
    for (const [mount, root] of binds) {
      if (mount.kind !== "rw" || !mount.guarded) continue;
      const inner = dests.filter((d) => d !== root.real && isWithin(d, root.real));
      const found = guardRoot(root, { home: view.home, lifted: view.lifted, inner, placeholders });
      guards.push(...found.mounts);
      opened.push(...found.mounts.map((m) => m.fd));
      for (const notice of found.notices) log.warn(notice);
    }
    guards.push(...pinHidden(view, binds, new Set([...dests, ...guards.map((g) => g.dest)]), opened));
    // As root, what the agent reaches is an idmapped copy of what was opened (root's files seen as
    // its uid's), staged where only root goes: the same descriptor, so still what was checked.
    const mapped = new Set(plan.idmapped ?? []);
    const bind = (access: "ro" | "rw", fd: number, dest: string, idmap: boolean): Mount =>
      idmap && idmapped
        ? { kind: access, src: idmapped.stage(fd, dest), dest }
        : { kind: access === "ro" ? "ro-fd" : "rw-fd", fd: fds.dup(fd), dest };
    const list = view.mounts.map((m) => {
      if (m.kind !== "ro" && m.kind !== "rw") return m;
      const root = binds.get(m);
      return root && bind(m.kind, root.fd, m.dest, mapped.has(m.src));
    });
    for (const g of guards) list.add(LAYER.guard, bind(g.access === "ro" ? "ro" : "rw", g.fd, g.dest, true));
    const argv = replaced(plan.argv, view.mounts.args(), list.args());
    placeholders.save();
    return { argv, release: () => placeholders.release() };
  } catch (err) {
    placeholders.release();
    throw err;
  } finally {
    for (const fd of opened) closeFd(fd);
  }
}

/** Opens each bind's source without following a link an agent could have made; a missing optional one is left out. */
function openBinds(view: SandboxView, opened: number[]): Map<Mount, GuardRoot> {
  const binds = new Map<Mount, GuardRoot>();
  for (const mount of view.mounts.mounts) {
    if (mount.kind !== "ro" && mount.kind !== "rw") continue;
    const found = walkNoFollow(mount.src, { writable: view.writable, what: `"${mount.dest}"` });
    if (found.fd === undefined) {
      if (mount.optional) continue;
      throw new LinkError("SANDBOX_REFUSED", `Cannot start the sandbox: "${mount.src}" is not there`, {
        hint: "Make it, or take away the grant that names it, then start again",
      });
    }
    opened.push(found.fd);
    checkBind(mount, found.real, view);
    binds.set(mount, { fd: found.fd, real: found.real });
  }
  return binds;
}

function checkBind(mount: BindMount, real: string, view: SandboxView): void {
  if (mount.check === undefined) return;
  const hidden = mount.check === "grant" ? view.hidden.find((h) => isWithin(real, h)) : undefined;
  if (hidden !== undefined) {
    throw new LinkError(
      "SANDBOX_REFUSED",
      `Cannot start the sandbox: "${mount.src}" now leads into "${hidden}", which Link hides from every sandbox`,
    );
  }
  if (real !== mount.src) {
    throw new LinkError(
      "SANDBOX_REFUSED",
      `Cannot start the sandbox: "${mount.src}" now leads to "${real}", not where it led when the start was planned`,
      { hint: "Stop and start the agent again, so its sandbox is planned from how things are now" },
    );
  }
}

/**
 * Binds onto itself each folder between a writable mount and a hidden place inside it (a write
 * grant on ~ shows ~/Link, above the hidden ~/Link/Agents): a folder that is a mount point cannot
 * be renamed, so the agent never moves a hidden place out from under what hides it.
 */
function pinHidden(
  view: SandboxView,
  binds: Map<Mount, GuardRoot>,
  mounted: Set<string>,
  opened: number[],
): GuardMount[] {
  const pins = new Map<string, GuardMount>();
  for (const hide of view.mounts.mounts) {
    if (hide.kind !== "hide") continue;
    let holder: [Mount, GuardRoot] | undefined;
    for (const bind of binds) {
      if (bind[0].dest !== hide.dest && isWithin(hide.dest, bind[0].dest)) {
        if (!holder || depth(bind[0].dest) > depth(holder[0].dest)) holder = bind;
      }
    }
    if (!holder || holder[0].kind !== "rw") continue;
    const [mount, root] = holder;
    const rest = hide.dest.slice(mount.dest.length + 1).split("/").slice(0, -1);
    for (let n = 1; n <= rest.length; n++) {
      const dest = join(mount.dest, ...rest.slice(0, n));
      if (mounted.has(dest) || pins.has(dest)) continue;
      const found = walkNoFollow(rest.slice(0, n).join("/"), {
        writable: ["/"],
        what: `"${hide.dest}", which Link hides`,
        from: { fd: root.fd, path: root.real },
      });
      if (found.fd === undefined) break;
      opened.push(found.fd);
      pins.set(dest, { dest, fd: found.fd, access: "pin" });
    }
  }
  return [...pins.values()];
}

/** `argv` with the planned mounts' arguments (one run of them) swapped for the opened ones. */
function replaced(argv: readonly string[], planned: readonly string[], opened: readonly string[]): string[] {
  for (let at = 0; at + planned.length <= argv.length; at++) {
    if (planned.every((a, i) => argv[at + i] === a)) {
      return [...argv.slice(0, at), ...opened, ...argv.slice(at + planned.length)];
    }
  }
  throw new LinkError(
    "INTERNAL",
    "Cannot start the sandbox: its command line does not hold its planned mounts",
  );
}
