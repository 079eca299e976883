import { z } from "zod";

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;
const UNITS: Readonly<Record<string, number>> = {
  "": 1,
  B: 1,
  K: KIB,
  KiB: KIB,
  M: MIB,
  MiB: MIB,
  G: GIB,
  GiB: GIB,
  T: 1024 * GIB,
  TiB: 1024 * GIB,
};
const SIZE = /^(\d+)\s*(B|KiB|MiB|GiB|TiB|K|M|G|T)?$/;

/** A size in bytes: a number of bytes, or text such as "4GiB" or "512MiB" (K, M, G, T are binary too). */
export const Size = z.unknown().transform((value, ctx) => {
  const bytes = typeof value === "number" ? value : sizeOf(value);
  if (bytes !== undefined && Number.isSafeInteger(bytes) && bytes > 0) return bytes;
  ctx.addIssue({ code: "custom", message: 'must be a size such as "4GiB" or "512MiB"' });
  return z.NEVER;
});

function sizeOf(value: unknown): number | undefined {
  const match = typeof value === "string" ? SIZE.exec(value) : null;
  return match ? Number(match[1]) * UNITS[match[2] ?? ""]! : undefined;
}

/**
 * What a sandbox may use, all its processes together (issue 9): tasks (processes and threads)
 * and memory, held by a cgroup where Link may make one and by rlimits otherwise, and the size of
 * any one file it writes (an rlimit). Each V8 isolate (Deno, and each of its workers) reserves
 * about 512 MiB of writable address space: under rlimits the memory bound holds each process, so
 * it is never set below 2 GiB.
 */
export const Limits = z.strictObject({
  processes: z.number().int().min(64, "must be at least 64: Deno alone runs a few dozen threads")
    .default(1024),
  memory: Size.refine((bytes) => bytes >= 2 * GIB, 'must be at least "2GiB"').prefault("4GiB"),
  file_size: Size.refine((bytes) => bytes >= MIB, 'must be at least "1MiB"').prefault("4GiB"),
});
export type Limits = z.infer<typeof Limits>;

/** A size as a person reads it: "4 GiB", "512 MiB", or bytes when it is no whole unit. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [["TiB", 1024 * GIB], ["GiB", GIB], ["MiB", MIB], ["KiB", KIB]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
