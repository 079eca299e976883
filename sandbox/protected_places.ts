import { guardRoot, type ProtectedPlace } from "./guard_scan.ts";
import { isWithin } from "./mount_list.ts";
import type { SandboxView } from "./open_view.ts";
import { IN_GIT, IN_HOME, IN_PLACES, SCAN_LIMITS } from "./protected_list.ts";
import { closeFd, walkNoFollow } from "./walk_no_follow.ts";

/** The protected places by name: where each list holds (protected_list.ts). */
export const PROTECTED_NAMES = {
  /** In every writable place and each repository in one; `.git` is pinned. */
  places: IN_PLACES.map((e) => e.name),
  /** In each repository's `.git`. */
  git: IN_GIT.map((e) => e.name),
  /** In the person's home folder, when a sandbox can write it. */
  home: IN_HOME.map((e) => e.name),
} as const;

/** What a sandbox keeps of its protected places now, as its next start would. */
export interface ProtectedNow {
  /** The writable places looked in. */
  readonly places: readonly string[];
  /** Each protected place there now (or stood in for while it runs), and what holds at it. */
  readonly kept: readonly ProtectedPlace[];
  /** Where the walk for repositories stopped short (its limits). */
  readonly notices: readonly string[];
}

/**
 * Looks, as a start would but making and mounting nothing, at the protected places of each
 * writable place a planned sandbox shows (`lnk agent show --permissions`). A link where a grant
 * or a protected place should be is refused as the start refuses it (SYMLINK_REFUSED).
 */
export function protectedNow(view: SandboxView): ProtectedNow {
  const places: string[] = [];
  const kept: ProtectedPlace[] = [];
  const notices: string[] = [];
  const dests = view.mounts.mounts.map((m) => m.dest);
  for (const mount of view.mounts.mounts) {
    if (mount.kind !== "rw" || !mount.guarded) continue;
    const root = walkNoFollow(mount.src, { writable: view.writable, what: `"${mount.dest}"` });
    if (root.fd === undefined) continue;
    try {
      const inner = dests.filter((d) => d !== root.real && isWithin(d, root.real));
      const found = guardRoot({ fd: root.fd, real: root.real }, {
        home: view.home,
        lifted: view.lifted,
        inner,
      });
      places.push(root.real);
      kept.push(...found.places);
      notices.push(
        ...found.notices,
        ...found.deeper.map((d) =>
          `Repositories deeper than ${SCAN_LIMITS.depth} folders in "${d}" are not looked for`
        ),
      );
    } finally {
      closeFd(root.fd);
    }
  }
  return { places, kept, notices };
}
