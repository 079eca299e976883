/** One mount in a sandbox's view of the file system. */
export type Mount =
  | { kind: "ro" | "rw"; src: string; dest: string; optional?: boolean }
  | { kind: "hide"; dest: string; folder: boolean }
  | { kind: "tmpfs"; dest: string; size: number; perms?: number }
  | { kind: "symlink"; target: string; dest: string }
  | { kind: "proc" | "dev"; dest: string }
  | { kind: "dir"; dest: string; perms: number };

/**
 * Who a mount is for; at one path the later layer wins. System first, then what the spec grants,
 * then what Link hides again, then what Link itself needs (the runtime, the agent's folders, the
 * harness's home and its sockets), then the sandbox's own /proc, /dev and /tmp.
 */
export const LAYER = {
  system: 0,
  grant: 1,
  hide: 2,
  runtime: 3,
  agent: 4,
  team: 5,
  own: 6,
  private: 7,
} as const;
export type Layer = (typeof LAYER)[keyof typeof LAYER];

const HIDE_SIZE = 64 * 1024;

/**
 * Mounts in the order bubblewrap must make them: by depth, so a folder's mount comes before the
 * mounts inside it, and at one path by layer. Hidden folders are empty tmpfs made read-only last,
 * once the mounts inside them are made; hidden files are /dev/null.
 */
export class MountList {
  #mounts: { mount: Mount; layer: Layer; seq: number }[] = [];

  add(layer: Layer, mount: Mount): void {
    this.#mounts.push({ mount, layer, seq: this.#mounts.length });
  }

  /** Every mount so far, in the order they were added. */
  get mounts(): readonly Mount[] {
    return this.#mounts.map((m) => m.mount);
  }

  /** The sources of the folders and files bound from the host by these layers. */
  sources(layers: readonly Layer[]): string[] {
    return [
      ...new Set(
        this.#mounts.flatMap(({ mount, layer }) =>
          (mount.kind === "ro" || mount.kind === "rw") && layers.includes(layer) ? [mount.src] : []
        ),
      ),
    ];
  }

  /**
   * The bubblewrap arguments making this view. With `traversable`, every folder bubblewrap would
   * make on the way to a mount in its own tmpfs (not in a folder bound from the host) is made
   * first, 0755: bubblewrap makes them 0700 root's, which a root-run sandbox's own uid could not
   * pass through to reach its folders under /root.
   */
  args(options: { traversable?: boolean } = {}): string[] {
    const all = options.traversable ? [...this.#mounts, ...this.#ways()] : this.#mounts;
    const sorted = [...all].sort((a, b) =>
      depth(a.mount.dest) - depth(b.mount.dest) || a.layer - b.layer || a.seq - b.seq
    );
    const args: string[] = [];
    const readOnlyLater: string[] = [];
    for (const { mount } of sorted) {
      args.push(...mountArgs(mount));
      if (mount.kind === "hide" && mount.folder) readOnlyLater.push(mount.dest);
      if (mount.kind === "dev") readOnlyLater.push(mount.dest);
    }
    for (const dest of readOnlyLater) args.push("--remount-ro", dest);
    // The sandbox's root is bubblewrap's own tmpfs, writable and unsized unless made read-only.
    args.push("--remount-ro", "/");
    return args;
  }

  /** The folders on the way to each mount that bubblewrap would make in a tmpfs of its own. */
  #ways(): { mount: Mount; layer: Layer; seq: number }[] {
    const mounts = this.#mounts.map((m) => m.mount);
    const dests = new Set(mounts.map((m) => m.dest));
    // A folder is bubblewrap's to make when the innermost mount holding it is a tmpfs (or none).
    const innermost = (path: string) =>
      mounts.filter((m) => isWithin(path, m.dest)).sort((a, b) => depth(b.dest) - depth(a.dest))[0];
    const ways = new Set<string>();
    for (const { dest } of mounts) {
      for (let at = parentOf(dest); at !== "/"; at = parentOf(at)) {
        const holder = innermost(at);
        if (dests.has(at) || holder?.kind === "ro" || holder?.kind === "rw") continue;
        ways.add(at);
      }
    }
    return [...ways].map((dest, i) => ({
      mount: { kind: "dir", dest, perms: 0o755 },
      layer: LAYER.system,
      seq: -1 - i,
    }));
  }
}

function parentOf(path: string): string {
  const at = path.lastIndexOf("/");
  return at <= 0 ? "/" : path.slice(0, at);
}

function mountArgs(mount: Mount): string[] {
  switch (mount.kind) {
    case "ro":
      return [mount.optional ? "--ro-bind-try" : "--ro-bind", mount.src, mount.dest];
    case "rw":
      return [mount.optional ? "--bind-try" : "--bind", mount.src, mount.dest];
    case "hide":
      return mount.folder
        ? ["--size", String(HIDE_SIZE), "--tmpfs", mount.dest]
        : ["--ro-bind", "/dev/null", mount.dest];
    case "tmpfs":
      return [...perms(mount.perms), "--size", String(mount.size), "--tmpfs", mount.dest];
    case "symlink":
      return ["--symlink", mount.target, mount.dest];
    case "proc":
      return ["--proc", mount.dest];
    case "dev":
      return ["--dev", mount.dest];
    case "dir":
      return [...perms(mount.perms), "--dir", mount.dest];
  }
}

function perms(mode: number | undefined): string[] {
  return mode === undefined ? [] : ["--perms", mode.toString(8).padStart(4, "0")];
}

/** How many names deep a path is: "/" is 0, "/usr" is 1. */
export function depth(path: string): number {
  return path.split("/").filter(Boolean).length;
}

/** Whether `path` is `folder` or inside it. */
export function isWithin(path: string, folder: string): boolean {
  if (folder === "/") return path.startsWith("/");
  return path === folder || path.startsWith(`${folder}/`);
}
