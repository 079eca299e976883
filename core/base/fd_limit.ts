import { logger } from "./log.ts";

const log = logger("limits");

/** This process's limit on open descriptors: the soft one it is held to, and the hard one it may raise it to. */
export interface FdLimit {
  soft: number;
  hard: number;
}

type Libc = {
  symbols: {
    getrlimit: (resource: number, limit: Uint8Array) => number;
    setrlimit: (resource: number, limit: Uint8Array) => number;
  };
};

/** RLIMIT_NOFILE, and the C library that has getrlimit and setrlimit, per system. */
const SYSTEMS: Partial<Record<typeof Deno.build.os, { resource: number; library: string; ceiling: bigint }>> =
  {
    // Linux refuses a soft limit above fs.nr_open (1048576 by default) even when the hard one is "unlimited".
    linux: { resource: 7, library: "libc.so.6", ceiling: 1048576n },
    // macOS refuses one above OPEN_MAX for the same reason.
    darwin: { resource: 8, library: "libSystem.B.dylib", ceiling: 10240n },
  };

let libc: Libc | undefined;

/**
 * Raises this process's soft limit on open descriptors to its hard limit, so a role that serves
 * holds as many connections as the system lets it (a flood of another user's connections meets
 * the caps of the door and the bridges long before it meets this limit). Returns the limit in
 * force after; undefined where it cannot be read (no C library to call, another system), which
 * is logged and never stops the role.
 */
export function raiseFdLimit(): FdLimit | undefined {
  const now = readFdLimit();
  if (!now || now.soft >= now.hard) return now;
  try {
    setFdLimit(now.hard);
  } catch (err) {
    log.warn("Cannot raise the limit on open descriptors", { soft: now.soft, hard: now.hard, err });
    return now;
  }
  return readFdLimit();
}

/** Whether an error says this process (EMFILE) or the system (ENFILE) has no descriptor free. */
export function isOutOfDescriptors(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "EMFILE" || code === "ENFILE";
}

/** This process's limit on open descriptors; undefined where it cannot be read. */
export function readFdLimit(): FdLimit | undefined {
  const system = SYSTEMS[Deno.build.os];
  const c = system && open(system.library);
  if (!system || !c) return undefined;
  const limit = new BigUint64Array(2);
  if (c.symbols.getrlimit(system.resource, new Uint8Array(limit.buffer)) !== 0) return undefined;
  const [soft = 0n, hard = 0n] = limit;
  const capped = (n: bigint) => Number(n > system.ceiling ? system.ceiling : n);
  return { soft: capped(soft), hard: capped(hard) };
}

/** Sets this process's soft limit on open descriptors, keeping its hard one; throws when refused. */
export function setFdLimit(soft: number): void {
  const system = SYSTEMS[Deno.build.os];
  const c = system && open(system.library);
  if (!system || !c) throw new Error(`no C library to set the limit with on ${Deno.build.os}`);
  const limit = new BigUint64Array(2);
  const bytes = new Uint8Array(limit.buffer);
  if (c.symbols.getrlimit(system.resource, bytes) !== 0) throw new Error("getrlimit failed");
  limit[0] = BigInt(soft);
  if (c.symbols.setrlimit(system.resource, bytes) !== 0) throw new Error(`setrlimit(${soft}) was refused`);
}

function open(library: string): Libc | undefined {
  if (libc) return libc;
  try {
    libc = Deno.dlopen(library, {
      getrlimit: { parameters: ["i32", "buffer"], result: "i32" },
      setrlimit: { parameters: ["i32", "buffer"], result: "i32" },
    }) as unknown as Libc;
  } catch (err) {
    log.warn("Cannot read the limit on open descriptors: the C library cannot be loaded", { err });
  }
  return libc;
}
