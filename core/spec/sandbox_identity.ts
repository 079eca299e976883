/**
 * Who a sandboxed program is on the host when Link runs as root: never uid 0 (it would own root's
 * files and write /proc and /sys as root, capabilities or none), but an unprivileged uid Link
 * reserves for it, like systemd's DynamicUser. Each agent has one of its own, recorded so it is
 * never given again; its folders are given to it before its sandbox starts.
 */
export interface SandboxIdentity {
  readonly uid: number;
  readonly gid: number;
}

/**
 * The uids Link reserves: 0x78000000 and the 65,535 after it, above the ranges systemd and
 * container tools hand out (containers end at 0x6FFFFFFF) and far from people's own.
 */
export const SANDBOX_UIDS = { first: 0x78000000, count: 0x10000 } as const;

/** The uid of `lnk sandbox run` when run as root: the range's last, never an agent's. */
export const RUN_IDENTITY: SandboxIdentity = {
  uid: SANDBOX_UIDS.first + SANDBOX_UIDS.count - 1,
  gid: SANDBOX_UIDS.first + SANDBOX_UIDS.count - 1,
};

/** Whether a uid is one of Link's sandbox uids. */
export function isSandboxUid(uid: number): boolean {
  return uid >= SANDBOX_UIDS.first && uid < SANDBOX_UIDS.first + SANDBOX_UIDS.count;
}

/** Whether this process runs as root, so its sandboxes need an identity of their own. */
export function runsAsRoot(): boolean {
  return Deno.build.os === "linux" && Deno.uid() === 0;
}
