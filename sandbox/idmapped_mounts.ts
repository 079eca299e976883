import { LinkError } from "../core/base/mod.ts";
import { cPath, errno, libc } from "./libc.ts";
import { O_CLOEXEC, O_RDONLY } from "./passed_fds.ts";
import type { SandboxIdentity } from "../core/spec/mod.ts";

const NR = { openTree: 428n, moveMount: 429n, mountSetattr: 442n } as const;
const AT_FDCWD = -100;
const AT_EMPTY_PATH = 0x1000;
const OPEN_TREE_CLONE = 1;
const MOVE_MOUNT_F_EMPTY_PATH = 4;
const MNT_DETACH = 2;
const MOUNT_ATTR_NOSUID = 0x2;
const MOUNT_ATTR_NODEV = 0x4;
const MOUNT_ATTR_IDMAP = 0x100000;

/** Where staged mounts wait for bubblewrap to bind them: root's alone, emptied at each boot. */
const STAGE_ROOT = "/run/lnk/idmap";

const userNamespaces = new Map<number, Promise<number>>();
let swept = false;

/**
 * Idmapped copies of the folders a root-run sandbox binds (SBX-1): in each, what root owns is seen
 * as owned by the sandbox's own uid, and what that uid makes is written to the disk as root's. So
 * the program reads and writes its folders and grants as the person (root) would, runs as no uid
 * of theirs, and the person's files stay theirs (a Home that is a repository root runs git in stays
 * root's). Each copy is staged under /run/lnk/idmap for bubblewrap to bind, nosuid and nodev, and
 * unmounted when disposed. A file system that cannot be idmapped fails the start, naming the folder.
 */
export class IdmappedMounts implements Disposable {
  #dir: string;
  #nsFd: number;
  #staged: string[] = [];

  private constructor(dir: string, nsFd: number) {
    this.#dir = dir;
    this.#nsFd = nsFd;
  }

  /** Ready to stage folders for `identity`: its user namespace made (once a process) and a stage. */
  static async open(identity: SandboxIdentity): Promise<IdmappedMounts> {
    const nsFd = await userNamespace(identity);
    await Deno.mkdir(STAGE_ROOT, { recursive: true, mode: 0o700 });
    if (!swept) {
      swept = true;
      await sweepStale();
    }
    const dir = await Deno.makeTempDir({ dir: STAGE_ROOT, prefix: `${Deno.pid}-` });
    return new IdmappedMounts(dir, nsFd);
  }

  /**
   * Stages an idmapped copy of what `fd` holds open (a folder or file opened without following a
   * link, so what was checked) and returns the path to bind it from; `dest` names it in an error.
   */
  stage(fd: number, dest: string): string {
    const c = libc();
    const tree = Number(c.open_tree(NR.openTree, fd, cPath(""), OPEN_TREE_CLONE | AT_EMPTY_PATH | O_CLOEXEC));
    if (tree < 0) throw unmappable(dest, errno());
    try {
      const attr = new BigUint64Array([
        BigInt(MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV),
        0n,
        0n,
        BigInt(this.#nsFd),
      ]);
      const bytes = new Uint8Array(attr.buffer);
      if (c.mount_setattr(NR.mountSetattr, tree, cPath(""), AT_EMPTY_PATH, bytes, 32n) !== 0n) {
        throw unmappable(dest, errno());
      }
      const at = `${this.#dir}/${this.#staged.length}`;
      if (Deno.statSync(`/proc/self/fd/${tree}`).isDirectory) Deno.mkdirSync(at, { mode: 0o700 });
      else Deno.writeFileSync(at, new Uint8Array(), { mode: 0o600 });
      const moved = c.move_mount(NR.moveMount, tree, cPath(""), AT_FDCWD, cPath(at), MOVE_MOUNT_F_EMPTY_PATH);
      if (moved !== 0n) throw unmappable(dest, errno());
      this.#staged.push(at);
      return at;
    } finally {
      c.close(tree);
    }
  }

  /** Unmounts every staged copy (the sandbox holds its own binds of them) and removes the stage. */
  [Symbol.dispose](): void {
    for (const at of this.#staged.splice(0)) libc().umount2(cPath(at), MNT_DETACH);
    try {
      Deno.removeSync(this.#dir, { recursive: true });
    } catch { /* gone already */ }
  }
}

/**
 * A user namespace mapping uid and gid 0 to the sandbox's own, held by a descriptor: made by
 * util-linux's unshare, whose maps Link writes as root, then let go (the descriptor keeps it).
 */
function userNamespace(identity: SandboxIdentity): Promise<number> {
  let made = userNamespaces.get(identity.uid);
  if (!made) {
    made = makeUserNamespace(identity);
    userNamespaces.set(identity.uid, made);
    made.catch(() => userNamespaces.delete(identity.uid));
  }
  return made;
}

async function makeUserNamespace(identity: SandboxIdentity): Promise<number> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("unshare", {
      args: ["--user", "--", "/bin/sh", "-c", "echo made; exec cat"],
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
  } catch (err) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      "Cannot start a sandbox as root: util-linux's unshare is not there",
      {
        hint: "Install util-linux, then start again",
        cause: err,
      },
    );
  }
  try {
    const reader = child.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    child.stdout.cancel().catch(() => {});
    if (!value) throw new Error("unshare ended before its user namespace was made");
    await Deno.writeTextFile(`/proc/${child.pid}/uid_map`, `0 ${identity.uid} 1\n`);
    await Deno.writeTextFile(`/proc/${child.pid}/gid_map`, `0 ${identity.gid} 1\n`);
    const fd = libc().open(cPath(`/proc/${child.pid}/ns/user`), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw new Error(`cannot open its user namespace (errno ${errno()})`);
    return fd;
  } catch (err) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      `Cannot start a sandbox as root: no user namespace for uid ${identity.uid} could be made`,
      {
        hint: "Run Linux 5.12 or later with user namespaces on, or run lnk as an ordinary user",
        cause: err,
      },
    );
  } finally {
    await child.stdin.close().catch(() => {});
    await child.status;
  }
}

/** Unmounts and removes the stages of Link processes that are gone (killed before they could). */
async function sweepStale(): Promise<void> {
  for await (const entry of Deno.readDir(STAGE_ROOT)) {
    const pid = Number(entry.name.split("-")[0]);
    if (!Number.isInteger(pid) || pid === Deno.pid) continue;
    if (await Deno.stat(`/proc/${pid}`).then(() => true, () => false)) continue;
    const dir = `${STAGE_ROOT}/${entry.name}`;
    for await (const staged of Deno.readDir(dir)) libc().umount2(cPath(`${dir}/${staged.name}`), MNT_DETACH);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

function unmappable(src: string, code: number): LinkError {
  return new LinkError(
    "SANDBOX_UNAVAILABLE",
    `Cannot start the sandbox as root: "${src}" cannot be shown to its own uid (idmapped mount refused, errno ${code})`,
    {
      hint: "Keep the agent's folders and grants on a local file system (ext4, xfs, btrfs, tmpfs) of " +
        "Linux 5.12 or later, or run lnk as an ordinary user",
    },
  );
}
