import { z } from "zod";

/**
 * One thing `lnk agent harness check` tries from inside a sandbox. What it finds is judged
 * outside, where the truth is known: a read returns a hash compared with the file's, a write
 * leaves a file whose arrival is looked for outside, so a hidden folder (an empty tmpfs) or a
 * hidden file (/dev/null) never passes for the real one.
 */
export const Probe = z.discriminatedUnion("kind", [
  /** Reads a file: its SHA-256 when readable. */
  z.strictObject({ kind: z.literal("read"), path: z.string() }),
  /** Creates a new file holding `token`. */
  z.strictObject({ kind: z.literal("write"), path: z.string(), token: z.string() }),
  /** Opens an existing file for writing, and closes it again having written nothing. */
  z.strictObject({ kind: z.literal("open-write"), path: z.string() }),
  /** Opens TCP to host:port, ignoring any proxy. */
  z.strictObject({ kind: z.literal("connect"), host: z.string(), port: z.number().int() }),
  /** Connects to a unix socket. */
  z.strictObject({ kind: z.literal("unix"), path: z.string() }),
  /** GET of an http:// URL through the proxy HTTP_PROXY names, as any program inside would. */
  z.strictObject({ kind: z.literal("proxy"), url: z.string() }),
  /** The network interfaces other than loopback. */
  z.strictObject({ kind: z.literal("interfaces") }),
  /** The SHA-256 of every variable's value, by name. */
  z.strictObject({ kind: z.literal("env") }),
  /** Its own rlimits (/proc/self/limits). */
  z.strictObject({ kind: z.literal("limits") }),
  /** Creates a file and sets its setuid, then its setgid bit (chmod). */
  z.strictObject({ kind: z.literal("setid"), path: z.string() }),
  /** Makes a character device and a block device. */
  z.strictObject({ kind: z.literal("mknod"), char: z.string(), block: z.string() }),
  /**
   * What the probe is: its uid and gid, its capability sets, what its descriptors 0, 1 and 2 are,
   * whether /proc/sys opens for writing, and whether pid 1 and its parent can be ptraced.
   */
  z.strictObject({ kind: z.literal("self") }),
]);
export type Probe = z.infer<typeof Probe>;

/** What one probe found: whether it got through, why not, and what it read. */
export const ProbeAnswer = z.strictObject({
  done: z.boolean(),
  /** The error's name when it failed ("NotFound", "NetworkUnreachable", "TimedOut", "no proxy"). */
  detail: z.string(),
  sha256: z.string().optional(),
  /** A proxy's answer: its status and its Link-Refused reason, if any. */
  status: z.number().optional(),
  refused: z.string().optional(),
  list: z.array(z.string()).optional(),
  hashes: z.record(z.string(), z.string()).optional(),
  /** What a limits probe read, by name. */
  values: z.record(z.string(), z.string()).optional(),
  /** What a "self" probe found, by name. */
  facts: z.record(z.string(), z.string()).optional(),
});
export type ProbeAnswer = z.infer<typeof ProbeAnswer>;

/** The probe program's input (one line on stdin) and output (one line on stdout). */
export const ProbeList = z.array(Probe);
export const ProbeAnswers = z.array(ProbeAnswer);
