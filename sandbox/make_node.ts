import { cPath, errno, libc } from "./libc.ts";

const AT_FDCWD = -100;
const S_IFCHR = 0o20000;
const S_IFBLK = 0o60000;

/**
 * Tries to make a device node at `path`, as a program in a sandbox would (`lnk agent harness
 * check` probes that it cannot): character device 1:3 (/dev/null's) or block device 8:0 (the
 * first disk's). Returns 0 when it was made, else the errno; undefined when this C library has
 * no mknodat.
 */
export function makeNode(path: string, kind: "char" | "block"): number | undefined {
  const c = libc();
  if (!c.mknodat) return undefined;
  const [type, dev] = kind === "char" ? [S_IFCHR, (1n << 8n) | 3n] : [S_IFBLK, 8n << 8n];
  return c.mknodat(AT_FDCWD, cPath(path), type | 0o600, dev) === 0 ? 0 : errno();
}
