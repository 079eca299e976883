import { joinPath, sha256Hex } from "../../base/mod.ts";
import type { LeaseHolder } from "../store/mod.ts";
import { holderIsDead, sameHolder, thisHolder } from "./lease_holder.ts";

/**
 * Marks that a lease holder lives, beside an agent's conversations (`chats/.holders/`): each
 * process taking turns holds an flock(2) on a file named for it (its boot, PID namespace, pid and
 * start) while it lives. The kernel lets go when the process dies, however it dies (kill -9, out
 * of memory), so a mark another can lock belongs to a dead process. This tells a harness started
 * in a sandbox of its own (a PID namespace of its own, where the dead holder's pid says nothing)
 * that the lease of the harness before it is free to take without waiting out the lapse.
 */
export function markName(holder: LeaseHolder): string {
  return `${sha256Hex(`${holder.boot}\n${holder.pid}\n${holder.start}`).slice(0, 32)}.alive`;
}

interface Held {
  file: Deno.FsFile;
  count: number;
}

const held = new Map<string, Held>();

/**
 * A mark of a dead process untouched this long is cleared by the next harness to start: a lease
 * it took that long ago has long lapsed, or its turn ran for days. Clearing one too soon costs
 * only the wait of the lapse, never a second taker.
 */
export const CLEAR_DEAD_AFTER_MS = 7 * 86_400_000;

/** A mark this process holds until released; released by its last holder in this process. */
export interface HolderMark {
  /** Notes a lease taken now, so the mark is not cleared while that lease may still be live. */
  touch(nowMs: number): Promise<void>;
  release(): Promise<void>;
}

/**
 * Holds this process's mark in `dir`, made whole and locked before it appears under its name.
 * Marks there of processes that died and took no lease for CLEAR_DEAD_AFTER_MS are cleared on the
 * way; a newer one stays, for the taker of its lease.
 */
export async function holdMark(dir: string, nowMs: number): Promise<HolderMark> {
  const path = joinPath(dir, markName(thisHolder()));
  let entry = held.get(path);
  if (!entry) {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await clearDead(dir, nowMs);
    entry = { file: await lockedAt(path), count: 0 };
    held.set(path, entry);
  }
  entry.count++;
  let released = false;
  return {
    async touch(at: number) {
      const when = new Date(at);
      await Deno.utime(path, when, when).catch(() => {});
    },
    async release() {
      if (released) return;
      released = true;
      if (--entry.count > 0) return;
      held.delete(path);
      await Deno.remove(path).catch(() => {});
      entry.file.close();
    },
  };
}

/**
 * Whether a lease's holder is gone: by its pid where it is of this PID namespace, else by its mark
 * in `dir` when one is kept.
 */
export async function holderGone(holder: LeaseHolder, dir: string | undefined): Promise<boolean> {
  if (holderIsDead(holder)) return true;
  if (dir === undefined || sameHolder(holder, thisHolder())) return false;
  return (await markSaysDead(dir, holder)) === true;
}

/**
 * Whether `holder` is known dead by its mark in `dir`: true when its mark is there and no process
 * holds it; false when a process holds it; undefined when there is no
 * mark (a holder from before marks, or one that let go of its leases and left), so the caller
 * waits out the lapse as before.
 */
export async function markSaysDead(dir: string, holder: LeaseHolder): Promise<boolean | undefined> {
  const path = joinPath(dir, markName(holder));
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true, write: true });
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
  try {
    return await file.tryLock(true);
  } finally {
    file.close();
  }
}

/** Clears a dead holder's mark, once its lease is taken over. */
export async function clearMark(dir: string, holder: LeaseHolder): Promise<void> {
  await Deno.remove(joinPath(dir, markName(holder))).catch(() => {});
}

async function lockedAt(path: string): Promise<Deno.FsFile> {
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  const file = await Deno.open(tmp, { read: true, write: true, createNew: true, mode: 0o600 });
  try {
    await file.lock(true);
    await Deno.remove(path).catch(() => {});
    await Deno.link(tmp, path);
  } catch (err) {
    file.close();
    throw err;
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
  return file;
}

async function clearDead(dir: string, nowMs: number): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".alive")) continue;
    const path = joinPath(dir, entry.name);
    const touched = (await Deno.lstat(path).catch(() => undefined))?.mtime?.getTime();
    if (touched === undefined || touched > nowMs - CLEAR_DEAD_AFTER_MS) continue;
    const file = await Deno.open(path, { read: true, write: true }).catch(() => undefined);
    if (!file) continue;
    try {
      if (await file.tryLock(true)) await Deno.remove(path).catch(() => {});
    } finally {
      file.close();
    }
  }
}
