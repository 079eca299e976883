import type { LeaseHolder } from "../store/mod.ts";

let own: LeaseHolder | undefined;

/**
 * This process as a lease holder (U-13): the machine's boot (and PID namespace), the pid, and the process's start
 * (its start time in clock ticks since boot, from /proc), so a pid reused after a crash is told
 * apart from the process that took the lease.
 */
export function thisHolder(): LeaseHolder {
  own ??= { boot: bootId(), pid: Deno.pid, start: startOf(Deno.pid) ?? crypto.randomUUID() };
  return own;
}

/** Whether two holders are the same process. */
export function sameHolder(a: LeaseHolder, b: LeaseHolder): boolean {
  return a.boot === b.boot && a.pid === b.pid && a.start === b.start;
}

/**
 * True when the holder is a process of this boot that is gone (its pid is free, or now another
 * process's): its lease can be taken without waiting out the lapse. False when it may be alive,
 * or runs elsewhere, or this system cannot tell.
 */
export function holderIsDead(holder: LeaseHolder): boolean {
  const me = thisHolder();
  if (holder.boot !== me.boot || me.boot === "") return false;
  if (sameHolder(holder, me)) return false;
  const start = startOf(holder.pid);
  return start === undefined ? !pidExists(holder.pid) : start !== holder.start;
}

/**
 * This boot, and the PID namespace pids are counted in: a sandboxed harness has one of its own,
 * where a pid says nothing of processes in another, so only a holder of the same namespace can
 * be judged dead by its pid; any other waits out the lapse.
 */
function bootId(): string {
  try {
    const boot = Deno.readTextFileSync("/proc/sys/kernel/random/boot_id").trim();
    return `${boot}/${Deno.readLinkSync("/proc/self/ns/pid")}`;
  } catch {
    return "";
  }
}

/** A process's start time in ticks since boot (field 22 of /proc/<pid>/stat), or undefined. */
function startOf(pid: number): string | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

function pidExists(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}
